"""Reads of the core app."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from . import access
from .errors import NotFound
from .models import ApiToken, AuditEntry, Membership
from .services import TOKEN_PREFIX, token_digest

# The tokens page shows the last use to the minute; touching it on every request made each poll of
# a run a database write, queued behind the workers' writes on SQLite.
TOUCH_EVERY = timedelta(minutes=1)


def user_for_token(raw: str) -> User | None:
    """Return the owner of an active token, or ``None``; touch its last-used time (at most once a minute)."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = ApiToken.objects.active().select_related("user").filter(digest=token_digest(raw)).first()
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


def tokens_of(user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def audit_entries_for(user: User, *, limit: int = 200) -> list[AuditEntry]:
    """Admins see every entry; an instructor sees what the people of their cohorts (and they) did."""
    entries = AuditEntry.objects.select_related("actor").order_by("-at", "-id")
    if user.is_superuser:
        return list(entries[:limit])
    if not access.is_instructor(user):
        raise NotFound("찾을 수 없습니다.", reason="감사 기록: 강사·관리자만")
    members = Membership.objects.filter(cohort__in=access.cohorts_where(user, access.Perm.AUDIT)).values("user_id")
    people = get_user_model().objects.filter(Q(pk__in=members) | Q(pk=user.pk))
    return list(entries.filter(actor__in=people)[:limit])
