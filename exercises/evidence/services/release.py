"""Release: an instructor lets reviews reach their authors, one, a submission's or a task's."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access, audit
from tutor.errors import NotFound
from tutor.models import members_of

from ..models import (
    EvidenceTask,
    Flag,
    Review,
    Submission,
)


def _release_notes(*, submission: Submission, now: Any, reviews: list[Review]) -> list[str]:
    """Instructors' notes reach the author only with the review they concern, released by that review's cohort.

    ``reviews`` are the reviews this release covers (each one the releasing
    instructor may release, already released or released now). The
    disagreement note goes with an instructor review of a cohort whose
    instructors include the one who wrote the note; a flag's answer goes with
    the review flagged. Releasing only a peer review, or another cohort's
    reviews, leaves both where they are.
    """
    released = []
    resolver = submission.disagreement_resolved_by
    if (submission.disagreement_resolved_at and submission.disagreement_released_at is None and resolver is not None
            and any(review.kind == access.INSTRUCTOR_REVIEW and review.released_at is not None
                    and access.may_release(resolver, author=submission.author, cohort=review.cohort)
                    for review in reviews)):
        submission.disagreement_released_at = now
        submission.save(update_fields=["disagreement_released_at"])
        released.append("disagreement")
    flags = Flag.objects.filter(review__in=[review for review in reviews if review.released_at is not None],
                                resolved_at__isnull=False, resolution_released_at__isnull=True)
    for flag in flags:
        flag.resolution_released_at = now
        flag.save(update_fields=["resolution_released_at"])
        released.append(f"flag:{flag.pk}")
    return released


def _notice_released(review_ids: list[int]) -> None:
    """After commit, the worker tells the author (once per review) that a review was released."""
    from ..tasks import notice_review_released

    def enqueue(review_id: int) -> None:
        transaction.on_commit(lambda: notice_review_released.enqueue(review_id=review_id))

    for review_id in review_ids:
        enqueue(review_id)


@transaction.atomic(durable=True)
def release_review(*, instructor: User, review: Review, reason: str = "") -> Review:
    """Let the author see this one review (and the notes that go with it) from now on."""
    submission = review.submission
    if not access.may_release(instructor, author=submission.author, cohort=review.cohort):
        raise NotFound(_("그런 검토는 없습니다."))
    now = timezone.now()
    newly = review.released_at is None and review.kind != access.SELF_REVIEW
    if newly:
        review.released_at, review.released_by = now, instructor
        review.save(update_fields=["released_at", "released_by"])
        _notice_released([review.pk])
    # A note waiting on an instructor review this instructor released before goes with this release too.
    covered = [review] + [earlier for earlier in submission.reviews.select_related("cohort").filter(
        kind=access.INSTRUCTOR_REVIEW, released_at__isnull=False).exclude(pk=review.pk)
        if access.may_release(instructor, author=submission.author, cohort=earlier.cohort)]
    notes = _release_notes(submission=submission, now=now, reviews=covered)
    if newly or notes:
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True},
                     detail={"review": review.pk, "cohort": review.cohort_id, "notes": notes})
    return review


@transaction.atomic(durable=True)
def release_reviews(*, instructor: User, submission: Submission, reason: str = "") -> int:
    """Release every review of ``submission`` this instructor may release, and the pending notes; return how many
    reviews. Reviews written in another instructor's cohort stay for that instructor."""
    return _release_reviews(instructor=instructor, submission=submission, reason=reason)


def _release_reviews(*, instructor: User, submission: Submission, reason: str) -> int:
    """``release_reviews`` inside the caller's transaction (one submission of a task release)."""
    if not access.instructs(instructor, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    now = timezone.now()
    mine = [review for review in submission.reviews.select_related("cohort").exclude(kind=access.SELF_REVIEW)
            if access.may_release(instructor, author=submission.author, cohort=review.cohort)]
    pending = [review for review in mine if review.released_at is None]
    for review in pending:
        review.released_at, review.released_by = now, instructor
        review.save(update_fields=["released_at", "released_by"])
    notes = _release_notes(submission=submission, now=now, reviews=mine)
    _notice_released([review.pk for review in pending])
    if pending or notes:
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True},
                     detail={"reviews": [r.pk for r in pending], "notes": notes})
    return len(pending)


@transaction.atomic(durable=True)
def release_task(*, instructor: User, task: EvidenceTask) -> int:
    """Release what this instructor may release of every submission of ``task`` in their cohorts; return how many
    submissions had something released."""
    if not access.is_instructor(instructor):
        raise NotFound(_("그런 과제는 없습니다."))
    cohorts = access.cohorts_where(instructor, access.Perm.RELEASE)
    submissions = Submission.objects.submitted().filter(task=task, author__in=members_of(cohorts))
    return sum(1 for s in submissions if _release_reviews(instructor=instructor, submission=s, reason=_("과제 단위 공개")))
