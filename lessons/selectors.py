"""Reads that depend on who asks. Each ``access_*`` returns the thing or raises ``NotFound``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.utils.translation import gettext

from tutor import access, extensions
from tutor.access import AnyUser
from tutor.errors import NotFound

from .content import SLUG
from .extensions import LearnerRecords, ReviewRecords
from .fixture_refs import FixtureUse, lines_referred, named_uses, resolve, use, versions_for
from .models import (
    CompletionRecord,
    Fixture,
    FixtureVersion,
    Lesson,
    LessonDiagram,
    LessonFile,
    LessonQuerySet,
    LessonVersion,
    PartKey,
    SelfCheck,
    SelfReport,
)


def visible_lessons(user: AnyUser) -> list[Lesson]:
    """Lessons in course order: published ones for everybody, all of them for those who may preview.

    For lists: each version's parts (the whole lesson as HTML, JSON) are left unread.
    """
    return list(_listed_lessons(user))


def _listed_lessons(user: AnyUser) -> LessonQuerySet:
    lessons = Lesson.objects.with_current().filter(current_version__isnull=False).defer("current_version__parts")
    return lessons if access.may_see_unpublished(user) else lessons.published()


@dataclass(frozen=True)
class MapEntry:
    """One lesson on the course map: what to do first (only lessons ``user`` may see) and how long it takes."""

    lesson: Lesson
    requires: list[Lesson]

    @property
    def total_minutes(self) -> int:
        version = self.lesson.current_version
        return version.minutes + version.lab_minutes + version.task_minutes if version else 0


def course_map(user: AnyUser, lessons: Sequence[Lesson] | None = None) -> list[MapEntry]:
    """The course in order with each lesson's prerequisites, as ``user`` may see them."""
    listed = list(lessons) if lessons is not None else visible_lessons(user)
    by_slug = {lesson.slug: lesson for lesson in listed}
    return [
        MapEntry(lesson=lesson, requires=[by_slug[s] for s in lesson.current_version.requires if s in by_slug])
        for lesson in listed
        if lesson.current_version is not None
    ]


def required_lessons(user: AnyUser, lesson: Lesson) -> list[Lesson]:
    """The lessons ``lesson`` asks to be done first, among those ``user`` may read, in course order."""
    version = lesson.current_version
    slugs = list(version.requires) if version is not None else []
    return list(_listed_lessons(user).filter(slug__in=slugs).order_by("order", "slug")) if slugs else []


def published_lessons() -> list[Lesson]:
    """What every learner sees, in course order (a cohort's progress table is over these)."""
    return list(Lesson.objects.with_current().filter(current_version__isnull=False).published()
                .defer("current_version__parts"))


def fixtures_quoted(version: LessonVersion) -> dict[str, FixtureVersion]:
    """The versions in use of the fixtures the lesson's text points at (one query, none if it points at none)."""
    return versions_for(*(part["html"] for part in version.parts))


def quoted_parts(version: LessonVersion, fixtures: dict[str, FixtureVersion]) -> list[dict]:
    """The lesson's parts with each fixture reference filled from ``fixtures``, never a copied value."""
    return [{**part, "html": resolve(part["html"], fixtures, html=True)} for part in version.parts]


def access_lesson(user: AnyUser, slug: str) -> Lesson:
    """Return the lesson if ``user`` may read it; an unpublished one is 404 to learners and visitors."""
    lesson = None
    if SLUG.match(slug):  # never send odd bytes (NUL, megabytes) to the database
        lesson = Lesson.objects.with_current().filter(slug=slug, current_version__isnull=False).first()
    return readable_lesson(user, lesson)


def readable_lesson(user: AnyUser, lesson: Lesson | None) -> Lesson:
    """``lesson`` (fetched with its current version and course) if ``user`` may read it; else the same 404 as
    ``access_lesson``, so a selector that reaches a lesson through a join (a lab's) needs no second query."""
    if lesson is None or lesson.current_version_id is None:
        raise NotFound(gettext("그런 레슨은 없습니다."))
    if not lesson.is_published and not access.may_see_unpublished(user):
        raise NotFound(gettext("그런 레슨은 없습니다."), target=lesson, reason="미게시 레슨")
    return lesson


def access_self_check(user: AnyUser, slug: str, key: str) -> SelfCheck:
    """Return a self-check of the lesson's current version; answers need sign-in."""
    access.require_sign_in(user)
    lesson = access_lesson(user, slug)
    check = None
    if SLUG.match(key):
        check = SelfCheck.objects.select_related("version__lesson").filter(version=lesson.current_version, key=key).first()
    if check is None:
        raise NotFound(gettext("그런 확인 문제는 없습니다."))
    return check


def access_lesson_file(user: AnyUser, slug: str, name: str) -> LessonFile:
    lesson = access_lesson(user, slug)
    file = LessonFile.objects.filter(version=lesson.current_version, name=name).first()
    if file is None:
        raise NotFound(gettext("그런 실습 파일은 없습니다."))
    return file


