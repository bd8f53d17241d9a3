"""Read-only admin views of exercises and attempts (exercises are edited in git)."""

from __future__ import annotations

from django.contrib import admin

from tutor.admin import ReadOnlyAdmin

from .models import Attempt, Exercise


@admin.register(Exercise)
class ExerciseAdmin(ReadOnlyAdmin):
    list_display = ["title", "slug", "lesson", "version", "is_active"]


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ["pk", "exercise", "user", "number", "status", "created_at"]
    list_filter = ["status", "exercise"]
