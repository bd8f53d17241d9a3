"""What each person sees of a submission's reviews, flags, notes and names (the author-visibility rule lives here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.fixture_changes import LineChange, changed_lines
from tutor import access
from tutor.access import AnyUser
from tutor.accounts.selectors import display_name

from ..models import (
    Flag,
    Review,
    Submission,
)
from .access import allocation_for
from .calibration import level_label


def standard_changed(submission: Submission) -> bool:
    """Say whether the task's rubric or fixture has a newer version than the one the submission used ("기준 변경됨")."""
    task = submission.task
    if submission.rubric_version_id != task.current_rubric_id:
        return True
    return bool(task.fixture is not None and submission.fixture_version_id != task.fixture.current_version_id)


@dataclass
class StandardChange:
    """What "기준 변경됨" means for one submission: the rubric versions and the fixture lines, old → new."""

    rubric: tuple[int, int] | None
    fixture: tuple[int, int] | None
    lines: list[LineChange]


def standard_change(submission: Submission) -> StandardChange | None:
    """The rubric and fixture changes since the submission was made, or None when nothing changed."""
    if not standard_changed(submission):
        return None
    task = submission.task
    current_rubric = task.current_rubric
    rubric = ((submission.rubric_version.number, current_rubric.number)
              if current_rubric is not None and submission.rubric_version_id != current_rubric.pk else None)
    old, new = submission.fixture_version, task.fixture.current_version if task.fixture else None
    if old is None or new is None or old.pk == new.pk:
        return StandardChange(rubric=rubric, fixture=None, lines=[])
    return StandardChange(rubric=rubric, fixture=(old.number, new.number), lines=changed_lines(old, new))


@dataclass
class PeerRead:
    """"동료 작업을 읽은 뒤 제출": how many peers' works the author was handed before this version, and how alike
    this text is to the closest (0–100). Instructors also get the works read, to compare them."""

    count: int
    highest: int
    works: list[tuple[int, int]]  # (submission id, similarity), for the author's instructors only


def peer_read_note(viewer: AnyUser, submission: Submission) -> PeerRead | None:
    """The mark reviewers and instructors see on a version submitted after its author read peer work."""
    read = submission.peer_work_read or []
    if not read or viewer.pk == submission.author_id:
        return None
    works = ([(int(item["submission"]), int(item["similarity"])) for item in read]
             if access.sees_names(viewer, author=submission.author) else [])
    return PeerRead(count=len(read), highest=max(int(item["similarity"]) for item in read), works=works)


def review_kind_for(user: AnyUser, submission: Submission) -> str | None:
    """Which review ``user`` writes of ``submission`` (the access policy decides)."""
    return access.review_kind_for(user, author=submission.author,
                                  allocated=allocation_for(user, submission) is not None)


def _shown_reviews() -> QuerySet[Review]:
    return Review.objects.select_related("reviewer", "rubric_version", "cohort").prefetch_related("flags").order_by(
        "created_at", "pk")


def reviews_visible_to(user: AnyUser, submission: Submission) -> list[Review]:
    """Instructors see every review; the author their own self-review and each review once it is released;
    a peer only what they wrote."""
    reviews = list(_shown_reviews().filter(submission=submission))
    for review in reviews:
        review.submission = submission  # read once for the page, not once per review (its author, its task)
    return visible_among(user, submission, reviews)


def visible_among(user: AnyUser, submission: Submission, reviews: list[Review]) -> list[Review]:
    """``reviews_visible_to`` over reviews already read (for lists, which read them all at once)."""
    if access.sees_unreleased(user, author=submission.author):
        return reviews
    if user.pk == submission.author_id:
        return [r for r in reviews if r.seen_by_author]
    return [r for r in reviews if r.reviewer_id == user.pk]


@dataclass
class ListedSubmission:
    """One of the author's submitted versions with the reviews they may read and the runs attached."""

    submission: Submission
    reviews: list[Review]
    run_ids: list[int]