def access_diagram(user: AnyUser, slug: str, digest: str, name: str) -> LessonDiagram:
    """Return a diagram of any version of a lesson ``user`` may read, found by its content digest."""
    lesson = access_lesson(user, slug)
    diagram = LessonDiagram.objects.filter(version__lesson=lesson, name=name, digest=digest).first()
    if diagram is None:
        raise NotFound(gettext("그런 그림은 없습니다."))
    return diagram


def next_lesson(user: AnyUser, lesson: Lesson) -> Lesson | None:
    """The lesson after ``lesson`` in course order among those ``user`` may read, if any."""
    later = Q(order__gt=lesson.order) | Q(order=lesson.order, slug__gt=lesson.slug)
    return _listed_lessons(user).filter(later).order_by("order", "slug").first()


def reports_for(user: AnyUser, lesson: Lesson) -> dict[str, SelfReport]:
    """The user's self-reports on the current version's self-checks, by key."""
    if not user.is_authenticated:
        return {}
    reports = SelfReport.objects.by(user).filter(self_check__version=lesson.current_version).select_related("self_check")
    return {report.self_check.key: report for report in reports}


def earlier_reports_count(user: AnyUser, lesson: Lesson) -> int:
    """How many of the user's self-reports answered self-checks of versions the lesson has moved on from."""
    if not user.is_authenticated:
        return 0
    return (SelfReport.objects.by(user).filter(self_check__version__lesson=lesson)
            .exclude(self_check__version=lesson.current_version).count())


@dataclass(frozen=True)
class RecordLink:
    """One record of a learner's own work, linked: a run, an attempt, a submission or a released review.

    ``track`` says where it belongs: ``activity`` beside completion, ``review``
    in the review track. Apps that build on lessons provide them through
    ``record_links_for(user)`` on their AppConfig.
    """

    track: str
    label: str
    url: str
    at: datetime | None = None
    waiting: str = ""


@dataclass
class LessonProgress:
    """One lesson's three tracks for one learner, kept side by side and never combined."""

    lesson: Lesson
    opened_at: datetime | None = None
    parts_reached: int = 0
    answers_revealed: int = 0
    labs_run: int = 0
    exercises_attempted: int = 0
    self_checks_total: int = 0
    understood: list[SelfReport] = field(default_factory=list)
    earlier: dict[int, int] = field(default_factory=dict)
    reviews: list[str] = field(default_factory=list)
    records: list[RecordLink] = field(default_factory=list)

    parts_total: int = len(PartKey.values)

    @property
    def standard_changed(self) -> bool:
        """"기준 변경됨": some self-reports answered self-checks of a version the lesson has moved on from."""
        return bool(self.earlier)

    @property
    def activity_records(self) -> list[RecordLink]:
        return [record for record in self.records if record.track == "activity"]

    @property
    def review_records(self) -> list[RecordLink]:
        return [record for record in self.records if record.track == "review"]

    @property
    def state(self) -> str:
        """The completion track in one word for the lesson list: 아직 / 읽는 중 / 끝까지 읽음 (a fact, not a grade)."""
        if self.opened_at is None:
            return "not-started"
        return "read" if self.parts_reached >= self.parts_total else "reading"

    @property
    def earlier_versions(self) -> list[tuple[int, int]]:
        return sorted(self.earlier.items())


def progress_of(user: User) -> list[LessonProgress]:
    """Completion and self-report per visible lesson for ``user``; review records join in later apps.

    For the learner's own pages, apps that build on lessons also link each
    record (runs, attempts, submissions, readable reviews) by ``record_links_for``.
    """
    progress = progress_of_learners([user], lessons=visible_lessons(user))[user.pk]
    by_lesson = {entry.lesson.pk: entry for entry in progress}
    for app in extensions.providers(LearnerRecords):
        for lesson_id, links in app.record_links_for(user).items():
            if lesson_id in by_lesson:
                by_lesson[lesson_id].records.extend(links)
    return progress


#: The completion counters of ``LessonProgress``, by the kind of fact that adds one.
_COUNTED: dict[str, str] = {
    CompletionRecord.Kind.PART_REACHED: "parts_reached",
    CompletionRecord.Kind.ANSWER_REVEALED: "answers_revealed",
    CompletionRecord.Kind.LAB_RUN: "labs_run",
    CompletionRecord.Kind.EXERCISE_ATTEMPTED: "exercises_attempted",
}


def _count_completion(entry: LessonProgress, record: CompletionRecord) -> None:
    if record.kind == CompletionRecord.Kind.OPENED:
        entry.opened_at = record.at
    elif (counter := _COUNTED.get(record.kind)) is not None:
        setattr(entry, counter, getattr(entry, counter) + 1)


