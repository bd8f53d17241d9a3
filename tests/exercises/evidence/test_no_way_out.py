"""Class situations that used to have no way out (issue 19, point 5)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse

from exercises.evidence import peer, selectors, services
from exercises.evidence.models import EvidenceTask, Review
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient, submitted
from tutor.errors import Conflict
from tutor.models import Cohort


@override_settings(EVIDENCE_PEER_CAP=2)
def test_one_learner_takes_at_most_the_cap_of_peer_reviews(make_user: Callable[..., User], instructor: User,
                                                           task: EvidenceTask) -> None:
    """After two reviews of a task (done or under way) a learner is refused more, by asking or by assignment."""
    keen = make_user("keen")
    submitted(keen, task)
    authors = [make_user(f"a{n}") for n in range(3)]
    subs = [submitted(author, task) for author in authors]
    for _ in range(2):
        allocation = peer.allocate_peer_work(reviewer=keen, task=task)
        services.record_review(reviewer=keen, submission=allocation.submission, kind=Review.Kind.PEER,
                               judgements=insufficient(task), comment="")
    with pytest.raises(Conflict, match="2건까지"):
        peer.allocate_peer_work(reviewer=keen, task=task)
    left = next(s for s in subs if not s.allocations.filter(reviewer=keen).exists())
    with pytest.raises(Conflict, match="2건까지"):
        peer.assign_peer(instructor=instructor, submission=left, reviewer=keen)


def test_a_late_review_of_an_older_version_shows_in_the_queue_until_released(
        learner: User, other_learner: User, instructor: User, task: EvidenceTask) -> None:
    """A peer review of version 1 written after version 2 was submitted still appears in the queue (판 1),
    so an instructor can release it."""
    first = submitted(learner, task, "첫 판")
    submitted(other_learner, task)
    allocation = peer.allocate_peer_work(reviewer=other_learner, task=task)
    assert allocation.submission == first
    submitted(learner, task, "둘째 판")
    services.record_review(reviewer=other_learner, submission=first, kind=Review.Kind.PEER,
                           judgements=insufficient(task), comment="늦은 검토")
    rows = selectors.instructor_queue(instructor)
    assert first.pk in {row.submission.pk for row in rows}
    page = signed_in(instructor).get(reverse("evidence:queue")).content.decode()
    assert f"/evidence/submissions/{first.pk}/" in page
    services.release_reviews(instructor=instructor, submission=first)
    assert first.pk not in {row.submission.pk for row in selectors.instructor_queue(instructor)}


def test_an_instructor_review_is_the_way_out_for_work_no_peer_can_review(
        learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """A lone learner's work waits for peers that do not exist; the cohort is flagged as too small, and an
    instructor's review ends the wait for peers."""
    from exercises.evidence import schedule

    submission = submitted(learner, task)
    assert "채울 수 없습니다" in schedule.too_small(cohort, task)
    assert "동료 검토" in selectors.waiting_for(submission)
    services.record_review(reviewer=instructor, submission=submission, kind=Review.Kind.INSTRUCTOR,
                           judgements=insufficient(task), comment="")
    assert "동료 검토" not in selectors.waiting_for(submission)
    assert not any(w.rows for w in selectors.waiting_list(instructor))


def test_leaving_a_cohort_releases_the_leavers_leases(learner: User, other_learner: User, instructor: User,
                                                      cohort: Cohort, task: EvidenceTask) -> None:
    """A learner removed from the cohort loses their live lease on a classmate's work (it goes back)."""
    submitted(learner, task)
    submitted(other_learner, task)
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    ended = peer.release_leases_of_leaver(actor=instructor, reviewer=learner, cohort=cohort)
    allocation.refresh_from_db()
    assert ended == 1 and allocation.ended_at is not None


def test_when_the_peer_step_closes_the_waiting_work_is_listed_with_actions(
        learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """After the cohort's peer-review due time a submission still short of peers says so in the queue, next to
    the instructor's actions (review it, assign someone, lower the minimum)."""
    from datetime import timedelta

    from django.utils import timezone

    from exercises.evidence import schedule

    submitted(learner, task)
    page = signed_in(instructor).get(reverse("evidence:queue")).content.decode()
    assert "동료 검토 마감 지남" not in page
    now = timezone.now()
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=now - timedelta(days=3), peer_due_at=now - timedelta(hours=1))
    page = signed_in(instructor).get(reverse("evidence:queue")).content.decode()
    assert "동료 검토 마감 지남" in page and "직접 검토하기" in page and "최소 동료 검토를" in page
