"""When a cohort's peer-review step closes with learners still waiting (issue 19, point 1): the people who review
for that cohort are told once, by a notice the worker makes, and their to-do lists it until it is dealt with."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from exercises.evidence import schedule, services
from exercises.evidence.models import EvidenceTask, Review
from exercises.evidence.todo import peer_closed_notices, teacher_todo
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import insufficient, submitted
from tutor.mail.models import OutboundMail
from tutor.models import Cohort
from tutor.notices import worker
from tutor.notices.models import Kind, Notice
from tutor.roles import CohortRole, Role


def close_peer_step(instructor: User, cohort: Cohort, task: EvidenceTask, ago: timedelta) -> None:
    now = timezone.now()
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=now - ago - timedelta(days=1), peer_due_at=now - ago)


def test_two_worker_hosts_tell_each_reviewer_of_the_cohort_once(
        make_user: Callable[..., User], learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """Both hosts tick after the peer step closed: the cohort's instructor and assistant get one notice and one
    mail each, linking to the queue's waiting list; learners and another cohort's instructor get nothing."""
    make_user("helper", None, cohort_role=CohortRole.ASSISTANT)  # an assistant reviews for the cohort too
    elsewhere = make_user("stranger", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), elsewhere, CohortRole.INSTRUCTOR)
    submitted(learner, task)
    close_peer_step(instructor, cohort, task, timedelta(hours=1))
    worker.tick(worker="a", force=True)
    worker.tick(worker="b", force=True)
    told = Notice.objects.filter(kind=Kind.PEER_CLOSED)
    assert sorted(told.values_list("user__username", flat=True)) == ["helper", "teacher"]
    notice = told.get(user=instructor)
    assert "기다리는 제출 1건" in notice.title and notice.url.endswith("/evidence/queue/#waiting-title")
    assert "최소 동료 검토 수를 낮출" in notice.body
    assert OutboundMail.objects.filter(to=instructor.email, key__startswith="notice:peer_closed:").count() == 1
    assert not OutboundMail.objects.filter(to=elsewhere.email).exists()
    assert not Notice.objects.filter(user=learner, kind=Kind.PEER_CLOSED).exists()


def test_nothing_is_told_before_the_close_long_after_it_or_when_nobody_waits(
        learner: User, other_learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """An open peer step, one closed more than three days ago (a schedule set in the past), and one whose every
    submission has its peer reviews make no notice."""
    submitted(learner, task)
    now = timezone.now()
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=now - timedelta(hours=2), peer_due_at=now + timedelta(hours=2))
    assert peer_closed_notices(now) == 0
    close_peer_step(instructor, cohort, task, timedelta(days=4))
    assert peer_closed_notices(timezone.now()) == 0
    assert not Notice.objects.filter(kind=Kind.PEER_CLOSED).exists()
    services.set_min_peer_reviews(instructor=instructor, task=task, cohort=cohort, minimum=0, reason="소규모 기수")
    close_peer_step(instructor, cohort, task, timedelta(hours=1))
    assert peer_closed_notices(timezone.now()) == 0


def test_the_teachers_todo_lists_the_closed_step_until_the_instructor_reviews_it(
        learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """The home's to-do shows "동료 검토 마감이 지났는데 기다리는 제출 1건" with the close time; an instructor review
    stands in for the missing peers, so the item goes. A learner's to-do never has it."""
    submission = submitted(learner, task)
    close_peer_step(instructor, cohort, task, timedelta(days=10))  # the to-do, unlike the notice, does not age out
    items = [item for item in teacher_todo(instructor) if item.kind == "peer_closed"]
    assert len(items) == 1 and items[0].count == 1 and items[0].due_at is not None
    page = signed_in(instructor).get("/").content.decode()
    assert "동료 검토 마감이 지났는데 기다리는 제출 1건" in page
    assert "peer_closed" not in {item["kind"] for item in signed_in(learner).get("/api/me/todo").json()}
    services.record_review(reviewer=instructor, submission=submission, kind=Review.Kind.INSTRUCTOR,
                           judgements=insufficient(task), comment="")
    assert not [item for item in teacher_todo(instructor) if item.kind == "peer_closed"]
