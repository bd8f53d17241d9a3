"""Read-only admin views of labs and run records (labs are edited in git)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Lab, LabRun, SandboxHealth


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
