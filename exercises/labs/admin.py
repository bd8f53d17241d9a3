"""Read-only admin views of labs and run records (labs are edited in git)."""

from __future__ import annotations

from django.contrib import admin

from tutor.admin import ReadOnlyAdmin

from .models import Lab, LabRun, SandboxHealth


@admin.register(Lab)
class LabAdmin(ReadOnlyAdmin):
    list_display = ["title", "slug", "lesson", "version", "is_active"]


@admin.register(LabRun)
class LabRunAdmin(ReadOnlyAdmin):
    list_display = ["pk", "lab", "user", "step", "status", "created_at", "wall_ms"]
    list_filter = ["status", "lab"]


@admin.register(SandboxHealth)
class SandboxHealthAdmin(ReadOnlyAdmin):
    list_display = ["checked_at", "ok", "worker", "interpreter"]
