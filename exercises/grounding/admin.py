"""Read-only admin views of exercises and attempts (exercises are edited in git)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from tutor.admin import ReadOnlyAdmin, staff
from tutor.errors import TutorError

from .models import Attempt, Exercise
from .services import confirm_keys


@admin.register(Exercise)
class ExerciseAdmin(ReadOnlyAdmin):
    list_display = ["title", "slug", "lesson", "version", "is_active"]
    actions = ["confirm_keys"]

    @admin.action(description="답안 키가 지금 원문 판에도 맞는다고 확인 (바뀐 줄을 다시 읽은 뒤)")
    def confirm_keys(self, request: HttpRequest, queryset: Any) -> None:
        actor = staff(request)
        if actor is None:
            return
        for exercise in queryset:
            try:
                confirm_keys(actor=actor, exercise=exercise, reason="관리 화면에서 확인: 바뀐 줄에 기대는 답안 키를 다시 읽음")
            except TutorError as refused:
                self.message_user(request, refused.detail, messages.ERROR)
                return
        self.message_user(request, "답안 키를 지금 원문 판에 다시 고정하고 감사 기록을 남겼습니다.", messages.SUCCESS)


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ["pk", "exercise", "user", "number", "status", "created_at"]
    list_filter = ["status", "exercise"]
