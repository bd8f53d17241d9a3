"""Every write of the evidence app: tasks and rubrics, drafts, submissions, reviews, release."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from exercises.labs.services import request_run
from lessons.content import ContentError
from lessons.models import Fixture, Lesson
from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort

from .content import criteria_digest, read_tasks
from .models import (
    INSUFFICIENT,
    EvidenceTask,
    Flag,
    PeerAllocation,
    Reproduction,
    Review,
    RubricVersion,
    Submission,
)

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
    return len(task.fixture.current_version.numbered_lines()) if task.fixture and task.fixture.current_version else 0


@transaction.atomic
def save_draft(*, author: User, task: EvidenceTask, text: str, run_ids: list[int], lines: list[int]) -> Submission:
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
        assert task.current_rubric is not None  # loading a task always makes its first rubric version
        draft = Submission.objects.create(task=task, author=author, version=version, rubric_version=task.current_rubric)
    draft.text, draft.cited_lines = text, sorted(set(lines))
    draft.save(update_fields=["text", "cited_lines", "updated_at"])
    draft.lab_runs.set(runs)
    return draft


def submit(*, author: User, task: EvidenceTask, submit_key: str) -> Submission:
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
        assert task.current_rubric is not None
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
        allowed = {lv["key"] for lv in criterion["levels"]} | {INSUFFICIENT}
        if level not in allowed:
            raise TutorError(_("'%(c)s' 기준의 수준을 골라 주세요. 판단할 근거가 없으면 '근거 부족 / 보류'를 고르세요.")
                             % {"c": criterion["title"]})
        cleaned[criterion["key"]] = level
    return cleaned


@transaction.atomic
def record_review(*, reviewer: User, submission: Submission, kind: str, judgements: dict[str, str],
                  comment: str, citations: dict[str, str] | None = None) -> Review:
    """Add one review record of ``kind``. Self by the author, instructor by an instructor of the author.

    A review never replaces another: each reviewer writes one record per kind.
    """
    if submission.status != Submission.Status.SUBMITTED:
        raise Conflict(_("제출된 증거만 검토할 수 있습니다."))
    if kind == Review.Kind.SELF and reviewer.pk != submission.author_id:
        raise NotFound(_("그런 제출은 없습니다."))
    if kind == Review.Kind.INSTRUCTOR and not access.instructs(reviewer, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    allocation = None
    if kind == Review.Kind.PEER:
        allocation = PeerAllocation.objects.select_for_update().filter(submission=submission, reviewer=reviewer).first()
        if allocation is None:
            raise NotFound(_("그런 제출은 없습니다."))
    if Review.objects.filter(submission=submission, reviewer=reviewer, kind=kind).exists():
        raise Conflict(_("이미 이 제출에 %(kind)s를 남겼습니다. 검토 기록은 고치지 않고 쌓입니다.")
                       % {"kind": Review.Kind(kind).label})
    review = Review.objects.create(
        submission=submission, reviewer=reviewer, kind=kind, rubric_version=submission.rubric_version,
        judgements=_check_judgements(submission.rubric_version, judgements), comment=comment.strip()[:5000],
        # What in the submission (a quote, "실행 #12", "3번 줄") the reviewer based each judgement on.
        citations={key: str(text).strip()[:500] for key, text in (citations or {}).items()
                   if key in judgements and str(text).strip()},
    )
    if allocation is not None:
        allocation.completed_at = timezone.now()
        allocation.save(update_fields=["completed_at"])
        # Runs the reviewer did not try to reproduce are recorded as such, not left blank.
        tried = set(allocation.reproductions.values_list("original_id", flat=True))
        Reproduction.objects.bulk_create(
            Reproduction(allocation=allocation, original=run, status=Reproduction.Status.NOT_ATTEMPTED)
            for run in submission.lab_runs.exclude(pk__in=tried)
        )
    audit.record(actor=reviewer, action=f"review.{kind}", target=submission, after=review.judgements,
                 detail={"review": review.pk})
    return review


@transaction.atomic
def release_reviews(*, instructor: User, submission: Submission, reason: str = "") -> Submission:
    """Let the author see the reviews of this submission from now on."""
    if not access.instructs(instructor, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    if submission.released_at is None:
        submission.released_at = timezone.now()
        submission.save(update_fields=["released_at"])
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True})
    return submission


def _latest_submitted(task: EvidenceTask) -> QuerySet[Submission]:
    """Each author's newest submitted version of ``task``."""
    newest = Submission.objects.submitted().filter(task=task, author=OuterRef("author")).order_by("-version")
    return Submission.objects.submitted().filter(task=task, pk=Subquery(newest.values("pk")[:1]))


