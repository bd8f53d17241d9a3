"""What the lessons app holds about a person (tutor.accounts.registry): completion facts and self-reports."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import F

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from .models import CompletionRecord, SelfReport


def completion_rows(user: User) -> Sequence[Row]:
    return list(CompletionRecord.objects.filter(user=user).order_by("at", "pk").values(
        "at", lesson_slug=F("lesson__slug"), lesson_version=F("version__number"), record_kind=F("kind"), record_item=F("item")))


def self_report_rows(user: User) -> Sequence[Row]:
    return list(SelfReport.objects.filter(user=user).order_by("at", "pk").values(
        "at", "confidence", lesson_slug=F("self_check__version__lesson__slug"),
        lesson_version=F("self_check__version__number"), self_check_key=F("self_check__key")))


def erase_completion(user: User) -> int:
    return delete_rows(CompletionRecord.objects.filter(user=user))


def erase_self_reports(user: User) -> int:
    return delete_rows(SelfReport.objects.filter(user=user))


register(RecordKind(name="completion", title="진도 기록 (열람·도달·실행·시도)", rows=completion_rows,
                    links=("lessons.CompletionRecord.user",), erase=erase_completion, order=40))
register(RecordKind(name="self_reports", title="자기 점검 (이해했어요)", rows=self_report_rows,
                    links=("lessons.SelfReport.user",), erase=erase_self_reports, order=40))
not_personal("lessons.FixtureVersion.created_by",
             "자료 관리자가 고친 가상 자료의 판: 공유 자료의 이력이며 그 사람에 관한 기록이 아님 (남김)")
