"""Reads of the notices app: always the asker's own notices and settings."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from tutor.access import AnyUser

from .models import Notice

LIST_LIMIT = 50


def notices_of(user: AnyUser, *, limit: int = LIST_LIMIT) -> list[Notice]:
    if not user.is_authenticated:
        return []
    return list(Notice.objects.filter(user=user).order_by("-created_at", "-id")[:limit])


def unread_of(user: User) -> QuerySet[Notice]:
    return Notice.objects.filter(user=user, read_at__isnull=True)


def unread_count(user: AnyUser) -> int:
    return unread_of(user).count() if user.is_authenticated else 0
