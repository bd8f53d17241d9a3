"""Outgoing mail: queued once per key, sent by the task worker after commit, at most once, over real SMTP."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from tests.smtp import SmtpServer, body_of
from tutor.mail import services
from tutor.mail.backends import EmlFileBackend
from tutor.mail.models import OutboundMail
from tutor.models import AuditEntry

pytestmark = pytest.mark.django_db


def queue(key: str = "test:1", to: str = "learner@example.com") -> OutboundMail:
    return services.queue_mail(to=to, subject="안내 메일", body="안녕하세요.\n링크: https://tutor.test/x/", key=key)


@pytest.mark.django_db(transaction=True)
def test_a_queued_message_arrives_over_smtp_exactly_once_even_when_the_task_runs_twice(
    smtp_server: SmtpServer, drain_queue: Callable[[], None],
) -> None:
    """The worker sends the message; the same task enqueued again and run again sends nothing more."""
    with transaction.atomic():
        mail = queue()
    assert DBTaskResult.objects.count() == 1
    services._enqueue(mail.pk)  # a retry of the same task
    drain_queue()
    services.send_mail_now(mail_id=mail.pk)  # and once more, directly
    drain_queue()
    messages = smtp_server.wait_for(1)
    assert len(messages) == 1
    assert len(smtp_server.to("learner@example.com")) == 1
    assert messages[0]["Subject"] == "안내 메일"
    assert "https://tutor.test/x/" in body_of(messages[0])
    assert messages[0]["Message-ID"] == services.message_id("test:1")
    mail.refresh_from_db()
    assert mail.state == OutboundMail.State.SENT and mail.attempts == 1
    assert AuditEntry.objects.filter(action="mail.send").count() == 1


@pytest.mark.django_db(transaction=True)
def test_queuing_the_same_key_twice_makes_one_message(smtp_server: SmtpServer, drain_queue: Callable[[], None]) -> None:
    """``queue_mail`` is idempotent per key: the second call returns the first message and queues no task."""
    with transaction.atomic():
        first = queue()
        second = services.queue_mail(to="other@example.com", subject="다른 제목", body="x", key="test:1")
    assert first.pk == second.pk and second.to == "learner@example.com"
    assert OutboundMail.objects.count() == 1 and DBTaskResult.objects.count() == 1
    drain_queue()
    assert len(smtp_server.wait_for(1)) == 1


def test_nothing_is_sent_for_a_rolled_back_transaction(django_capture_on_commit_callbacks: Callable) -> None:
    """A message queued in a transaction that rolls back leaves no row and no task."""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            queue()
            raise RuntimeError("rolled back")
    assert callbacks == []
    assert OutboundMail.objects.count() == 0 and DBTaskResult.objects.count() == 0


def test_the_task_is_queued_only_after_commit(django_capture_on_commit_callbacks: Callable) -> None:
    """Until the queuing transaction commits, the worker has no task to find."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queue()
    assert DBTaskResult.objects.count() == 0
    for callback in callbacks:
        callback()
    assert DBTaskResult.objects.count() == 1


def test_a_message_someone_else_claimed_is_not_sent_again(smtp_server: SmtpServer) -> None:
    """A row already in ``sending`` (another worker has it, or died mid-send) is not sent by a second worker."""
    mail = queue()
    OutboundMail.objects.filter(pk=mail.pk).update(state=OutboundMail.State.SENDING)
    assert services.send_mail_now(mail_id=mail.pk) is None
    assert smtp_server.messages == []


