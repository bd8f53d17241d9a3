"""API shapes of the lessons app. Answers appear only in ``SelfCheckAnswerOut``."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema


class LessonOut(Schema):
    slug: str
    title: str
    summary: str
    order: int
    minutes: int
    version: int
    is_published: bool
    url: str


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
    objectives: list[str]
    parts: list[PartOut]
    self_checks: list[SelfCheckOut]
    files: list[str]
    notice: str


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
    understood: int = Field(..., description="reports on the current version's self-checks only")
    self_checks: int
    version: int
    standard_changed: bool = Field(..., description="기준 변경됨: reports exist on a version the lesson moved on from")
    earlier_versions: list[EarlierVersionOut]
    reports: list[SelfReportOut]


class ReviewTrackOut(Schema):
    records: list[str]


class LessonProgressOut(Schema):
    lesson: str
    title: str
    completion: CompletionTrackOut
    self_report: SelfReportTrackOut
    review: ReviewTrackOut


class ProgressOut(Schema):
    notice: str
    lessons: list[LessonProgressOut]
