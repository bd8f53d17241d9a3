"""What the grounding app holds about a person (tutor.accounts.registry): attempts and their claim marks."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import F

from tutor.accounts.registry import RecordKind, Row, delete_rows, register

from .models import Attempt, ClaimMark


def attempt_rows(user: User) -> Sequence[Row]:
    return list(Attempt.objects.filter(user=user).order_by("created_at", "pk").values(
        "id", "number", "variant_key", "exercise_version", "answer_text", "status", "feedback", "created_at",
        "submitted_at", exercise_slug=F("exercise__slug"), fixture_slug=F("fixture_version__fixture__slug"),
        fixture_version_number=F("fixture_version__number")))


def mark_rows(user: User) -> Sequence[Row]:
    return list(ClaimMark.objects.filter(attempt__user=user).order_by("attempt__created_at", "attempt", "order").values(
        "order", "text", "judgement", "question_key", "cited_lines", attempt_number=F("attempt__number"),
        exercise_slug=F("attempt__exercise__slug")))


def erase_marks(user: User) -> int:
    return delete_rows(ClaimMark.objects.filter(attempt__user=user))


def erase_attempts(user: User) -> int:
    return delete_rows(Attempt.objects.filter(user=user))


register(RecordKind(name="grounding_attempts", title="근거 연습 시도", rows=attempt_rows,
                    links=("grounding.Attempt.user",), erase=erase_attempts, order=20))
register(RecordKind(name="grounding_marks", title="근거 연습 표시 (주장마다 근거·자료없음·보류)", rows=mark_rows,
                    erase=erase_marks, order=19))
