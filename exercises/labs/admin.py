"""Read-only admin views of labs and run records (labs are edited in git)."""

from __future__ import annotations

from django.contrib import admin

from tutor.admin import ReadOnlyAdmin

from . import records
from .models import Lab, LabRun, SandboxHealth


@admin.register(Lab)
class LabAdmin(ReadOnlyAdmin):
    list_display = ["title", "slug", "lesson", "version", "is_active"]


@admin.register(LabRun)
class LabRunAdmin(ReadOnlyAdmin):
    list_display = ["pk", "lab", "user", "step", "status", "created_at", "wall_ms", "seal_state"]
    list_filter = ["status", "lab"]

    @admin.display(description="봉인")
    def seal_state(self, run: LabRun) -> str:
        return records.check_seal(run).message


@admin.register(SandboxHealth)
class SandboxHealthAdmin(ReadOnlyAdmin):
    list_display = ["checked_at", "ok", "worker", "interpreter"]
