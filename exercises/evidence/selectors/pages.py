"""The submission page as one model: everything its buttons need, asked of the policy once, for one viewer.

The view renders it; the same answers (may release this review, may flag it, may resolve the disagreement,
show the review form) are what the API's operations ask, from the same ``tutor.access`` predicates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.utils import timezone

from exercises.labs.models import LabRun
from exercises.labs.records import SealCheck, check_seal
from tutor import access

from ..models import INSUFFICIENT, Flag, PeerAllocation, Reproduction, Review, Submission
from .access import access_submission, allocation_for
from .calibration import level_label
from .drafts import Citations, citations_of, may_give_back
from .queue import ReviewGrid, review_grid
from .reviews import (
    PeerRead,
    StandardChange,
    disagreeing_criteria,
    flags_visible_to,
    name_of_author,
    name_of_reviewer,
    peer_read_note,
    review_kind_for,
    reviews_visible_to,
    standard_change,
    visible_disagreement_note,
)


class ShownReview(NamedTuple):
    """One review as this viewer sees it, with what they may do to it."""

    review: Review
    lines: list[tuple[str, str, str]]  # (criterion, chosen level's label, citation), in the rubric's order
    flags: list[tuple[Flag, str]]
    reviewer_name: str
    may_release: bool
    may_flag: bool


class AttachedRun(NamedTuple):
    run: LabRun
    seal: SealCheck
    reproduction: Reproduction | None


@dataclass
class SubmissionPage:
    submission: Submission
    author_label: str
    is_author: bool
    sees_names: bool
    allocation: PeerAllocation | None
    lease_live: bool
    may_give_back: bool
    runs: list[AttachedRun]
    citations: Citations
    reviews: list[ShownReview]
    criteria: list[dict[str, Any]]
    grid: ReviewGrid | None
    standard_changed: StandardChange | None
    peer_read: PeerRead | None
    review_kind: str | None
    unopened: bool
    show_review_form: bool
    already_reviewed: bool
    can_resolve: bool
    disagreement: list[str]
    disagreement_note: str

    def context(self) -> dict[str, Any]:
        """The template's names (``can_release``: a viewer who sees names is a teacher of the author)."""
        return {**vars(self), "can_release": self.sees_names, "insufficient": INSUFFICIENT}


def _review_lines(review: Review) -> list[tuple[str, str, str]]:
    return [(c["title"], level_label(c, review.judgements.get(c["key"], "")), review.citations.get(c["key"], ""))
            for c in review.rubric_version.criteria]


def submission_page(user: User, submission_id: int) -> SubmissionPage:
    """The submission page for ``user``, or the same 404 as for no submission (``access_submission``)."""
    submission = access_submission(user, submission_id)
    reviews = reviews_visible_to(user, submission)
    author = submission.author
    is_author = submission.author_id == user.pk
    allocation = allocation_for(user, submission)
    reproductions = {r.original_id: r
                     for r in allocation.reproductions.select_related("rerun", "original")} if allocation else {}
    review_kind = review_kind_for(user, submission)
    already_reviewed = any(r.reviewer_id == user.pk for r in reviews)
    lease_live = allocation is not None and allocation.is_live(timezone.now())
    can_resolve = access.may_resolve(user, author=author)
    return SubmissionPage(
        submission=submission,
        author_label=name_of_author(user, submission),  # peers never learn the author's name
        is_author=is_author,
        sees_names=access.sees_names(user, author=author),
        allocation=allocation,
        lease_live=lease_live,
        may_give_back=allocation is not None and may_give_back(user, submission.task),
        runs=[AttachedRun(run, check_seal(run), reproductions.get(run.pk))
              for run in submission.lab_runs.select_related("lab")],
        citations=citations_of(submission),
        reviews=[ShownReview(
            review, _review_lines(review), flags_visible_to(user, review), name_of_reviewer(user, review),
            access.may_release(user, author=author, cohort=review.cohort)
            and review.released_at is None and review.kind != Review.Kind.SELF,
            access.may_flag(user, author=author, review_kind=review.kind, released=review.released_at is not None),
        ) for review in reviews],
        criteria=submission.rubric_version.criteria,
        grid=review_grid(user, submission),
        standard_changed=standard_change(submission),
        peer_read=peer_read_note(user, submission),
        review_kind=review_kind,
        unopened=is_author and any(r.released_at and r.opened_at is None and r.kind != Review.Kind.SELF
                                   for r in reviews),
        show_review_form=bool(review_kind) and not already_reviewed
        and (review_kind != Review.Kind.PEER or lease_live),
        already_reviewed=already_reviewed,
        can_resolve=can_resolve,
        disagreement=(disagreeing_criteria(reviews)
                      if can_resolve and submission.disagreement_resolved_at is None else []),
        disagreement_note=visible_disagreement_note(user, submission),
    )
