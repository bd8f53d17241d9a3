"""Reads of the evidence app. Unreleased reviews never reach the author; others' work never reaches anyone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.content import SLUG
from lessons.selectors import access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import NotFound
from tutor.models import Cohort

from .models import EvidenceTask, Flag, PeerAllocation, Review, Submission


def tasks_of_lesson(lesson_id: int) -> QuerySet[EvidenceTask]:
    return EvidenceTask.objects.active().filter(lesson_id=lesson_id).order_by("order")


def access_task(user: AnyUser, slug: str) -> EvidenceTask:
    access.require_sign_in(user)
    task = (EvidenceTask.objects.active().select_related("lesson", "fixture__current_version", "current_rubric")
            .filter(slug=slug).first() if SLUG.match(slug) else None)
    if task is None:
        raise NotFound(_("그런 과제는 없습니다."))
    access_lesson(user, task.lesson.slug)
    return task


def allocation_for(user: AnyUser, submission: Submission) -> PeerAllocation | None:
    if not user.is_authenticated:
        return None
    return PeerAllocation.objects.filter(submission=submission, reviewer=user).first()


def access_submission(user: AnyUser, submission_id: int) -> Submission:
    """A submitted version, to its author, the author's instructors and peers it was allocated to
    (who see it anonymously); 404 to everybody else, and drafts to nobody but their author."""
    access.require_sign_in(user)
    submission = (Submission.objects.select_related("task__lesson", "author", "rubric_version", "fixture_version")
                  .filter(pk=submission_id).first())
    if submission is None or (submission.status == Submission.Status.DRAFT and submission.author_id != user.pk):
        raise NotFound(_("그런 제출은 없습니다."))
    if not access.may_see_records_of(user, submission.author) and allocation_for(user, submission) is None:
        raise NotFound(_("그런 제출은 없습니다."))
    return submission


def standard_changed(submission: Submission) -> bool:
    """Say whether the task's rubric or fixture has a newer version than the one the submission used ("기준 변경됨")."""
    task = submission.task
    if submission.rubric_version_id != task.current_rubric_id:
        return True
    return bool(task.fixture is not None and submission.fixture_version_id != task.fixture.current_version_id)


def review_kind_for(user: AnyUser, submission: Submission) -> str | None:
    """Which review ``user`` would write of ``submission``: self, instructor, peer (if allocated) or none."""
    if submission.author_id == user.pk:
        return Review.Kind.SELF
    if access.instructs(user, submission.author):
        return Review.Kind.INSTRUCTOR
    if allocation_for(user, submission) is not None:
        return Review.Kind.PEER
    return None


def access_review_of_own_work(user: AnyUser, review_id: int) -> Review:
    """A released review of the user's own submission (for rating and flagging); 404 otherwise."""
    access.require_sign_in(user)
    review = Review.objects.select_related("submission", "rubric_version").filter(pk=review_id).first()
    if review is None or review.submission.author_id != user.pk or review.submission.released_at is None:
        raise NotFound(_("그런 검토는 없습니다."))
    return review


def access_flag(user: AnyUser, flag_id: int) -> Flag:
    access.require_sign_in(user)
    flag = Flag.objects.select_related("review__submission__author").filter(pk=flag_id).first()
    if flag is None or not access.instructs(user, flag.review.submission.author):
        raise NotFound(_("그런 이의 제기는 없습니다."))
    return flag


def reviews_visible_to(user: AnyUser, submission: Submission) -> list[Review]:
    """Instructors see every review; the author sees their own self-review, and the rest only once released.

    Uses the reviews prefetched with ``with_reviews`` when a list of submissions is shown.
    """
    if "reviews" in getattr(submission, "_prefetched_objects_cache", {}):
        reviews = list(submission.reviews.all())
    else:
        reviews = list(submission.reviews.select_related("reviewer").order_by("created_at"))
    if access.instructs(user, submission.author):
        return reviews
    if user.pk == submission.author_id:
        if submission.released_at is None:
            return [r for r in reviews if r.reviewer_id == user.pk and r.kind == Review.Kind.SELF]
        return reviews
    return [r for r in reviews if r.reviewer_id == user.pk]  # a peer sees only what they wrote


def with_reviews(submissions: QuerySet[Submission]) -> QuerySet[Submission]:
    """What a list of submissions shows, read in a fixed number of queries however many there are."""
    return submissions.select_related("task", "author", "rubric_version", "fixture_version").prefetch_related(
        "lab_runs", Prefetch("reviews", queryset=Review.objects.select_related("reviewer").order_by("created_at")))


def draft_of(author: User, task: EvidenceTask) -> Submission | None:
    return Submission.objects.filter(task=task, author=author, status=Submission.Status.DRAFT).prefetch_related("lab_runs").first()


