"""Writes of the core app: personal API tokens (sign-in throttling is ``tutor.throttle``)."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from . import audit
from .errors import NotFound
from .models import ApiToken

TOKEN_PREFIX = "gt_"


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


@transaction.atomic
def issue_api_token(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Create a personal token and return it with its secret, which is shown this once only."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name.strip()[:80] or gettext("API 토큰"), prefix=raw[:10], digest=token_digest(raw))
    audit.record(actor=user, action="api_token.issue", target=token)
    return token, raw


@transaction.atomic
def revoke_api_token(*, user: User, token_id: int) -> ApiToken:
    token = ApiToken.objects.active().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(gettext("그런 토큰은 없습니다."))
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit.record(actor=user, action="api_token.revoke", target=token)
    return token
