"""Every write of the mail app: queue a message, send it once, put a failed one back in the queue.

Usage (any app)::

    from tutor.mail.services import queue_mail

    queue_mail(to=user.email, subject="…", body="…", key=f"invitation:{invitation.pk}", actor=request.user)

``queue_mail`` is idempotent per ``key``: queuing the same key again returns the
first message and sends nothing more. Call it inside your own transaction; the
message is handed to the task worker only after that transaction commits (never
for a rolled-back one), and the worker sends it at most once.
"""

from __future__ import annotations

import hashlib
import logging
import smtplib

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from tutor import audit
from tutor.errors import Conflict, NotFound

from .models import OutboundMail

logger = logging.getLogger(__name__)

MAX_SUBJECT = 200


def absolute_url(path: str, *, request: HttpRequest | None = None) -> str:
    """The full link for a mail body: ``SITE_URL`` when set, else the address the request came to."""
    if settings.SITE_URL:
        return settings.SITE_URL + path
    if request is not None:
        return request.build_absolute_uri(path)
    return "http://localhost:8000" + path


def message_id(key: str) -> str:
    """A Message-ID made from the key: the same message always carries the same id."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    _, _, domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")
    domain = domain.strip(" >") or "localhost"
    return f"<{digest}@{domain}>"


def queue_mail(*, to: str, subject: str, body: str, key: str,
               actor: User | AnonymousUser | None = None) -> OutboundMail:
    """Queue one plain-text message to ``to``; the worker sends it after the caller's transaction commits.

    Idempotent per ``key`` (at most 200 characters, e.g. ``"password-reset:42:…"``):
    a second call with the same key returns the message already queued, unchanged.
    Put no secret in the key: it is shown to staff and named in the audit log.
    ``to`` must be one valid address (``ValueError`` otherwise): validate people's
    input in your form first.
    """
    if not key or len(key) > 200:
        raise ValueError("mail key must be 1-200 characters")
    to = to.strip()
    try:
        validate_email(to)
    except ValidationError as exc:
        raise ValueError(f"not an e-mail address: {to!r}") from exc
    subject = " ".join(subject.split())[:MAX_SUBJECT]  # no header injection, one line
    with transaction.atomic(savepoint=False):
        mail, created = OutboundMail.objects.get_or_create(
            key=key,
            defaults={"to": to, "subject": subject, "body": body,
                      "actor": actor if actor is not None and actor.is_authenticated else None},
        )
        if created:
            audit.record(actor=actor, action="mail.queue", target=mail)
            transaction.on_commit(lambda: _enqueue(mail.pk))
    return mail


def _enqueue(mail_id: int) -> None:
    from .tasks import send_queued_mail

    send_queued_mail.enqueue(mail_id=mail_id)


def _claim(mail_id: int) -> bool:
    """Move the row from queued to sending; only the one caller that does so may send it."""
    claimed = OutboundMail.objects.filter(pk=mail_id, state=OutboundMail.State.QUEUED).update(
        state=OutboundMail.State.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1)
    return claimed == 1


def send_mail_now(*, mail_id: int) -> OutboundMail | None:
    """Send one queued message, at most once; return it, or ``None`` when someone else has it or it is gone.

    Called by the task worker. A second call (a retried task, another worker) finds
    the row no longer queued and sends nothing.
    """
    if not _claim(mail_id):
        return None
    mail = OutboundMail.objects.get(pk=mail_id)
    message = EmailMessage(
        subject=mail.subject, body=mail.body, from_email=settings.DEFAULT_FROM_EMAIL, to=[mail.to],
        headers={"Message-ID": message_id(mail.key), "Auto-Submitted": "auto-generated"},
    )
    try:
        with get_connection(fail_silently=False) as connection:
            connection.send_messages([message])
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("mail %s could not be sent: %s", mail.pk, exc)
        with transaction.atomic():
            OutboundMail.objects.filter(pk=mail.pk, state=OutboundMail.State.SENDING).update(
                state=OutboundMail.State.FAILED, last_error=f"{type(exc).__name__}: {exc}"[:2000])
            mail.refresh_from_db()
            audit.record(actor=None, action="mail.fail", target=mail, reason=type(exc).__name__)
        return mail
    with transaction.atomic():
        OutboundMail.objects.filter(pk=mail.pk, state=OutboundMail.State.SENDING).update(
            state=OutboundMail.State.SENT, sent_at=timezone.now(), last_error="")
        mail.refresh_from_db()
        audit.record(actor=None, action="mail.send", target=mail)
    return mail


def send_queued(*, limit: int = 500) -> int:
    """Send every queued message now (``manage.py send_queued_mail``); return how many left."""
    sent = 0
    for mail_id in OutboundMail.objects.filter(state=OutboundMail.State.QUEUED).order_by("pk") \
            .values_list("pk", flat=True)[:limit]:
        mail = send_mail_now(mail_id=mail_id)
        sent += mail is not None and mail.state == OutboundMail.State.SENT
    return sent


def requeue_mail(*, actor: User, mail_id: int) -> OutboundMail:
    """Staff put a failed (or stuck ``sending``) message back in the queue, knowing it may arrive twice."""
    if not actor.is_staff:
        raise NotFound("찾을 수 없습니다.", reason="메일 다시 보내기: 운영진만")
    with transaction.atomic(durable=True):
        mail = OutboundMail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None:
            raise NotFound("찾을 수 없습니다.")
        if mail.state not in (OutboundMail.State.FAILED, OutboundMail.State.SENDING):
            raise Conflict("보내지 못한 메일만 다시 보낼 수 있습니다.")
        before = mail.state
        OutboundMail.objects.filter(pk=mail.pk).update(state=OutboundMail.State.QUEUED)
        mail.refresh_from_db()
        audit.record(actor=actor, action="mail.requeue", target=mail, before={"state": before},
                     after={"state": mail.state})
        transaction.on_commit(lambda: _enqueue(mail.pk))
    return mail
