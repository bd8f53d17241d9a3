"""Writes of the core app: personal API tokens (sign-in throttling is ``tutor.throttle``)."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from . import audit
from .errors import NotFound
from .models import ApiToken, Cohort, Membership

TOKEN_PREFIX = "gt_"


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


@transaction.atomic(durable=True)
def issue_api_token(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Create a personal token and return it with its secret, which is shown this once only."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name.strip()[:80] or gettext("API 토큰"), prefix=raw[:10], digest=token_digest(raw))
    audit.record(actor=user, action="api_token.issue", target=token)
    return token, raw


@transaction.atomic(durable=True)
def revoke_api_token(*, user: User, token_id: int) -> ApiToken:
    token = ApiToken.objects.active().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(gettext("그런 토큰은 없습니다."))
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit.record(actor=user, action="api_token.revoke", target=token)
    return token


@transaction.atomic(durable=True)
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
    """The user ids of the cohort's active members, by role."""
    members: dict[str, list[int]] = {}
    for role, user_id in (Membership.objects.active().filter(cohort=cohort).order_by("role", "user_id")
                          .values_list("role", "user_id")):
        members.setdefault(role, []).append(user_id)
    return members


@transaction.atomic(savepoint=False)
def record_membership_change(*, actor: User | AnonymousUser, cohort: Cohort, before: dict[str, list[int]]) -> None:
    """Audit who joined or left a cohort (user ids, nothing else about them); nothing is written if nobody did."""
    after = cohort_members(cohort)
    if after == before:
        return
    change = {role: {"added": sorted(set(after.get(role, [])) - set(before.get(role, []))),
                     "removed": sorted(set(before.get(role, [])) - set(after.get(role, [])))}
              for role in sorted(set(after) | set(before))}
    audit.record(actor=actor, action="cohort.members", target=cohort, before=before, after=after, detail=change)