@transaction.atomic
def allocate_peer_work(*, reviewer: User, task: EvidenceTask) -> PeerAllocation:
    """Hand the reviewer one classmate's submission, just in time.

    Never their own, never one they were given before; those furthest from the
    task's minimum number of peer reviews come first, then the oldest, so late
    submitters are reviewed too. An unfinished allocation is returned again.
    """
    get_user_model().objects.select_for_update().filter(pk=reviewer.pk).first()
    open_one = PeerAllocation.objects.filter(reviewer=reviewer, submission__task=task, completed_at__isnull=True).first()
    if open_one is not None:
        return open_one
    classmates = get_user_model().objects.filter(cohorts__in=Cohort.objects.filter(learners=reviewer))
    candidate = (
        _latest_submitted(task).filter(author__in=classmates).exclude(author=reviewer)
        .exclude(allocations__reviewer=reviewer)
        .annotate(done=Count("allocations", filter=Q(allocations__completed_at__isnull=False)))
        .order_by("done", "submitted_at", "pk").first()
    )
    if candidate is None:
        raise NotFound(_("지금은 검토할 동료의 제출이 없습니다. 나중에 다시 와 주세요."))
    return PeerAllocation.objects.create(submission=candidate, reviewer=reviewer)


@transaction.atomic
def assign_peer(*, instructor: User, submission: Submission, reviewer: User) -> PeerAllocation:
    """An instructor hands a waiting submission to a chosen learner of the same cohort."""
    if not (access.instructs(instructor, submission.author) and access.instructs(instructor, reviewer)):
        raise NotFound(_("그런 제출은 없습니다."))
    if reviewer.pk == submission.author_id:
        raise TutorError(_("자기 제출을 검토하게 할 수는 없습니다."))
    allocation, _created = PeerAllocation.objects.get_or_create(
        submission=submission, reviewer=reviewer, defaults={"assigned_by": instructor})
    audit.record(actor=instructor, action="peer.assign", target=submission, detail={"reviewer": reviewer.pk})
    return allocation


@transaction.atomic
def set_min_peer_reviews(*, instructor: User, task: EvidenceTask, minimum: int, reason: str) -> EvidenceTask:
    if not access.is_instructor(instructor):
        raise NotFound(_("그런 과제는 없습니다."))
    if not 0 <= minimum <= 5:
        raise TutorError(_("최소 동료 검토 수는 0–5입니다."))
    before = task.min_peer_reviews
    task.min_peer_reviews = minimum
    task.save(update_fields=["min_peer_reviews"])
    audit.record(actor=instructor, action="task.min_peer_reviews", target=task, reason=reason,
                 before={"min": before}, after={"min": minimum})
    return task


def reproduce_run(*, reviewer: User, allocation: PeerAllocation, run: LabRun) -> Reproduction:
    """Re-run an attached lab run in the sandbox as the reviewer; the record says later whether the output matched."""
    if allocation.reviewer_id != reviewer.pk or not allocation.submission.lab_runs.filter(pk=run.pk).exists():
        raise NotFound(_("그런 실행 기록은 없습니다."))
    existing = allocation.reproductions.filter(original=run).first()
    if existing is not None:
        return existing
    rerun = request_run(user=reviewer, lab=run.lab, code=run.code, step=run.step,
                        idempotency_key=f"reproduce-{allocation.pk}-{run.pk}")
    return Reproduction.objects.create(allocation=allocation, original=run, rerun=rerun, status=Reproduction.Status.PENDING)


