"""Reads of the core app."""

from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.contrib.auth.models import User
from django.db.models import CharField, Q, QuerySet, Subquery
from django.db.models.functions import Cast
from django.utils import timezone

from . import access
from .errors import NotFound
from .models import ApiToken, AuditEntry, members_of
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


#: Records whose audit entries are about a person: a model's label and the field that names that person. Apps
#: are named by label, so the core app imports none of them.
PERSONAL_RECORDS = {"auth.user": "pk", "evidence.submission": "author", "labs.labrun": "user"}


def _about_people(people: QuerySet) -> Q:
    """Entries whose target is a personal record of one of ``people``."""
    about = Q(pk__in=[])
    for label, owner in PERSONAL_RECORDS.items():
        model = apps.get_model(label)
        ids = model.objects.filter(**{f"{owner}__in": people}).annotate(
            target=Cast("pk", output_field=CharField())).values("target")
        about |= Q(target_type=label, target_id__in=Subquery(ids))
    return about


def audit_entries_for(user: User, *, limit: int = 200) -> list[AuditEntry]:
    """Admins see every entry; an instructor (or assistant) sees what they did themselves, entries about the
    records of the learners they teach, and the refusals those learners met.

    Entries are picked by whose records they are about, never by who acted: a
    learner who assists another cohort does not read, here, an instructor's
    unreleased note about a classmate of their own cohort, nor notes about
    their own work.
    """
    entries = AuditEntry.objects.select_related("actor").order_by("-at", "-id")
    if user.is_superuser:
        return list(entries[:limit])
    if not access.is_instructor(user):
        raise NotFound("찾을 수 없습니다.", reason="감사 기록: 강사·관리자만")
    learners = (members_of(access.cohorts_where(user, access.Perm.AUDIT)).exclude(pk=user.pk).values("pk"))
    shown = Q(actor=user) | _about_people(learners) | Q(hour__isnull=False, actor__in=learners)
    return list(entries.filter(shown)[:limit])
