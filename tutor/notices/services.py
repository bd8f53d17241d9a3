"""Every write of the notices app: make a notice (and its mail), mark read, choose per kind, unsubscribe,
and the daily jobs the worker claims (``worker.tick``).

Usage (an app's task, run by the worker)::

    from tutor.notices.services import notify

    notify(user=reviewer, kind=Kind.PEER_REVIEW, key=f"peer_review:{allocation.pk}", title="…", url="/…")

``notify`` is idempotent per ``key`` (one event, one person): the notice row's
unique key and ``tutor.mail``'s once-per-key sending mean a retried task, or a
second worker, never tells anyone twice.
"""

from __future__ import annotations

import logging
from datetime import date

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tutor import audit
from tutor.errors import NotFound
from tutor.mail.services import absolute_url, queue_mail

from . import registry
from .models import Kind, Mode, Notice, NoticeSetting

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "tutor.notices.unsubscribe"


def mode_of(user: User, kind: str) -> str:
    setting = NoticeSetting.objects.filter(user=user, kind=kind).values_list("mode", flat=True).first()
    return setting or Mode.IMMEDIATE


def unsubscribe_token(user: User, kind: str) -> str:
    """A signed token naming the person and the kind; it never expires and needs no sign-in."""
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(user: User, kind: str) -> str:
    return absolute_url(reverse("notices:unsubscribe", args=[unsubscribe_token(user, kind)]))


def _mail_body(user: User, *, kind: str, body: str, url: str) -> str:
    parts = [body.strip()] if body.strip() else []
    if url:
        parts.append(f"바로 가기: {absolute_url(url)}")
    parts.append(f"이런 메일을 그만 받으려면 (로그인 없이 한 번에): {unsubscribe_url(user, kind)}")
    parts.append(f"알림 설정: {absolute_url(reverse('tutor:account'))}")
    return "\n\n".join(parts) + "\n"


def notify(*, user: User, kind: str, key: str, title: str, url: str = "", body: str = "") -> Notice:
    """Tell ``user`` about one event: an in-site notice, and a mail when they chose "immediate" for ``kind``.

    Idempotent per ``key``: the same key again returns the first notice and queues nothing.
    """
    with transaction.atomic():
        notice, created = Notice.objects.get_or_create(
            key=key[:200], defaults={"user": user, "kind": kind, "title": title[:200], "url": url, "body": body})
        if created and user.is_active and user.email and mode_of(user, kind) == Mode.IMMEDIATE:
            queue_mail(to=user.email, subject=f"[근거 튜터] {title}", key=f"notice:{notice.key}"[:200],
                       body=_mail_body(user, kind=kind, body=body, url=url))
    return notice


@transaction.atomic(durable=True)
def mark_read(*, user: User, ids: list[int]) -> int:
    """Mark the asker's own notices read; anyone else's ids are ignored (they are not theirs to see)."""
    return Notice.objects.filter(user=user, pk__in=ids, read_at__isnull=True).update(read_at=timezone.now())


@transaction.atomic(durable=True)
def set_preferences(*, user: User, modes: dict[str, str]) -> dict[str, str]:
    """Set the asker's mode per kind (the caller validated kinds and modes); return every kind's mode."""
    for kind, mode in modes.items():
        before = mode_of(user, kind)
        NoticeSetting.objects.update_or_create(user=user, kind=kind, defaults={"mode": mode})
        if before != mode:
            audit.record(actor=user, action="notices.preference", target=user, before={kind: before},
                         after={kind: mode})
    return preferences_of(user)


def preferences_of(user: User) -> dict[str, str]:
    chosen = dict(NoticeSetting.objects.filter(user=user).values_list("kind", "mode"))
    return {kind: chosen.get(kind, Mode.IMMEDIATE) for kind in Kind.values}


def read_unsubscribe_token(token: str) -> tuple[User, str]:
    """The person and kind a token names; a forged or mangled token is not found."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user = User.objects.get(pk=int(data["u"]), is_active=True)
        kind = str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError, User.DoesNotExist):
        raise NotFound("이 수신 거부 링크는 올바르지 않습니다.") from None
    if kind not in Kind.values:
        raise NotFound("이 수신 거부 링크는 올바르지 않습니다.")
    return user, kind


@transaction.atomic(durable=True)
def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn mail of one kind off for the person the signed token names (no sign-in needed)."""
    user, kind = read_unsubscribe_token(token)
    NoticeSetting.objects.update_or_create(user=user, kind=kind, defaults={"mode": Mode.OFF})
    audit.record(actor=None, action="notices.unsubscribe", target=user, after={kind: Mode.OFF})
    return user, kind


# The worker's daily jobs --------------------------------------------------------------------------


def run_daily_job(*, job: str, day: date) -> int:
    """Make one day's notices: "due" (tasks due tomorrow) or "digest" (teachers' digest and daily mails)."""
    if job == "due":
        return registry.daily_notices(day)
    if job == "digest":
        return send_digests(day=day)
    raise ValueError(job)


def _teachers() -> list[User]:
    from tutor.access import STAFF_ROLES
    from tutor.models import Membership

    ids = Membership.objects.active().filter(role__in=STAFF_ROLES).values("user_id")
    return list(User.objects.filter(pk__in=ids, is_active=True).order_by("pk"))


def send_digests(*, day: date) -> int:
    """Each teacher's digest of what waits (a notice, mailed unless off), and each person's daily mail of the
    notices they chose to receive once a day. Idempotent per person and day."""
    made = 0
    for teacher in _teachers():
        lines = registry.digest_lines_for(teacher)
        if not lines:
            continue
        notify(user=teacher, kind=Kind.DIGEST, key=f"digest:{day.isoformat()}:{teacher.pk}",
               title=f"{day:%m월 %d일} 기다리는 일", url=reverse("notices:list"), body="\n".join(lines))
        made += 1
    pending = (Notice.objects.filter(mailed_in_digest_at__isnull=True, user__is_active=True)
               .exclude(kind=Kind.DIGEST).select_related("user").order_by("user_id", "created_at"))
    daily_kinds = set(NoticeSetting.objects.filter(mode=Mode.DAILY).values_list("user_id", "kind"))
    by_user: dict[int, list[Notice]] = {}
    for notice in pending:
        if (notice.user_id, notice.kind) in daily_kinds:
            by_user.setdefault(notice.user_id, []).append(notice)
    for notices in by_user.values():
        user = notices[0].user
        with transaction.atomic():
            if user.email:
                body = "\n".join(f"- {n.title}: {absolute_url(n.url) if n.url else ''}" for n in notices)
                queue_mail(to=user.email, subject=f"[근거 튜터] {day:%m월 %d일} 알림 모음",
                           key=f"daily:{day.isoformat()}:{user.pk}",
                           body=_mail_body(user, kind=notices[0].kind, body=body, url=""))
            Notice.objects.filter(pk__in=[n.pk for n in notices]).update(mailed_in_digest_at=timezone.now())
        made += 1
    return made