def test_a_refused_connection_marks_the_message_failed_and_staff_can_requeue_it(
    settings: object, smtp_server: SmtpServer, django_capture_on_commit_callbacks: Callable,
) -> None:
    """No mail server: the message is failed with the reason; staff put it back and it is sent once."""
    mail = queue()
    right_port = smtp_server.port
    settings.EMAIL_PORT = 1  # type: ignore[attr-defined]  # nothing listens there
    services.send_mail_now(mail_id=mail.pk)
    mail.refresh_from_db()
    assert mail.state == OutboundMail.State.FAILED and mail.last_error
    settings.EMAIL_PORT = right_port  # type: ignore[attr-defined]
    staff = User.objects.create_user("staff", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.requeue_mail(actor=staff, mail_id=mail.pk)
    services.send_mail_now(mail_id=mail.pk)
    assert len(smtp_server.wait_for(1)) == 1


def test_a_learner_cannot_requeue_mail(learner: User) -> None:
    """Putting mail back in the queue is for staff only; anyone else gets the same 404 as for a missing message."""
    from tutor.errors import NotFound

    mail = queue()
    with pytest.raises(NotFound):
        services.requeue_mail(actor=learner, mail_id=mail.pk)


def test_the_subject_cannot_carry_extra_headers(smtp_server: SmtpServer) -> None:
    """Line breaks in a subject are folded into spaces, so no header can be injected."""
    mail = services.queue_mail(to="a@example.com", subject="제목\r\nBcc: evil@example.com", body="x", key="k:2")
    services.send_mail_now(mail_id=mail.pk)
    message = smtp_server.wait_for(1)[0]
    assert message["Bcc"] is None and smtp_server.envelopes[0][1] == ["a@example.com"]


def test_without_a_mail_server_each_message_is_an_eml_file(tmp_path: Path) -> None:
    """The backend for a site without EMAIL_HOST writes one readable .eml file per message."""
    from django.core.mail import EmailMessage

    backend = EmlFileBackend(file_path=tmp_path)
    sent = backend.send_messages([EmailMessage("첫째", "본문 하나", "a@x.test", ["b@x.test"]),
                                  EmailMessage("둘째", "본문 둘", "a@x.test", ["c@x.test"])])
    files = sorted(tmp_path.glob("*.eml"))
    assert sent == 2 and len(files) == 2
    import email
    import email.policy

    parsed = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default) for f in files]
    assert {str(m["Subject"]) for m in parsed} == {"첫째", "둘째"}


def test_send_queued_mail_command_sends_what_waits(smtp_server: SmtpServer) -> None:
    """``manage.py send_queued_mail`` sends queued messages with the same once-only claim."""
    queue("a:1", "one@example.com")
    queue("a:2", "two@example.com")
    call_command("send_queued_mail")
    call_command("send_queued_mail")
    assert len(smtp_server.wait_for(2)) == 2
    assert OutboundMail.objects.filter(state=OutboundMail.State.SENT).count() == 2


def test_staff_see_outgoing_mail_in_the_admin_and_requeue_a_failed_one(admin_client: object) -> None:
    """관리 → 메일 lists messages (read-only, no delete); the action puts a failed one back in the queue."""
    mail = queue()
    OutboundMail.objects.filter(pk=mail.pk).update(state=OutboundMail.State.FAILED, last_error="OSError")
    listing = admin_client.get("/admin/mail/outboundmail/")  # type: ignore[attr-defined]
    assert listing.status_code == 200 and "learner@example.com" in listing.content.decode()
    response = admin_client.post("/admin/mail/outboundmail/", {  # type: ignore[attr-defined]
        "action": "requeue", "_selected_action": [mail.pk]})
    assert response.status_code == 302
    mail.refresh_from_db()
    assert mail.state == OutboundMail.State.QUEUED
    assert AuditEntry.objects.filter(action="mail.requeue").count() == 1
    assert admin_client.get(f"/admin/mail/outboundmail/{mail.pk}/delete/").status_code == 403  # type: ignore[attr-defined]


def test_a_message_needs_one_valid_address() -> None:
    """Queuing to something that is not an address is a programming error, refused before anything is stored."""
    for bad in ("", "not-an-address", "a@example.com, b@example.com"):
        with pytest.raises(ValueError):
            services.queue_mail(to=bad, subject="x", body="x", key=f"bad:{bad}")
    assert not OutboundMail.objects.exists()
