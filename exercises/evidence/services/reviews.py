"""Reviews: a reviewer's judgements, the author opening and rating them, practice reviews."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort

from ..models import (
    INSUFFICIENT,
    CalibrationExample,
    CalibrationReview,
    PeerAllocation,
    Reproduction,
    Review,
    RubricVersion,
    Submission,
)
from .limits import MAX_CITATION_CHARS


def check_judgements(rubric: RubricVersion, judgements: dict[str, str]) -> dict[str, str]:
    """Every criterion of the rubric gets one of its levels (or 근거 부족 / 보류); nothing else is kept."""
    cleaned = {}
    for criterion in rubric.criteria:
        level = judgements.get(criterion["key"], "")
        allowed = {lv["key"] for lv in criterion["levels"]} | {INSUFFICIENT}
        if level not in allowed:
            raise TutorError(_("'%(c)s' 기준의 수준을 골라 주세요. 판단할 근거가 없으면 '근거 부족 / 보류'를 고르세요.")
                             % {"c": criterion["title"]})
        cleaned[criterion["key"]] = level
    return cleaned


def _check_citations(rubric: RubricVersion, citations: dict[str, Any]) -> dict[str, str]:
    """A citation belongs to one of the rubric's own criteria; any other key, or an overlong one, is refused."""
    keys = {criterion["key"] for criterion in rubric.criteria}
    unknown = sorted(str(key) for key in citations if key not in keys)
    if unknown:
        raise TutorError(_("기준표에 없는 기준의 근거는 받지 않습니다: %(keys)s") % {"keys": ", ".join(unknown[:5])})
    cleaned = {key: str(text).strip() for key, text in citations.items() if str(text).strip()}
    if any(len(text) > MAX_CITATION_CHARS for text in cleaned.values()):
        raise TutorError(_("기준별 근거는 %(n)d자까지입니다.") % {"n": MAX_CITATION_CHARS})
    return cleaned


def _review_cohort(*, reviewer: User, submission: Submission, kind: str,
                   allocation: PeerAllocation | None) -> Cohort | None:
    """The cohort a review is written in, whose instructors release it."""
    of_author = Cohort.objects.attended_by(submission.author).order_by("pk")
    if kind == access.INSTRUCTOR_REVIEW:
        return of_author.filter(pk__in=access.cohorts_where(reviewer, access.Perm.REVIEW)).first() or of_author.first()
    if kind == access.PEER_REVIEW and allocation is not None:
        if allocation.assigned_by is not None:
            return (of_author.filter(pk__in=access.cohorts_where(allocation.assigned_by, access.Perm.ASSIGN)).first()
                    or of_author.first())
        return of_author.filter(pk__in=Cohort.objects.attended_by(reviewer)).first() or of_author.first()
    return None


@transaction.atomic(durable=True)
def record_review(*, reviewer: User, submission: Submission, kind: str, judgements: dict[str, str],
                  comment: str, citations: dict[str, str] | None = None) -> Review:
    """Add one review record of ``kind``, the one the access policy says ``reviewer`` writes.

    A review never replaces another: each reviewer writes one record per kind.
    A peer writes only while holding a live lease on the submission.
    """
    if submission.status != Submission.Status.SUBMITTED:
        raise Conflict(_("제출된 증거만 검토할 수 있습니다."))
    allocation = (PeerAllocation.objects.select_for_update().filter(submission=submission, reviewer=reviewer).first()
                  if reviewer.is_authenticated else None)
    if access.review_kind_for(reviewer, author=submission.author, allocated=allocation is not None) != kind:
        raise NotFound(_("그런 제출은 없습니다."))
    if kind == access.PEER_REVIEW and (allocation is None or not allocation.is_live(timezone.now())):
        raise Conflict(_("이 동료 작업은 기한이 지났거나 돌려주어 더는 검토할 수 없습니다."))
    if Review.objects.filter(submission=submission, reviewer=reviewer, kind=kind).exists():
        raise Conflict(_("이미 이 제출에 %(kind)s를 남겼습니다. 검토 기록은 고치지 않고 쌓입니다.")
                       % {"kind": Review.Kind(kind).label})
    rubric = submission.rubric_version
    review = Review.objects.create(
        submission=submission, reviewer=reviewer, kind=kind, rubric_version=rubric,
        judgements=check_judgements(rubric, judgements), comment=comment.strip()[:5000],
        # What in the submission (a quote, "실행 #12", "3번 줄") the reviewer based each judgement on.
        citations=_check_citations(rubric, citations or {}),
        cohort=_review_cohort(reviewer=reviewer, submission=submission, kind=kind, allocation=allocation),
    )
    if allocation is not None and kind == access.PEER_REVIEW:
        allocation.completed_at = timezone.now()
        allocation.save(update_fields=["completed_at"])
        # Runs the reviewer did not try to reproduce are recorded as such, not left blank.
        tried = set(allocation.reproductions.values_list("original_id", flat=True))
        Reproduction.objects.bulk_create(
            Reproduction(allocation=allocation, original=run, status=Reproduction.Status.NOT_ATTEMPTED)
            for run in submission.lab_runs.exclude(pk__in=tried)
        )
    audit.record(actor=reviewer, action=f"review.{kind}", target=submission, after=review.judgements,
                 detail={"review": review.pk, "cohort": review.cohort_id})
    return review


@transaction.atomic(durable=True)
def mark_reviews_opened(*, author: User, submission: Submission) -> int:
    """The author opened their submission's page: its released reviews no longer wait in their to-do."""
    if submission.author_id != author.pk:
        raise NotFound(_("그런 제출은 없습니다."))
    return submission.reviews.released().filter(opened_at__isnull=True).update(opened_at=timezone.now())


@transaction.atomic(durable=True)
def rate_helpful(*, author: User, review: Review, helpful: bool) -> Review:
    """The author says whether a released peer review helped; audited, and the same answer twice writes once."""
    if not access.may_flag(author, author=review.submission.author, review_kind=review.kind,
                           released=review.released_at is not None) or review.kind != access.PEER_REVIEW:
        raise NotFound(_("그런 검토는 없습니다."))
    locked = Review.objects.select_for_update().get(pk=review.pk)
    if locked.helpful == helpful:
        return locked
    before = {"helpful": locked.helpful}
    locked.helpful = helpful
    locked.save(update_fields=["helpful"])
    audit.record(actor=author, action="evidence.rate_helpful", target=locked, before=before,
                 after={"helpful": helpful})
    return locked


@transaction.atomic(durable=True)
def record_practice_review(*, reviewer: User, example: CalibrationExample,
                           judgements: dict[str, str]) -> CalibrationReview:
    """Keep a learner's practice review of an example as its own record; the first one stands."""
    existing = CalibrationReview.objects.filter(example=example, reviewer=reviewer).first()
    if existing is not None:
        return existing
    practice = CalibrationReview.objects.create(
        example=example, reviewer=reviewer, judgements=check_judgements(example.rubric_version, judgements))
    matched = sum(1 for key, level in practice.judgements.items() if example.reference.get(key) == level)
    audit.record(actor=reviewer, action="calibration.practice_review", target=example, after=practice.judgements,
                 detail={"practice_review": practice.pk, "matched": matched, "criteria": len(practice.judgements)})
    return practice
