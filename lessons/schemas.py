"""API shapes of the lessons app. Answers appear only in ``SelfCheckAnswerOut``.

The output shapes read the objects the selectors return (a ``Lesson`` with its current version, a ``SelfReport``,
a ``LessonProgress``): a field named as the object's attribute is read as it is, and the ``resolve_*`` methods say
where the others come from, so the API's functions return what the selectors gave them.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from ninja import Field, Schema

NOT_CERTIFIED = _("진도, 자기 점검, 검토는 서로 다른 기록이며 어느 것도 실력을 인증하지 않습니다.")

if TYPE_CHECKING:
    from .models import Lesson, LessonVersion, SelfCheck, SelfReport
    from .selectors import LessonProgress


def _current(lesson: Lesson) -> LessonVersion:
    version = lesson.current_version
    assert version is not None  # the selectors return only lessons with a version
    return version


class LessonOut(Schema):
    slug: str
    title: str
    summary: str
    order: int
    minutes: int
    version: int
    is_published: bool
    url: str

    @staticmethod
    def resolve_title(lesson: Lesson) -> str:
        return _current(lesson).title

    @staticmethod
    def resolve_summary(lesson: Lesson) -> str:
        return _current(lesson).summary

    @staticmethod
    def resolve_minutes(lesson: Lesson) -> int:
        return _current(lesson).minutes

    @staticmethod
    def resolve_version(lesson: Lesson) -> int:
        return _current(lesson).number

    @staticmethod
    def resolve_url(lesson: Lesson) -> str:
        return reverse("lessons:detail", args=[lesson.slug])


class PartOut(Schema):
    number: int
    key: str
    title: str
    anchor: str
    html: str


class SelfCheckOut(Schema):
    key: str
    kind: str
    question: str


class LessonDetailOut(LessonOut):
    """One lesson's current version: its parts with their quoted fixtures, the self-check questions (never their
    answers) and file names, and the notice that reading is not mastery."""

    objectives: list[str]
    parts: list[PartOut]
    self_checks: list[SelfCheckOut]
    files: list[str]
    notice: str

    @staticmethod
    def resolve_objectives(lesson: Lesson) -> list[str]:
        return list(_current(lesson).objectives)

    @staticmethod
    def resolve_parts(lesson: Lesson) -> list[dict]:
        from .selectors import fixtures_quoted, quoted_parts

        version = _current(lesson)
        return quoted_parts(version, fixtures_quoted(version))

    @staticmethod
    def resolve_self_checks(lesson: Lesson) -> list[SelfCheck]:
        return list(_current(lesson).self_checks.all())

    @staticmethod
    def resolve_files(lesson: Lesson) -> list[str]:
        return list(_current(lesson).files.values_list("name", flat=True))

    @staticmethod
    def resolve_notice(lesson: Lesson) -> str:
        return gettext("읽기는 숙달이 아닙니다.") + " " + str(NOT_CERTIFIED)


class SelfCheckAnswerOut(Schema):
    key: str
    question: str
    answer: str
    explanation: str


class UnderstoodIn(Schema):
    confidence: int | None = Field(None, ge=1, le=3, description="1 조금 헷갈려요 · 2 대체로 알겠어요 · 3 설명할 수 있어요")


class SelfReportOut(Schema):
    key: str
    version: int = Field(..., description="the lesson version whose self-check this report answered")
    understood_at: datetime
    confidence: int | None

    @staticmethod
    def resolve_key(report: SelfReport) -> str:
        return report.self_check.key

    @staticmethod
    def resolve_version(report: SelfReport) -> int:
        return report.self_check.version.number

    @staticmethod
    def resolve_understood_at(report: SelfReport) -> datetime:
        return report.at


class CompletionTrackOut(Schema):
    opened_at: datetime | None
    parts_reached: int
    parts_total: int
    answers_revealed: int
    labs_run: int
    exercises_attempted: int


class EarlierVersionOut(Schema):
    version: int
    understood: int


class SelfReportTrackOut(Schema):
    """Read from a ``LessonProgress``."""

    understood: int = Field(..., description="reports on the current version's self-checks only")
    self_checks: int
    version: int | None
    standard_changed: bool = Field(..., description="기준 변경됨: reports exist on a version the lesson moved on from")
    earlier_versions: list[EarlierVersionOut]
    reports: list[SelfReportOut]

    @staticmethod
    def resolve_understood(entry: LessonProgress) -> int:
        return len(entry.understood)

    @staticmethod
    def resolve_self_checks(entry: LessonProgress) -> int:
        return entry.self_checks_total

    @staticmethod
    def resolve_version(entry: LessonProgress) -> int | None:
        return entry.lesson.current_version.number if entry.lesson.current_version else None

    @staticmethod
    def resolve_earlier_versions(entry: LessonProgress) -> list[dict[str, int]]:
        return [{"version": number, "understood": count} for number, count in entry.earlier_versions]

    @staticmethod
    def resolve_reports(entry: LessonProgress) -> list[SelfReport]:
        return entry.understood


class ReviewTrackOut(Schema):
    records: list[str]

    @staticmethod
    def resolve_records(entry: LessonProgress) -> list[str]:
        return entry.reviews


class LessonProgressOut(Schema):
    """One lesson's three tracks side by side, each read from the same ``LessonProgress`` and never combined."""

    lesson: str
    title: str
    completion: CompletionTrackOut
    self_report: SelfReportTrackOut
    review: ReviewTrackOut

    @staticmethod
    def resolve_lesson(entry: LessonProgress) -> str:
        return entry.lesson.slug

    @staticmethod
    def resolve_title(entry: LessonProgress) -> str:
        return str(entry.lesson)

    @staticmethod
    def resolve_completion(entry: LessonProgress) -> LessonProgress:
        return entry

    @staticmethod
    def resolve_self_report(entry: LessonProgress) -> LessonProgress:
        return entry

    @staticmethod
    def resolve_review(entry: LessonProgress) -> LessonProgress:
        return entry


class ProgressOut(Schema):
    notice: str
    lessons: list[LessonProgressOut]
