"""Every write of the evidence app: tasks and rubrics, drafts, submissions, reviews, release."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.content import ContentError
from lessons.models import Fixture, Lesson
from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError

from .content import criteria_digest, read_tasks
from .models import INSUFFICIENT, EvidenceTask, Review, RubricVersion, Submission

MAX_TEXT_CHARS = 20_000


def load_tasks(*, lesson: Lesson, folder: Path) -> list[str]:
    """Upsert a lesson's evidence tasks; a changed rubric becomes a new version, old reviews keep theirs."""
    lines: list[str] = []
    seen: set[str] = set()
    for spec in read_tasks(folder):
        seen.add(spec["slug"])
        line = _upsert_task(lesson=lesson, spec=spec)
        if line:
            lines.append(line)
    for task in EvidenceTask.objects.filter(lesson=lesson, is_active=True).exclude(slug__in=seen):
        task.is_active = False
        task.save(update_fields=["is_active"])
    return lines


def _upsert_task(*, lesson: Lesson, spec: dict[str, Any]) -> str:
    criteria = spec.pop("criteria")
    fixture_slug = spec.pop("fixture")
    fixture = Fixture.objects.filter(slug=fixture_slug).first() if fixture_slug else None
    if fixture_slug and fixture is None:
        raise ContentError(f"{spec['slug']}: 가상 자료 '{fixture_slug}'가 없습니다.")
    task, created = EvidenceTask.objects.update_or_create(
        slug=spec["slug"], defaults={**spec, "lesson": lesson, "fixture": fixture, "is_active": True,
                                     "digest": criteria_digest(criteria)},
    )
    digest = criteria_digest(criteria)
    if task.current_rubric is not None and task.current_rubric.digest == digest:
        return ""
    number = (task.rubric_versions.aggregate(n=Max("number"))["n"] or 0) + 1
    task.current_rubric = RubricVersion.objects.create(task=task, number=number, criteria=criteria, digest=digest)
    task.save(update_fields=["current_rubric"])
    return _("증거 과제 기준표: %(slug)s 판 %(n)d") % {"slug": task.slug, "n": number}


def _line_count(task: EvidenceTask) -> int:
    return len(task.fixture.current_version.text.splitlines()) if task.fixture and task.fixture.current_version else 0


@transaction.atomic
def save_draft(*, author: AbstractBaseUser, task: EvidenceTask, text: str, run_ids: list[int], lines: list[int]) -> Submission:
    """Autosave the learner's draft (one per task); nothing typed is lost between visits."""
    if len(text) > MAX_TEXT_CHARS:
        raise TutorError(_("증거 글은 %(n)d자까지입니다. 글은 편집란에 그대로 있습니다.") % {"n": MAX_TEXT_CHARS})
    runs = list(LabRun.objects.filter(pk__in=run_ids, user=author)) if task.attach_runs else []
    if len(runs) != len(set(run_ids)) and task.attach_runs:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    count = _line_count(task)
    if any(not 1 <= n <= count for n in lines):
        raise TutorError(_("인용한 줄이 원문(1–%(n)d번 줄) 밖에 있습니다.") % {"n": count})
    draft = Submission.objects.select_for_update().filter(task=task, author=author, status=Submission.Status.DRAFT).first()
    if draft is None:
        version = (Submission.objects.filter(task=task, author=author).aggregate(n=Max("version"))["n"] or 0) + 1
        draft = Submission.objects.create(task=task, author=author, version=version, rubric_version=task.current_rubric)
    draft.text, draft.cited_lines = text, sorted(set(lines))
    draft.save(update_fields=["text", "cited_lines", "updated_at"])
    draft.lab_runs.set(runs)
    return draft


def submit(*, author: AbstractBaseUser, task: EvidenceTask, submit_key: str) -> Submission:
    """Seal the draft, recording the fixture and rubric versions it was made against. One key, one submission."""
    key = submit_key.strip()[:64]
    if not key:
        raise TutorError(_("요청 키가 없습니다. 페이지를 새로 고친 뒤 다시 제출해 주세요."))
    existing = Submission.objects.filter(task=task, author=author, submit_key=key).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        draft = (Submission.objects.select_for_update()
                 .filter(task=task, author=author, status=Submission.Status.DRAFT).first())
        if draft is None or not draft.text.strip():
            raise TutorError(_("제출할 글이 없습니다. 먼저 증거를 적어 주세요."))
        draft.status = Submission.Status.SUBMITTED
        draft.submit_key = key
        draft.submitted_at = timezone.now()
        draft.rubric_version = task.current_rubric
        draft.fixture_version = task.fixture.current_version if task.fixture else None
        try:
            draft.save()
        except IntegrityError:
            return Submission.objects.get(task=task, author=author, submit_key=key)
    return draft


def _check_judgements(rubric: RubricVersion, judgements: dict[str, str]) -> dict[str, str]:
    cleaned = {}
    for criterion in rubric.criteria:
        level = judgements.get(criterion["key"], "")
        allowed = {l["key"] for l in criterion["levels"]} | {INSUFFICIENT}
        if level not in allowed:
            raise TutorError(_("'%(c)s' 기준의 수준을 골라 주세요. 판단할 근거가 없으면 '근거 부족 / 보류'를 고르세요.")
                             % {"c": criterion["title"]})
        cleaned[criterion["key"]] = level
    return cleaned


@transaction.atomic
def record_review(*, reviewer: AbstractBaseUser, submission: Submission, kind: str, judgements: dict[str, str],
                  comment: str) -> Review:
    """Add one review record of ``kind``. Self by the author, instructor by an instructor of the author.

    A review never replaces another: each reviewer writes one record per kind.
    """
    if submission.status != Submission.Status.SUBMITTED:
        raise Conflict(_("제출된 증거만 검토할 수 있습니다."))
    if kind == Review.Kind.SELF and reviewer.pk != submission.author_id:
        raise NotFound(_("그런 제출은 없습니다."))
    if kind == Review.Kind.INSTRUCTOR and not access.instructs(reviewer, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    if kind not in (Review.Kind.SELF, Review.Kind.INSTRUCTOR):
        raise TutorError(_("이 검토 종류는 아직 받을 수 없습니다."))
    if Review.objects.filter(submission=submission, reviewer=reviewer, kind=kind).exists():
        raise Conflict(_("이미 이 제출에 %(kind)s를 남겼습니다. 검토 기록은 고치지 않고 쌓입니다.")
                       % {"kind": Review.Kind(kind).label})
    review = Review.objects.create(
        submission=submission, reviewer=reviewer, kind=kind, rubric_version=submission.rubric_version,
        judgements=_check_judgements(submission.rubric_version, judgements), comment=comment.strip()[:5000],
    )
    audit.record(actor=reviewer, action=f"review.{kind}", target=submission, after=review.judgements,
                 detail={"review": review.pk})
    return review


@transaction.atomic
def release_reviews(*, instructor: AbstractBaseUser, submission: Submission, reason: str = "") -> Submission:
    """Let the author see the reviews of this submission from now on."""
    if not access.instructs(instructor, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    if submission.released_at is None:
        submission.released_at = timezone.now()
        submission.save(update_fields=["released_at"])
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True})
    return submission
