"""Reads of the core app."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone

from .models import ApiToken
from .services import TOKEN_PREFIX, token_digest


def user_for_token(raw: str) -> AbstractBaseUser | None:
    """Return the owner of an active token, or ``None``; touch its last-used time."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = ApiToken.objects.active().select_related("user").filter(digest=token_digest(raw)).first()
    if token is None:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.user


def tokens_of(user: AbstractBaseUser) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))
