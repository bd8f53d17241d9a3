"""Every write of the lessons app: keyword-only, typed, one transaction each."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from tutor import audit, extensions
from tutor.errors import Refused

from .content import FixtureSource, LessonSource, read_course, sha256
from .extensions import LessonContent
from .fixture_checks import personal_data_findings, refusal_message
from .models import (
    CompletionRecord,
    Course,
    Fixture,
    FixtureVersion,
    Lesson,
    LessonDiagram,
    LessonFile,
    LessonVersion,
    SelfCheck,
    SelfReport,
)


@dataclass
class LoadReport:
    """What ``load_course`` changed, line by line, for the command to print."""

    created: list[str] = field(default_factory=list)
    new_versions: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    unpublished: list[str] = field(default_factory=list)
    published: list[str] = field(default_factory=list)
    fixtures_changed: list[str] = field(default_factory=list)
    fixtures_kept: list[str] = field(default_factory=list)
    extensions: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(
            (self.created, self.new_versions, self.unpublished, self.published, self.fixtures_changed,
             self.extensions)
        )


@transaction.atomic(durable=True)
def load_course(*, content_dir: Path, actor: User | None = None) -> LoadReport:
    """Upsert the course from its folder, idempotently.

    A lesson gets a new version only when its folder digest changes; a lesson
    whose folder is gone is unpublished, never deleted; a fixture edited in the
    admin is never overwritten by its file.
    """
    course_meta, sources = read_course(content_dir)
    contributors = extensions.providers(LessonContent)
    course, _ = Course.objects.update_or_create(
        slug=course_meta["slug"],
        defaults={"title": course_meta["title"], "description": course_meta.get("description", "")},
    )
    report = LoadReport()
    seen: set[str] = set()
    for source in sources:
        seen.add(source.slug)
        lesson = _upsert_lesson(course=course, source=source, report=report, actor=actor)
        for fixture in source.fixtures:
            _upsert_fixture(lesson=lesson, source=fixture, report=report, actor=actor)
        # Apps that build on lessons (labs, exercises) load their part of the folder;
        # lessons never imports them.
        for contributor in contributors:
            report.extensions.extend(contributor.load_lesson_content(lesson=lesson, folder=content_dir / source.slug))
    for lesson in Lesson.objects.filter(course=course, is_published=True).exclude(slug__in=seen):
        set_lesson_published(lesson=lesson, published=False, actor=actor, reason="레슨 폴더가 없어졌습니다.")
        report.unpublished.append(lesson.slug)
    return report


def _upsert_lesson(*, course: Course, source: LessonSource, report: LoadReport, actor: User | None) -> Lesson:
    lesson, created = Lesson.objects.get_or_create(
        slug=source.slug, defaults={"course": course, "order": source.order}
    )
    if lesson.order != source.order or lesson.course_id != course.pk:
        lesson.order, lesson.course = source.order, course
        lesson.save(update_fields=["order", "course"])
    current = lesson.current_version
    if current is not None and current.digest == source.digest:
        report.unchanged.append(source.slug)
    else:
        existing = lesson.versions.filter(digest=source.digest).first()
        version = existing or _create_version(lesson=lesson, source=source)
        lesson.current_version = version
        lesson.save(update_fields=["current_version"])
        (report.created if created else report.new_versions).append(source.slug)
    if lesson.is_published != source.published:
        set_lesson_published(
            lesson=lesson, published=source.published, actor=actor, reason="레슨 파일의 published 값"
        )
        (report.published if source.published else report.unpublished).append(source.slug)
    return lesson


def _create_version(*, lesson: Lesson, source: LessonSource) -> LessonVersion:
    last = lesson.versions.order_by("-number").values_list("number", flat=True).first() or 0
    version = LessonVersion.objects.create(
        lesson=lesson,
        number=last + 1,
        digest=source.digest,
        title=source.title,
        summary=source.summary,
        minutes=source.minutes,
        lab_minutes=source.lab_minutes,
        task_minutes=source.task_minutes,
        requires=source.requires,
        parts=[part.as_json() for part in source.parts],
        objectives=source.objectives,
    )
    LessonDiagram.objects.bulk_create(
        LessonDiagram(version=version, name=d.name, svg=d.svg, digest=d.digest) for d in source.diagrams
    )
    LessonFile.objects.bulk_create(
        LessonFile(version=version, name=name, content=text, digest=sha256(text.encode()))
        for name, text in source.files.items()
    )
    SelfCheck.objects.bulk_create(
        SelfCheck(version=version, order=n, key=check.key, kind=check.kind, question=check.question,
                  answer=check.answer, explanation=check.explanation)
        for n, check in enumerate(source.self_checks, start=1)
    )
    return version


@transaction.atomic(savepoint=False)
def set_lesson_published(*, lesson: Lesson, published: bool, actor: User | None, reason: str) -> None:
    """Publish or unpublish a lesson and write the audit entry; the admin and the loader both call this."""
    if lesson.is_published == published:
        return
    before = {"is_published": lesson.is_published}
    lesson.is_published = published
    lesson.save(update_fields=["is_published"])
    audit.record(
        actor=actor,
        action="lesson.publish" if published else "lesson.unpublish",
        target=lesson,
        reason=reason,
        before=before,
        after={"is_published": published},
    )


def _upsert_fixture(*, lesson: Lesson, source: FixtureSource, report: LoadReport, actor: User | None) -> None:
    fixture, _ = Fixture.objects.get_or_create(slug=source.slug, defaults={"title": source.title, "lesson": lesson})
    if fixture.loaded_file_digest == source.digest:
        return
    current = fixture.current_version
    edited_in_admin = current is not None and current.origin == FixtureVersion.Origin.ADMIN
    if edited_in_admin:
        report.fixtures_kept.append(source.slug)
        return
    version = create_fixture_version(
        fixture=fixture, text=source.text, origin=FixtureVersion.Origin.FILE, actor=actor, reason="레슨 파일에서 읽음"
    )
    fixture.loaded_file_digest = source.digest
    fixture.save(update_fields=["loaded_file_digest"])
    report.fixtures_changed.append(f"{source.slug} 판 {version.number}")


@transaction.atomic(savepoint=True)
def create_fixture_version(
    *, fixture: Fixture, text: str, origin: str, actor: User | None, reason: str
) -> FixtureVersion:
    """Add a version of a fixture and make it current, with an audit entry holding both digests.

    Refuses text that looks like real personal data, and keeps a diff against
    the previous version so a reviewer sees what changed.
    """
    findings = personal_data_findings(text)
    if findings:
        raise Refused(refusal_message(findings))
    before = fixture.current_version
    last = fixture.versions.order_by("-number").values_list("number", flat=True).first() or 0
    version = FixtureVersion.objects.create(
        fixture=fixture,
        number=last + 1,
        text=text,
        digest=sha256(text.encode("utf-8")),
        origin=origin,
        created_by=actor,
        diff_from_previous=fixture_diff(before.text if before else "", text),
    )
    fixture.current_version = version
    fixture.save(update_fields=["current_version"])
    audit.record(
        actor=actor,
        action="fixture.version",
        target=fixture,
        reason=reason,
        before=before.digest if before else None,
        after=version.digest,
        detail={"number": version.number, "origin": origin},
    )
    return version


def fixture_diff(old: str, new: str) -> str:
    """A unified diff with line numbers, as people read it in the admin."""
    return "\n".join(difflib.unified_diff(old.splitlines(), new.splitlines(), "이전 판", "새 판", lineterm=""))


def record_completion(
    *, user: User, lesson: Lesson, kind: str, item: str = ""
) -> CompletionRecord:
    """Record an activity fact once; repeating it is harmless and changes nothing.

    The fact is looked for first outside a transaction: on SQLite every write
    transaction takes the database's one write lock, and most calls (a lesson
    opened again) find the fact already there.
    """
    existing = CompletionRecord.objects.filter(user=user, lesson=lesson, kind=kind, item=item).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            assert lesson.current_version_id is not None
            record, _ = CompletionRecord.objects.get_or_create(
                user=user, lesson=lesson, kind=kind, item=item,
                defaults={"version_id": lesson.current_version_id},
            )
    except IntegrityError:  # a concurrent request recorded it first
        record = CompletionRecord.objects.get(user=user, lesson=lesson, kind=kind, item=item)
    return record


def report_understood(*, user: User, self_check: SelfCheck, confidence: int | None = None) -> SelfReport:
    """Store "이해했어요" as the learner's own report. Marking twice keeps the first time."""
    try:
        with transaction.atomic():
            report, _ = SelfReport.objects.get_or_create(
                user=user, self_check=self_check, defaults={"confidence": confidence}
            )
    except IntegrityError:
        report = SelfReport.objects.get(user=user, self_check=self_check)
    if confidence is not None and report.confidence != confidence:
        report.confidence = confidence
        report.save(update_fields=["confidence"])
    return report
