"""Who may reach which task, submission, review, allocation, run and cohort: each returns the thing or the same 404."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.content import SLUG
from lessons.fixture_refs import resolve, versions_for
from lessons.selectors import access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import NotFound
from tutor.models import Cohort, members_of

from ..models import (
    EvidenceTask,
    Flag,
    PeerAllocation,
    Review,
    Submission,
)


def tasks_of_lesson(lesson_id: int) -> QuerySet[EvidenceTask]:
    return EvidenceTask.objects.active().filter(lesson_id=lesson_id).order_by("order")


def active_tasks() -> QuerySet[EvidenceTask]:
    """Every active task in course order (the queue's task filter)."""
    return EvidenceTask.objects.active().order_by("lesson__order", "order")


def access_reviewer(instructor: AnyUser, reviewer_id: int | None) -> User:
    """A learner of a cohort the instructor teaches, to hand peer work to; 404 for anyone else."""
    access.require_sign_in(instructor)
    reviewer = get_user_model().objects.filter(pk=reviewer_id).first() if reviewer_id else None
    if reviewer is None or not access.instructs(instructor, reviewer):
        raise NotFound(_("그런 학습자는 없습니다."))
    return reviewer


def access_reviewer_named(instructor: AnyUser, username: str) -> User:
    """The same as ``access_reviewer``, by the username typed in the queue's search field."""
    access.require_sign_in(instructor)
    reviewer = get_user_model().objects.filter(username=username.strip()).first() if username.strip() else None
    if reviewer is None or not access.instructs(instructor, reviewer):
        raise NotFound(_("그런 학습자는 없습니다."))
    return reviewer


def access_task(user: AnyUser, slug: str) -> EvidenceTask:
    access.require_sign_in(user)
    task = (EvidenceTask.objects.active().select_related("lesson", "fixture__current_version", "current_rubric")
            .filter(slug=slug).first() if SLUG.match(slug) else None)
    if task is None:
        raise NotFound(_("그런 과제는 없습니다."))
    access_lesson(user, task.lesson.slug)
    return task


def instructions_of(task: EvidenceTask) -> str:
    """The task's instructions (safe markup) with fixture lines quoted from the versions in use."""
    own = task.fixture.current_version if task.fixture else None
    return resolve(task.instructions_html, versions_for(task.instructions_html), own=own, html=True)


def allocation_for(user: AnyUser, submission: Submission) -> PeerAllocation | None:
    """The user's lease on ``submission`` however it ended (a peer keeps seeing what they reviewed)."""
    if not user.is_authenticated:
        return None
    return PeerAllocation.objects.filter(submission=submission, reviewer=user).first()


def access_submission(user: AnyUser, submission_id: int) -> Submission:
    """A submitted version, to its author, the author's instructors and peers holding a live lease on it or
    who reviewed it (they see it anonymously); 404 to everybody else, and drafts to nobody but their author."""
    access.require_sign_in(user)
    submission = (Submission.objects.select_related("task__lesson", "task__fixture", "author", "rubric_version",
                                                    "fixture_version").filter(pk=submission_id).first())
    if submission is None or (submission.status == Submission.Status.DRAFT and submission.author_id != user.pk):
        raise NotFound(_("그런 제출은 없습니다."))
    if not access.may_see_records_of(user, submission.author) and not peer_may_read(allocation_for(user, submission)):
        raise NotFound(_("그런 제출은 없습니다."), target=submission, reason="배정되지 않았거나 끝난 동료 작업")
    return submission


def peer_may_read(allocation: PeerAllocation | None) -> bool:
    """A peer reads the work while their lease is live, and keeps what they reviewed; a lease given back or
    expired unreviewed no longer shows it."""
    return allocation is not None and (allocation.completed_at is not None or allocation.is_live(timezone.now()))


def access_allocation(user: AnyUser, allocation_id: int) -> PeerAllocation:
    access.require_sign_in(user)
    allocation = PeerAllocation.objects.select_related("submission__task").filter(pk=allocation_id).first()
    if allocation is None or allocation.reviewer_id != user.pk:
        raise NotFound(_("그런 동료 작업은 없습니다."))
    return allocation


def access_attached_run(user: AnyUser, submission_id: int, run_id: int) -> LabRun:
    """A run attached to a submission, read-only, to whoever may see that submission (an allocated peer too)."""
    submission = access_submission(user, submission_id)
    run = submission.lab_runs.select_related("lab__lesson").filter(pk=run_id).first()
    if run is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    return run


def access_review_of_own_work(user: AnyUser, review_id: int) -> Review:
    """A released review of the user's own submission (for rating and flagging); 404 otherwise."""
    access.require_sign_in(user)
    review = Review.objects.select_related("submission__author", "rubric_version").filter(pk=review_id).first()
    if review is None or not access.may_flag(user, author=review.submission.author, review_kind=review.kind,
                                             released=review.released_at is not None):
        raise NotFound(_("그런 검토는 없습니다."))
    return review


def access_review_to_release(user: AnyUser, review_id: int) -> Review:
    """A review this instructor may release; 404 to everyone else, including another cohort's instructor."""
    access.require_sign_in(user)
    review = Review.objects.select_related("submission__author", "cohort").filter(pk=review_id).first()
    if review is None or not access.may_release(user, author=review.submission.author, cohort=review.cohort):
        raise NotFound(_("그런 검토는 없습니다."))
    return review


def access_flag(user: AnyUser, flag_id: int) -> Flag:
    access.require_sign_in(user)
    flag = Flag.objects.select_related("review__submission__author").filter(pk=flag_id).first()
    if flag is None or not access.may_resolve(user, author=flag.review.submission.author):
        raise NotFound(_("그런 이의 제기는 없습니다."))
    return flag


def instructor_cohorts(instructor: AnyUser, perm: access.Perm = access.Perm.REVIEW) -> QuerySet[Cohort]:
    """The cohorts where the asker may do ``perm``; 404 for someone not on any cohort's teaching side."""
    access.require_sign_in(instructor)
    if not access.is_instructor(instructor):
        raise NotFound(_("찾을 수 없습니다."))
    return access.cohorts_where(instructor, perm)


def may_export(user: AnyUser) -> bool:
    """Whether the CSV exports and the audit log hold anything for this person (instructors, not assistants)."""
    return access.cohorts_where(user, access.Perm.EXPORT).exists()


def cohorts_of(instructor: AnyUser) -> list[Cohort]:
    """The cohorts whose work the asker reviews (the queue's cohort filter)."""
    return list(access.cohorts_where(instructor, access.Perm.REVIEW)) if instructor.is_authenticated else []


def learners_of(cohort: Cohort) -> list[User]:
    """The cohort's active learners by username (the caller has passed ``access_cohort``)."""
    return list(members_of(cohort).order_by("username"))


def access_cohort_learner(instructor: AnyUser, cohort_id: int, username: str) -> tuple[Cohort, User]:
    """A learner of a cohort this instructor may see; 404 for anyone outside it, as for another cohort."""
    cohort = access_cohort(instructor, cohort_id, access.Perm.READ_PROGRESS)
    learner = members_of(cohort).filter(username=username).first()
    if learner is None:
        raise NotFound(_("이 기수에 그런 학습자는 없습니다."))
    return cohort, learner


def access_cohort(instructor: AnyUser, cohort_id: int,
                  perm: access.Perm = access.Perm.CHANGE_SETTINGS) -> Cohort:
    """A cohort where the asker may do ``perm`` (by default change its settings); 404 for anyone else."""
    access.require_sign_in(instructor)
    cohort = Cohort.objects.filter(pk=cohort_id).first()
    if cohort is None or not access.may(instructor, perm, cohort):
        raise NotFound(_("그런 기수는 없습니다."))
    return cohort
