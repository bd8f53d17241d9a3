"""Peer-review minimums per cohort and task, and what a submission still waits for."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tutor.models import Cohort, Membership
from tutor.roles import CohortRole

from ..models import (
    CohortTaskSetting,
    EvidenceTask,
    Review,
    Submission,
)


def _minimums(pairs: list[tuple[int, EvidenceTask]]) -> dict[tuple[int, int], int]:
    """The peer minimum for each (author id, task), in two queries whatever their number.

    A learner in several cohorts waits for the lowest minimum among them; a
    cohort that set none uses the file's default, and so does a learner in none.
    """
    memberships = Membership.objects.active().filter(role=CohortRole.LEARNER,
                                                     user_id__in={author for author, _task in pairs})
    cohorts_of: dict[int, list[int]] = {}
    for user_id, cohort_id in memberships.values_list("user_id", "cohort_id"):
        cohorts_of.setdefault(user_id, []).append(cohort_id)
    chosen = {(setting.task_id, setting.cohort_id): setting.min_peer_reviews
              for setting in CohortTaskSetting.objects.filter(
                  cohort_id__in={c for cohorts in cohorts_of.values() for c in cohorts},
                  task__in={task.pk for _author, task in pairs})}
    return {(author, task.pk): min((chosen.get((task.pk, cohort), task.default_min_peer_reviews)
                                    for cohort in cohorts_of.get(author, [])), default=task.default_min_peer_reviews)
            for author, task in pairs}


def peer_minimums(author: User, tasks: Iterable[EvidenceTask]) -> dict[int, int]:
    """``peer_minimum`` for many of one author's tasks at once."""
    return {task_id: minimum for (_author, task_id), minimum in _minimums([(author.pk, t) for t in tasks]).items()}


def peer_minimums_of(submissions: Iterable[Submission]) -> dict[int, int]:
    """``peer_minimum`` for many authors' submissions at once, by submission id."""
    submissions = list(submissions)
    minimums = _minimums([(s.author_id, s.task) for s in submissions])
    return {s.pk: minimums[(s.author_id, s.task_id)] for s in submissions}


def peer_minimum(submission: Submission) -> int:
    """A learner in several cohorts waits for the lowest minimum among them."""
    return peer_minimums_of([submission])[submission.pk]


def cohort_peer_minimum(cohort: Cohort, task: EvidenceTask) -> int:
    """The minimum number of peer reviews ``cohort`` waits for on ``task``: its own setting, else the file's."""
    setting = CohortTaskSetting.objects.filter(cohort=cohort, task=task).first()
    return setting.min_peer_reviews if setting else task.default_min_peer_reviews


def waiting_for(submission: Submission, *, minimum: int | None = None) -> str:
    """Say what a submitted version waits for, so the author knows the next step is someone else's.

    Counts reviews, never shows them: what an unreleased review says stays
    hidden until an instructor releases it. Lists pass the ``minimum`` they read
    with ``peer_minimums`` and prefetch the reviews, so each row costs nothing.
    """
    kinds = [(review.kind, review.released_at) for review in submission.reviews.all()]
    peers = sum(1 for kind, _at in kinds if kind == Review.Kind.PEER)
    minimum = peer_minimum(submission) if minimum is None else minimum
    instructor_reviewed = any(kind == Review.Kind.INSTRUCTOR for kind, _at in kinds)
    if peers < minimum and not instructor_reviewed:  # an instructor's review is the way out of a short peer step
        return _("동료 검토 %(done)d/%(minimum)d 기다리는 중") % {"done": peers, "minimum": minimum}
    if not any(kind == Review.Kind.INSTRUCTOR for kind, _at in kinds):
        return _("강사 검토 기다리는 중")
    if any(kind != Review.Kind.SELF and released is None for kind, released in kinds):
        return _("검토 공개 기다리는 중")
    return ""