def submissions_of(author: User, task: EvidenceTask) -> list[Submission]:
    return list(Submission.objects.submitted().filter(task=task, author=author).order_by("-version"))


def attachable_runs(author: User, task: EvidenceTask) -> list[LabRun]:
    if not task.attach_runs:
        return []
    return list(LabRun.objects.of(author).filter(lab__lesson=task.lesson).select_related("lab")
                .order_by("-created_at")[:30])


def released_review_counts(user_ids: list[Any]) -> dict[Any, dict[int, list[str]]]:
    """Per author and lesson, the kinds of reviews each author may see of their work: their own
    self-reviews, and others' once released (for the three-track progress view)."""
    result: dict[Any, dict[int, list[str]]] = {}
    mine = Review.objects.filter(submission__author_id__in=user_ids).select_related("submission__task")
    own = mine.filter(kind=Review.Kind.SELF)
    released = mine.filter(submission__released_at__isnull=False).exclude(kind=Review.Kind.SELF)
    for review in [*own, *released]:
        result.setdefault(review.submission.author_id, {}).setdefault(review.submission.task.lesson_id, []).append(
            f"{review.submission.task.title}: {review.get_kind_display()}")
    return result


def open_allocations(user: User, task: EvidenceTask) -> list[PeerAllocation]:
    return list(PeerAllocation.objects.filter(reviewer=user, submission__task=task).select_related("submission")
                .order_by("-created_at"))


@dataclass
class QueueRow:
    """One learner's newest submission of a task, as the instructor's queue shows it."""

    submission: Submission
    peer_done: int
    peer_min: int
    has_instructor_review: bool
    open_flags: int
    disagreement: bool

    @property
    def state(self) -> str:
        if self.submission.released_at:
            return "released"
        return "reviewed" if self.has_instructor_review else "needs_review"

    @property
    def waiting_for_peers(self) -> bool:
        return self.peer_done < self.peer_min


def reviews_disagree(reviews: list[Review]) -> bool:
    """Two non-self reviews judged the same criterion differently."""
    seen: dict[str, set[str]] = {}
    for review in reviews:
        if review.kind == Review.Kind.SELF:
            continue
        for criterion, level in review.judgements.items():
            seen.setdefault(criterion, set()).add(level)
    return any(len(levels) > 1 for levels in seen.values())


def instructor_queue(instructor: AnyUser, *, cohort_id: int | None = None, task_slug: str = "", state: str = "",
                     flagged: bool = False, disagreement: bool = False) -> list[QueueRow]:
    """Newest submissions of the instructor's cohorts, with the filters of the review queue."""
    access.require_sign_in(instructor)
    if not access.is_instructor(instructor):
        raise NotFound(_("찾을 수 없습니다."))
    cohorts = Cohort.objects.taught_by(instructor) if not instructor.is_superuser else Cohort.objects.all()
    if cohort_id:
        cohorts = cohorts.filter(pk=cohort_id)
    learners = get_user_model().objects.filter(cohorts__in=cohorts).distinct()
    submissions = (Submission.objects.submitted().filter(author__in=learners).select_related("task", "author")
                   .prefetch_related("reviews", "allocations", "reviews__flags").order_by("submitted_at"))
    if task_slug:
        submissions = submissions.filter(task__slug=task_slug)
    newest: dict[tuple[int, int], Submission] = {}
    for submission in submissions:
        newest[(submission.task_id, submission.author_id)] = submission
    rows = []
    for submission in newest.values():
        reviews = list(submission.reviews.all())
        rows.append(QueueRow(
            submission=submission,
            peer_done=sum(1 for a in submission.allocations.all() if a.completed_at),
            peer_min=submission.task.min_peer_reviews,
            has_instructor_review=any(r.kind == Review.Kind.INSTRUCTOR for r in reviews),
            open_flags=sum(1 for r in reviews for f in r.flags.all() if f.resolved_at is None),
            disagreement=reviews_disagree(reviews) and submission.disagreement_resolved_at is None,
        ))
    return [row for row in rows
            if (not state or row.state == state) and (not flagged or row.open_flags)
            and (not disagreement or row.disagreement)]


def cohorts_of(instructor: AnyUser) -> list[Cohort]:
    return list(Cohort.objects.taught_by(instructor))


def access_cohort(instructor: AnyUser, cohort_id: int) -> Cohort:
    access.require_sign_in(instructor)
    cohort = Cohort.objects.taught_by(instructor).filter(pk=cohort_id).first() if access.is_instructor(instructor) else None
    if cohort is None:
        raise NotFound(_("그런 기수는 없습니다."))
    return cohort
