"""Writes of the core app: sign-in throttling and personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from . import audit
from .errors import NotFound, Throttled
from .models import ApiToken, Cohort, SignInFailure

TOKEN_PREFIX = "gt_"


def _window_start() -> timezone.datetime:
    return timezone.now() - timedelta(seconds=settings.SIGN_IN_WINDOW_SECONDS)


def ensure_sign_in_allowed(*, username: str, address: str | None) -> None:
    """Refuse a sign-in attempt while the username or the address has too many recent failures."""
    recent = SignInFailure.objects.filter(at__gte=_window_start())
    limit = settings.SIGN_IN_MAX_FAILURES
    by_name = recent.filter(username=username.casefold()).count()
    # An address may try several accounts, but not endlessly.
    by_address = recent.filter(address=address).count() if address else 0
    if by_name >= limit or by_address >= limit * 4:
        minutes = max(1, settings.SIGN_IN_WINDOW_SECONDS // 60)
        raise Throttled(
            gettext("로그인에 여러 번 실패해 잠시 막았습니다. %(minutes)s분쯤 뒤에 다시 시도하세요.") % {"minutes": minutes},
            retry_after=settings.SIGN_IN_WINDOW_SECONDS,
        )


def record_sign_in_failure(*, username: str, address: str | None) -> None:
    SignInFailure.objects.create(username=username.casefold()[:150], address=address)
    SignInFailure.objects.filter(at__lt=_window_start()).delete()


def clear_sign_in_failures(*, username: str) -> None:
    SignInFailure.objects.filter(Q(username=username.casefold())).delete()


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


@transaction.atomic
def issue_api_token(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """Create a personal token and return it with its secret, which is shown this once only."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name.strip()[:80] or gettext("API 토큰"), prefix=raw[:10], digest=token_digest(raw))
    audit.record(actor=user, action="api_token.issue", target=token)
    return token, raw


@transaction.atomic
def revoke_api_token(*, user: AbstractBaseUser, token_id: int) -> ApiToken:
    token = ApiToken.objects.active().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(gettext("그런 토큰은 없습니다."))
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit.record(actor=user, action="api_token.revoke", target=token)
    return token


def record_bad_token(*, raw: str, path: str) -> None:
    """Audit an API request with a wrong or revoked token: gathered per token and hour, the secret never kept."""
    token = ApiToken.objects.filter(digest=token_digest(raw)).first() if raw.startswith(TOKEN_PREFIX) else None
    if token is not None:
        audit.refusal(actor=None, action="api_token.refused", target=token, reason="폐기된 토큰",
                      detail={"path": path[:200]})
    else:
        audit.refusal(actor=None, action="api_token.refused", target=audit.Target("tutor.apitoken", "unknown",
                      "알 수 없는 토큰"), reason="알 수 없는 토큰", detail={"path": path[:200]})


def cohort_members(cohort: Cohort) -> dict[str, list[int]]:
    return {"learners": sorted(cohort.learners.values_list("pk", flat=True)),
            "instructors": sorted(cohort.instructors.values_list("pk", flat=True))}


def record_membership_change(*, actor: AbstractBaseUser, cohort: Cohort, before: dict[str, list[int]]) -> None:
    """Audit who joined or left a cohort (user ids, nothing else about them); nothing is written if nobody did."""
    after = cohort_members(cohort)
    if after == before:
        return
    change = {role: {"added": sorted(set(after[role]) - set(before[role])),
                     "removed": sorted(set(before[role]) - set(after[role]))} for role in after}
    audit.record(actor=actor, action="cohort.members", target=cohort, before=before, after=after, detail=change)