def settle_reproduction(*, reproduction: Reproduction) -> Reproduction:
    """Once the re-run has finished, record whether it reproduced the original (same status, exit and output)."""
    if reproduction.status != Reproduction.Status.PENDING or reproduction.rerun is None:
        return reproduction
    rerun = LabRun.objects.get(pk=reproduction.rerun.pk)  # fresh: the cached one may still say "queued"
    if not rerun.is_finished:
        return reproduction
    original = LabRun.objects.get(pk=reproduction.original_id)
    if rerun.status in {LabRun.Status.REFUSED, LabRun.Status.FAILED}:
        reproduction.status = Reproduction.Status.COULD_NOT_RUN
    elif (rerun.status, rerun.exit_code, rerun.stdout) == (original.status, original.exit_code, original.stdout):
        reproduction.status = Reproduction.Status.REPRODUCED
    else:
        reproduction.status = Reproduction.Status.DIFFERED
    reproduction.save(update_fields=["status"])
    return reproduction


def rate_helpful(*, author: User, review: Review, helpful: bool) -> Review:
    if review.submission.author_id != author.pk or review.kind != Review.Kind.PEER or review.submission.released_at is None:
        raise NotFound(_("그런 검토는 없습니다."))
    review.helpful = helpful
    review.save(update_fields=["helpful"])
    return review


@transaction.atomic
def flag_criterion(*, author: User, review: Review, criterion: str, reason: str) -> Flag:
    """The author disputes one criterion of a released review; it goes to the instructor's queue."""
    if review.submission.author_id != author.pk or review.kind == Review.Kind.SELF or review.submission.released_at is None:
        raise NotFound(_("그런 검토는 없습니다."))
    if criterion not in {c["key"] for c in review.rubric_version.criteria}:
        raise TutorError(_("그런 기준은 없습니다."))
    if not reason.strip():
        raise TutorError(_("이의를 제기하는 이유를 적어 주세요."))
    flag, created = Flag.objects.get_or_create(review=review, criterion=criterion, defaults={"reason": reason.strip()[:2000]})
    if not created:
        raise Conflict(_("이 기준에는 이미 이의를 제기했습니다."))
    audit.record(actor=author, action="review.flag", target=review.submission, reason=flag.reason,
                 detail={"review": review.pk, "criterion": criterion})
    return flag


@transaction.atomic
def resolve_flag(*, instructor: User, flag: Flag, resolution: str) -> Flag:
    if not access.instructs(instructor, flag.review.submission.author):
        raise NotFound(_("그런 이의 제기는 없습니다."))
    if not resolution.strip():
        raise TutorError(_("해결한 이유를 적어 주세요."))
    if flag.resolved_at is None:
        flag.resolved_by, flag.resolution, flag.resolved_at = instructor, resolution.strip(), timezone.now()
        flag.save(update_fields=["resolved_by", "resolution", "resolved_at"])
        audit.record(actor=instructor, action="flag.resolve", target=flag.review.submission, reason=flag.resolution,
                     detail={"flag": flag.pk})
    return flag


@transaction.atomic
def resolve_disagreement(*, instructor: User, submission: Submission, reason: str) -> Submission:
    """Close a disagreement between reviews with the instructor's reason (their own review is the final word)."""
    if not access.instructs(instructor, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    if not reason.strip():
        raise TutorError(_("불일치를 해결한 이유를 적어 주세요."))
    submission.disagreement_resolution = reason.strip()[:2000]
    submission.disagreement_resolved_at = timezone.now()
    submission.save(update_fields=["disagreement_resolution", "disagreement_resolved_at"])
    audit.record(actor=instructor, action="review.resolve_disagreement", target=submission, reason=submission.disagreement_resolution)
    return submission


def release_task(*, instructor: User, task: EvidenceTask) -> int:
    """Release the reviews of every submission of ``task`` in the instructor's cohorts; return how many."""
    if not access.is_instructor(instructor):
        raise NotFound(_("그런 과제는 없습니다."))
    cohorts = Cohort.objects.taught_by(instructor)
    pending = Submission.objects.submitted().filter(task=task, released_at__isnull=True,
                                                    author__cohorts__in=cohorts).distinct()
    count = 0
    for submission in pending:
        release_reviews(instructor=instructor, submission=submission, reason=_("과제 단위 공개"))
        count += 1
    return count
