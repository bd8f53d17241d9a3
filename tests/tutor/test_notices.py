"""Notices (issue 19, point 3): once per event and person, mail by preference, a signed unsubscribe link,
the daily jobs claimed by one worker, and the /api/me/notices contracts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Submission
from lessons.models import Lesson
from tests.conftest import signed_in
from tests.smtp import SmtpServer, body_of
from tutor.mail.models import OutboundMail
from tutor.notices import services as notices
from tutor.notices import worker
from tutor.notices.models import DailyRun, Kind, Mode, Notice, NoticeSetting


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    return EvidenceTask.objects.get(slug="afs-practice")


def submitted(author: User, task: EvidenceTask, text: str = "증거 글") -> Submission:
    services.save_draft(author=author, task=task, text=text, run_ids=[], lines=[])
    return services.submit(author=author, task=task, submit_key=f"{author.pk}-{text}")


def test_the_same_event_makes_one_notice_and_one_mail(learner: User) -> None:
    """notify with the same key twice (a retried task) leaves one notice and one queued mail."""
    first = notices.notify(user=learner, kind=Kind.DUE, key="due:1:test", title="내일 마감", url="/x/")
    again = notices.notify(user=learner, kind=Kind.DUE, key="due:1:test", title="내일 마감", url="/x/")
    assert first.pk == again.pk and Notice.objects.count() == 1
    assert OutboundMail.objects.filter(key="notice:due:1:test").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_peer_allocation_notice_and_mail_arrive_once_with_the_lease_end(
        learner: User, other_learner: User, task: EvidenceTask, smtp_server: SmtpServer,
        django_capture_on_commit_callbacks: Callable, drain_queue: Callable[[], None]) -> None:
    """Allocating peer work enqueues a task after commit; the worker makes the notice and the mail, once,
    even when the task runs twice; the mail names the lease end and has an unsubscribe link."""
    submitted(other_learner, task)
    submitted(learner, task)
    with django_capture_on_commit_callbacks(execute=True):
        allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    drain_queue()
    from exercises.evidence.tasks import notice_peer_allocated
    notice_peer_allocated.call(allocation_id=allocation.pk)  # a second run: nothing more
    drain_queue()
    notice = Notice.objects.get(user=learner)
    assert notice.kind == Kind.PEER_REVIEW
    until = timezone.localtime(allocation.expires_at).strftime("%H:%M")
    assert until in notice.title
    message = smtp_server.wait_for(1)[0]
    assert len(smtp_server.to(learner.email)) == 1
    body = body_of(message)
    assert until in body and "/notices/unsubscribe/" in body


def test_the_unsubscribe_link_works_signed_out_and_a_forged_one_does_not(learner: User) -> None:
    """The signed link shows one button without sign-in; its POST turns that kind off; a changed token is 404."""
    token = notices.unsubscribe_token(learner, Kind.PEER_REVIEW)
    visitor = Client()
    page = visitor.get(f"/notices/unsubscribe/{token}/")
    assert page.status_code == 200 and "그만 받기" in page.content.decode()
    assert NoticeSetting.objects.count() == 0, "GET never writes"
    assert visitor.post(f"/notices/unsubscribe/{token}/").status_code == 200
    assert notices.mode_of(learner, Kind.PEER_REVIEW) == Mode.OFF
    notices.notify(user=learner, kind=Kind.PEER_REVIEW, key="peer_review:x", title="t")
    assert not OutboundMail.objects.filter(key="notice:peer_review:x").exists()
    assert Notice.objects.filter(key="peer_review:x").exists(), "the in-site notice stays"
    assert visitor.get(f"/notices/unsubscribe/{token[:-2]}xx/").status_code == 404
    other = signing_for_other_salt(learner)
    assert visitor.post(f"/notices/unsubscribe/{other}/").status_code == 404


def signing_for_other_salt(user: User) -> str:
    from django.core import signing

    return signing.dumps({"u": user.pk, "k": "due"}, salt="something-else")


def test_notice_api_shows_and_marks_only_my_own(learner: User, other_learner: User) -> None:
    """GET /api/me/notices lists the asker's notices only; marking someone else's id read changes nothing."""
    mine = notices.notify(user=learner, kind=Kind.DUE, key="a", title="내 알림")
    theirs = notices.notify(user=other_learner, kind=Kind.DUE, key="b", title="남의 알림")
    client = signed_in(learner)
    listed = client.get("/api/me/notices").json()
    assert [n["id"] for n in listed] == [mine.pk] and listed[0]["read"] is False
    response = client.post("/api/me/notices/read", {"ids": [mine.pk, theirs.pk]}, content_type="application/json")
    assert response.json() == {"marked": 1, "unread": 0}
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert Client().get("/api/me/notices").status_code == 401
    assert "1" in signed_in(other_learner).get("/notices/badge/").content.decode()


def test_notice_settings_take_any_subset_and_refuse_unknown_kinds(learner: User) -> None:
    """PUT /api/me/notice-settings sets the kinds given; an unknown kind or mode is 422 and changes nothing."""
    client = signed_in(learner)
    put = lambda body: client.put("/api/me/notice-settings", body, content_type="application/json")  # noqa: E731
    response = put({"due": "off", "digest": "daily"})
    assert response.status_code == 200
    assert response.json() == {"peer_review": "immediate", "review_released": "immediate", "due": "off",
                                "digest": "daily", "peer_closed": "immediate"}
    assert put({"grades": "off"}).status_code == 422
    assert put({"due": "sometimes"}).status_code == 422
    assert notices.mode_of(learner, Kind.DUE) == Mode.OFF
    assert Client().put("/api/me/notice-settings", {"due": "off"}, content_type="application/json").status_code == 401


@pytest.mark.django_db
def test_the_daily_jobs_are_claimed_once_per_day_whatever_the_number_of_workers(settings: object) -> None:
    """Two workers ticking after the configured hour enqueue each daily job once; before the hour, none."""
    settings.NOTICES_DAILY_HOUR = 7  # type: ignore[attr-defined]
    early = timezone.localtime().replace(hour=6, minute=0)
    assert worker.tick(worker="a", now=early, force=True) == []
    late = early.replace(hour=8)
    assert worker.tick(worker="a", now=late, force=True) == ["due", "digest"]
    assert worker.tick(worker="b", now=late, force=True) == []
    assert DailyRun.objects.count() == 2
    assert DBTaskResult.objects.filter(task_path__endswith="run_daily_job").count() == 2
    assert worker.tick(worker="b", now=late + timedelta(days=1), force=True) == ["due", "digest"]


def test_the_digest_reaches_each_teacher_once_and_daily_choosers_get_one_collected_mail(
        learner: User, instructor: User, task: EvidenceTask) -> None:
    """A waiting submission puts a line in the teacher's digest; running the job again sends nothing more.
    A learner who chose 'daily' gets no immediate mail but one collected mail with the digest job."""
    submitted(learner, task)
    notices.set_preferences(user=learner, modes={Kind.REVIEW_RELEASED: Mode.DAILY})
    notices.notify(user=learner, kind=Kind.REVIEW_RELEASED, key="review_released:1", title="검토 공개")
    assert not OutboundMail.objects.filter(to=learner.email).exists()
    day = timezone.localdate()
    notices.run_daily_job(job="digest", day=day)
    notices.run_daily_job(job="digest", day=day)
    digest = Notice.objects.get(user=instructor, kind=Kind.DIGEST)
    assert "검토를 기다리는 제출 1건" in digest.body
    assert OutboundMail.objects.filter(to=instructor.email).count() == 1
    assert OutboundMail.objects.filter(to=learner.email, key__startswith="daily:").count() == 1
    assert not Notice.objects.filter(user=learner, kind=Kind.DIGEST).exists(), "learners get no teacher digest"


def test_a_due_tomorrow_notice_goes_to_those_who_have_not_submitted(
        learner: User, other_learner: User, instructor: User, cohort: object, task: EvidenceTask) -> None:
    """The 'due' job tells each learner without a submission for a task due tomorrow, once; not the one who
    submitted."""
    from exercises.evidence import schedule

    tomorrow = timezone.localtime() + timedelta(days=1)
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None, due_at=tomorrow,
                          peer_due_at=None)
    submitted(other_learner, task)
    notices.run_daily_job(job="due", day=timezone.localdate())
    notices.run_daily_job(job="due", day=timezone.localdate())
    assert list(Notice.objects.filter(kind=Kind.DUE).values_list("user__username", flat=True)) == ["learner"]