def progress_of_learners(
    users: Sequence[User], *, lessons: list[Lesson]
) -> dict[Any, list[LessonProgress]]:
    """Each learner's three tracks over ``lessons``, by user id, in the same few queries for 1 or 50.

    A cohort's progress page once ran seven queries per learner; everything here
    is read with ``user__in`` and sorted into the table in Python.
    """
    user_ids = [user.pk for user in users]
    table = {uid: {lesson.pk: LessonProgress(lesson=lesson) for lesson in lessons} for uid in user_ids}
    if not user_ids or not lessons:
        return {uid: list(rows.values()) for uid, rows in table.items()}
    totals = dict(
        SelfCheck.objects.filter(version__in=[lesson.current_version_id for lesson in lessons])
        .values("version__lesson").annotate(n=Count("id")).values_list("version__lesson", "n")
    )
    for rows in table.values():
        for lesson_id, entry in rows.items():
            entry.self_checks_total = totals.get(lesson_id, 0)
    for record in CompletionRecord.objects.filter(user_id__in=user_ids, lesson__in=lessons):
        _count_completion(table[record.user_id][record.lesson_id], record)
    # Each report counts against the version of the self-check it answered, never against a newer one.
    reports = (SelfReport.objects.filter(user_id__in=user_ids, self_check__version__lesson__in=lessons)
               .select_related("self_check__version"))
    for report in reports:
        entry = table[report.user_id][report.self_check.version.lesson_id]
        if report.self_check.version_id == entry.lesson.current_version_id:
            entry.understood.append(report)
        else:
            number = report.self_check.version.number
            entry.earlier[number] = entry.earlier.get(number, 0) + 1
    # Review records live in an app that builds on lessons; it answers for itself.
    for app in extensions.providers(ReviewRecords):
        for uid, by_lesson in app.review_records_for(user_ids).items():
            for lesson_id, records in by_lesson.items():
                if lesson_id in table.get(uid, {}):
                    table[uid][lesson_id].reviews.extend(records)
    return {uid: list(rows.values()) for uid, rows in table.items()}


def resume_point(user: User, progress: list[LessonProgress]) -> tuple[Lesson, str] | None:
    """Where 이어서 하기 leads: the lesson last touched, at the anchor of the first part not yet reached.

    A lesson read to the end hands over to the next one not finished; with
    nothing touched yet, the first lesson.
    """
    if not progress:
        return None
    last = (CompletionRecord.objects.filter(user=user, lesson__in=[entry.lesson for entry in progress])
            .order_by("-at", "-id").values_list("lesson_id", flat=True).first())
    by_id = {entry.lesson.pk: entry for entry in progress}
    entry = by_id.get(last) if last else None
    if entry is None:
        return progress[0].lesson, ""
    if entry.state == "read":
        later = [other for other in progress if other.state != "read"
                 and (other.lesson.order, other.lesson.slug) > (entry.lesson.order, entry.lesson.slug)]
        return (later[0].lesson, "") if later else (entry.lesson, "next-step")
    reached = set(CompletionRecord.objects.filter(user=user, lesson=entry.lesson,
                                                  kind=CompletionRecord.Kind.PART_REACHED)
                  .values_list("item", flat=True))
    parts = entry.lesson.current_version.parts if entry.lesson.current_version else []
    missing = next((part["anchor"] for part in parts if part["key"] not in reached), "")
    return entry.lesson, missing


def fixture_uses(fixture: Fixture) -> list[FixtureUse]:
    """Current lesson texts that point at ``fixture``, and lesson texts or files that copy one of its lines.

    A copy is a line long enough to be recognised (8 characters or more) found
    word for word: what a reference would have avoided, listed so an edit warns of it.
    """
    lines = [line.strip() for line in fixture.current_version.text.splitlines()] if fixture.current_version else []

    def copied(text: str) -> set[int]:
        return {n for n, line in enumerate(lines, start=1) if len(line) >= 8 and line in text}

    uses = []
    for lesson in Lesson.objects.with_current().filter(current_version__isnull=False).prefetch_related(
            "current_version__files"):
        version = lesson.current_version
        assert version is not None
        text = "".join(part["html"] for part in version.parts)
        if f"[[{fixture.slug}" in text:
            uses.append(use("레슨 본문", f"{lesson.order}. {version.title}", lines_referred(text, fixture.slug)))
        if found := copied(text):
            uses.append(use("레슨 본문 (줄을 그대로 옮김)", f"{lesson.order}. {version.title}", found))
        if lesson.pk == fixture.lesson_id:
            uses += named_uses("레슨 본문 (줄 번호나 값으로 가리킴)", f"{lesson.order}. {version.title}", text,
                               fixture.current_version)
        for file in version.files.all():
            if found := copied(file.content):
                uses.append(use("레슨 파일 (줄을 그대로 옮김)", f"{version.title} · {file.name}", found))
    for other in Fixture.objects.exclude(pk=fixture.pk).select_related("current_version"):
        if other.current_version is not None and (found := copied(other.current_version.text)):
            uses.append(use("다른 가상 자료 (줄을 그대로 옮김)", f"{other.title} ({other.slug})", found))
    return uses
