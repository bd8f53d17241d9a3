"""Reads of the evidence app. Unreleased reviews never reach the author; others' work never reaches anyone."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.content import SLUG
from lessons.selectors import access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import NotFound

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
    """Instructors see every review; the author sees their own self-review, and the rest only once released."""
    reviews = submission.reviews.select_related("reviewer").order_by("created_at")
    if access.instructs(user, submission.author):
        return list(reviews)
    if user.pk == submission.author_id:
        if submission.released_at is None:
            return list(reviews.filter(reviewer=user, kind=Review.Kind.SELF))
        return list(reviews)
    return list(reviews.filter(reviewer=user))  # a peer sees only what they wrote


def draft_of(author: AbstractBaseUser, task: EvidenceTask) -> Submission | None:
    return Submission.objects.filter(task=task, author=author, status=Submission.Status.DRAFT).prefetch_related("lab_runs").first()


def submissions_of(author: AbstractBaseUser, task: EvidenceTask) -> list[Submission]:
    return list(Submission.objects.submitted().filter(task=task, author=author).order_by("-version"))


def attachable_runs(author: AbstractBaseUser, task: EvidenceTask) -> list[LabRun]:
    if not task.attach_runs:
        return []
    return list(LabRun.objects.of(author).filter(lab__lesson=task.lesson).select_related("lab")
                .order_by("-created_at")[:30])


def released_review_counts(user: AbstractBaseUser) -> dict[int, list[str]]:
    """Per lesson, the kinds of released reviews of ``user``'s work (for the three-track progress view)."""
    result: dict[int, list[str]] = {}
    reviews = (Review.objects.filter(submission__author=user, submission__released_at__isnull=False)
               .exclude(kind=Review.Kind.SELF).select_related("submission__task"))
    own = Review.objects.filter(submission__author=user, kind=Review.Kind.SELF).select_related("submission__task")
    for review in [*own, *reviews]:
        result.setdefault(review.submission.task.lesson_id, []).append(
            f"{review.submission.task.title}: {review.get_kind_display()}")
    return result


def open_allocations(user: AbstractBaseUser, task: EvidenceTask) -> list[PeerAllocation]:
    return list(PeerAllocation.objects.filter(reviewer=user, submission__task=task).select_related("submission")
                .order_by("-created_at"))