def submitted_versions_of(author: User) -> list[ListedSubmission]:
    """Every submitted version of the author's, in a fixed number of queries however many there are."""
    submissions = (Submission.objects.submitted().filter(author=author)
                   .select_related("task__fixture__current_version", "rubric_version", "fixture_version",
                                   "cited_fixture_version", "author")
                   .prefetch_related(Prefetch("reviews", queryset=_shown_reviews(), to_attr="read_reviews"),
                                     Prefetch("lab_runs", queryset=LabRun.objects.only("pk").order_by("pk"),
                                              to_attr="read_runs"))
                   .order_by("task__order", "version"))
    return [ListedSubmission(submission=s, reviews=visible_among(author, s, s.read_reviews),
                             run_ids=[run.pk for run in s.read_runs])
            for s in submissions]


def flags_visible_to(user: AnyUser, review: Review) -> list[tuple[Flag, str]]:
    """Flags with their answers: all of it for the author's instructors; the author sees their flags and each
    answer once released; a peer sees none (a dispute and its answer are between author and instructor)."""
    author = review.submission.author
    if access.sees_unreleased(user, author=author):
        return [(flag, flag.resolution) for flag in review.flags.all()]
    if user.pk != author.pk:
        return []
    return [(flag, flag.resolution if flag.resolution_released_at else "") for flag in review.flags.all()]


def visible_disagreement_note(user: AnyUser, submission: Submission) -> str:
    """The disagreement resolution: the instructors', and the author's after a release; never a peer's."""
    if access.sees_unreleased(user, author=submission.author):
        return submission.disagreement_resolution
    if user.pk == submission.author_id and submission.disagreement_released_at:
        return submission.disagreement_resolution
    return ""


def name_of_reviewer(viewer: AnyUser, review: Review) -> str:
    """Instructors of the author see every name; others see an instructor's name, their own, or '익명 동료'."""
    if (review.kind == Review.Kind.INSTRUCTOR or review.reviewer_id == viewer.pk
            or access.sees_names(viewer, author=review.submission.author)):
        return display_name(review.reviewer)
    return _("익명 동료")


def name_of_author(viewer: AnyUser, submission: Submission) -> str:
    if submission.author_id == viewer.pk:
        return _("나")
    return submission.author.get_username() if access.sees_names(viewer, author=submission.author) else _("익명 동료")


def released_review_counts(user_ids: list[Any]) -> dict[Any, dict[int, list[str]]]:
    """Per author and lesson, the kinds of reviews each author may see of their work: their own
    self-reviews, and others' once released (for the three-track progress view)."""
    result: dict[Any, dict[int, list[str]]] = {}
    reviews = (Review.objects.filter(submission__author_id__in=user_ids).seen_by_author()
               .select_related("submission__task", "rubric_version").order_by("kind", "created_at"))
    for review in reviews:
        result.setdefault(review.submission.author_id, {}).setdefault(review.submission.task.lesson_id, []).append(
            f"{review.submission.task.title}: {review.get_kind_display()} ({review_levels(review)})")
    return result


def review_levels(review: Review) -> str:
    """The level given on each criterion, in the rubric's order: what a review said, not a total."""
    return ", ".join(f"{c['title']} {level_label(c, review.judgements.get(c['key'], ''))}"
                     for c in review.rubric_version.criteria)


def reviews_disagree(reviews: list[Review]) -> bool:
    return bool(disagreeing_criteria(reviews))


def disagreeing_criteria(reviews: list[Review]) -> list[str]:
    """Titles of the criteria two non-self reviews judged differently."""
    seen: dict[str, set[str]] = {}
    for review in reviews:
        if review.kind == Review.Kind.SELF:
            continue
        for criterion, level in review.judgements.items():
            seen.setdefault(criterion, set()).add(level)
    if not reviews:
        return []
    titles = {c["key"]: c["title"] for r in reviews for c in r.rubric_version.criteria}
    return [titles.get(key, key) for key, levels in seen.items() if len(levels) > 1]
