"""Sign-in throttling shared by every entry point that checks a password (the site and /admin/).

Every attempt is counted *before* its password is checked, under three keys:

- the account at this address: ``SIGN_IN_MAX_FAILURES`` free attempts, then back-off
  doubling from ``SIGN_IN_BACKOFF_SECONDS`` up to ``SIGN_IN_MAX_BACKOFF_SECONDS``;
- the account from anywhere (a guesser with many addresses): four times as many free
  attempts, back-off capped at five minutes, and skipped at an address where the
  account signed in before, so a guesser elsewhere never keeps the owner out;
- the address across accounts (one guesser trying many accounts): twenty times as many
  free attempts, since a classroom may share one address, capped at five minutes.

The counting is atomic: the keys' rows are locked and advanced in one transaction
before the password is checked, so concurrent guesses cannot all slip under the limit.
A success clears the account's keys and gives the address back the attempt it used.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext

from .errors import Throttled
from .models import KnownSignInAddress, SignInThrottle

ACCOUNT_WIDE_MAX_BACKOFF = 300
KNOWN_ADDRESS_DAYS = 60


@dataclass(frozen=True)
class Policy:
    free: int
    max_backoff: float

    def delay(self, failures: int) -> float:
        """Seconds the next attempt must wait after ``failures`` recent failures."""
        if failures < self.free:
            return 0.0
        return min(self.max_backoff, settings.SIGN_IN_BACKOFF_SECONDS * 2 ** min(failures - self.free, 30))


def client_address(request: HttpRequest | Any) -> str | None:
    """The client's address: from ``CLIENT_ADDRESS_HEADER`` when a trusted proxy sets it.

    For ``X-Forwarded-For`` the entry ``TRUSTED_PROXY_COUNT`` from the right is the
    one our own proxy appended; anything left of it was written by the client.
    """
    meta = getattr(request, "META", {})
    header = settings.CLIENT_ADDRESS_HEADER
    candidate = meta.get("REMOTE_ADDR", "")
    if header and meta.get(header):
        entries = [item.strip() for item in meta[header].split(",") if item.strip()]
        index = max(1, settings.TRUSTED_PROXY_COUNT)
        candidate = entries[-index] if len(entries) >= index else (entries[0] if entries else candidate)
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def _keys(username: str, address: str | None, *, known: bool) -> dict[str, Policy]:
    limit = settings.SIGN_IN_MAX_FAILURES
    cap = settings.SIGN_IN_MAX_BACKOFF_SECONDS
    name = username.casefold()[:150]
    keys = {f"pair:{name}|{address or '-'}": Policy(free=limit, max_backoff=cap)}
    if not known:
        keys[f"account:{name}"] = Policy(free=limit * 4, max_backoff=min(cap, ACCOUNT_WIDE_MAX_BACKOFF))
    if address:
        keys[f"address:{address}"] = Policy(free=limit * 20, max_backoff=min(cap, ACCOUNT_WIDE_MAX_BACKOFF))
    return keys


def _is_known(username: str, address: str | None) -> bool:
    if not address:
        return False
    cutoff = timezone.now() - timedelta(days=KNOWN_ADDRESS_DAYS)
    return KnownSignInAddress.objects.filter(
        user__username__iexact=username, address=address, last_seen_at__gte=cutoff).exists()


@transaction.atomic
def begin_attempt(*, username: str, address: str | None) -> None:
    """Count one attempt under each key, or raise ``Throttled`` saying how long to wait.

    Called before the password is checked; ``attempt_succeeded`` undoes the count.
    """
    keys = _keys(username, address, known=_is_known(username, address))
    SignInThrottle.objects.bulk_create([SignInThrottle(key=key) for key in keys], ignore_conflicts=True)
    rows = list(SignInThrottle.objects.select_for_update().filter(key__in=keys).order_by("key"))
    now = timezone.now()  # read after the locks: a waiter must not compare against an older clock
    waits = [(row.next_attempt_at - now).total_seconds() for row in rows
             if row.next_attempt_at is not None and row.next_attempt_at > now]
    if waits:
        seconds = math.ceil(max(waits))
        raise Throttled(_wait_message(seconds), retry_after=seconds)
    window_start = now - timedelta(seconds=settings.SIGN_IN_WINDOW_SECONDS)
    for row in rows:
        forgotten = row.last_failure_at is None or row.last_failure_at < window_start
        row.failures = 1 if forgotten else row.failures + 1
        row.last_failure_at = now
        delay = keys[row.key].delay(row.failures)
        row.next_attempt_at = now + timedelta(seconds=delay) if delay else None
        row.save(update_fields=["failures", "last_failure_at", "next_attempt_at"])


@transaction.atomic
def attempt_succeeded(*, user: User, username: str, address: str | None) -> None:
    """The password was right: forget the account's failures, remember this address for it."""
    name = username.casefold()[:150]
    SignInThrottle.objects.filter(key__in=[f"pair:{name}|{address or '-'}", f"account:{name}"]).delete()
    if address:
        SignInThrottle.objects.filter(key=f"address:{address}", failures__gt=0).update(
            failures=F("failures") - 1)
        KnownSignInAddress.objects.update_or_create(
            user=user, address=address, defaults={"last_seen_at": timezone.now()})
    forget_old_failures()


def forget_old_failures(*, now: datetime | None = None) -> int:
    """Delete keys quiet for a whole window (run from the sign-in path now and then)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=max(settings.SIGN_IN_WINDOW_SECONDS,
                                                             settings.SIGN_IN_MAX_BACKOFF_SECONDS))
    deleted, _ = SignInThrottle.objects.filter(last_failure_at__lt=cutoff).delete()
    return deleted


def _wait_message(seconds: int) -> str:
    if seconds >= 60:
        when = gettext("%(minutes)d분") % {"minutes": math.ceil(seconds / 60)}
    else:
        when = gettext("%(seconds)d초") % {"seconds": seconds}
    return gettext("로그인에 여러 번 실패해 잠시 기다려야 합니다. %(when)s 뒤에 다시 시도하세요. "
                   "비밀번호를 잊었다면 로그인 화면의 '비밀번호를 잊으셨나요?'에서 재설정하세요.") % {"when": when}
