"""Write and verify the audit trail.

``record`` appends one entry, chained by HMAC to the entry before it;
``refusal`` gathers identical refusals (same actor, action, target and reason
within one hour) into one entry with a count, so nobody can grow the log
without bound. ``verify_chain`` recomputes the chain and says where it breaks.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone

from . import append_only, keys
from .keys import canonical
from .models import AuditEntry, IntegrityCheck

# What the chain covers: everything but the counters of a gathered refusal.
CHAINED_FIELDS = (
    "seq", "at", "actor_id", "action", "target_type", "target_id", "target_label", "reason",
    "before_digest", "after_digest", "before", "after", "detail", "hour", "key_id",
)
logger = logging.getLogger(__name__)
_LOCK_ID = 0x7475746F72  # "tutor": one PostgreSQL advisory lock serialises appends to the chain


class Target(NamedTuple):
    """What an entry is about when it is not a row: an unknown account, a URL route, a bad token."""

    type: str
    id: str
    label: str = ""


def state_digest(state: Any) -> str:
    """Return a SHA-256 over a JSON form of ``state`` so before/after can be compared later."""
    if state is None:
        return ""
    blob = json.dumps(state, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _as_json(value: Any) -> Any:
    """What the JSON column will give back, so the chain is computed over the stored value."""
    return None if value is None else json.loads(json.dumps(value, ensure_ascii=False, default=str))


def entry_chain(values: dict[str, Any], previous: str, key: keys.SealKey) -> str:
    """The HMAC of one entry's chained fields and the chain value of the entry before it."""
    return key.mac(canonical({"previous": previous, **{name: values[name] for name in CHAINED_FIELDS}}))


def _lock_chain() -> None:
    # SQLite: the site opens write transactions with BEGIN IMMEDIATE, which already serialises writers.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_ID])


def _target_fields(target: models.Model | Target) -> dict[str, str]:
    if isinstance(target, Target):
        return {"target_type": target.type[:100], "target_id": target.id[:64], "target_label": target.label[:200]}
    return {"target_type": target._meta.label_lower, "target_id": str(target.pk), "target_label": str(target)[:200]}


def _actor(actor: User | AnonymousUser | None) -> User | None:
    return actor if actor is not None and actor.is_authenticated else None


def _append(**fields: Any) -> AuditEntry:
    """Add the entry at the end of the chain; call with the chain lock held."""
    key = keys.current_key()
    last = AuditEntry.objects.chained().values("seq", "chain").last()
    fields.update(seq=(last["seq"] or 0) + 1 if last else 1, key_id=key.key_id)
    entry = AuditEntry(**fields)
    values = {name: getattr(entry, name) for name in CHAINED_FIELDS}
    entry.chain = entry_chain(values, last["chain"] if last else "", key)
    entry.save()
    return entry


def record(
    *,
    actor: User | AnonymousUser | None,
    action: str,
    target: models.Model | Target,
    reason: str = "",
    before: Any = None,
    after: Any = None,
    detail: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry; call it inside the transaction of the change it describes."""
    with transaction.atomic():
        _lock_chain()
        return _append(
            at=timezone.now(), actor=_actor(actor), action=action, **_target_fields(target), reason=reason,
            before_digest=state_digest(before), after_digest=state_digest(after),
            before=_as_json(before), after=_as_json(after), detail=_as_json(detail or {}),
        )


def refusal(
    *,
    actor: User | AnonymousUser | None,
    action: str,
    target: models.Model | Target,
    reason: str = "",
    detail: dict[str, Any] | None = None,
) -> AuditEntry:
    """Record a refusal, gathered: one entry per actor, action, target, reason and hour, with a count."""
    now = timezone.now()
    hour = now.replace(minute=0, second=0, microsecond=0)
    who = _actor(actor)
    place = _target_fields(target)
    with transaction.atomic():
        _lock_chain()
        same = AuditEntry.objects.filter(hour=hour, action=action, actor=who, reason=reason,
                                         target_type=place["target_type"], target_id=place["target_id"])
        existing = same.first()
        if existing is not None:
            AuditEntry.objects.filter(pk=existing.pk).count_repeat(at=now)
            existing.refresh_from_db(fields=["repeats", "last_at"])
            return existing
        return _append(at=now, actor=who, action=action, **place, reason=reason, hour=hour, last_at=now,
                       detail=_as_json(detail or {}))


@dataclass
class ChainReport:
    """What ``verify_chain`` found: how many entries it checked and each break, in words."""

    checked: int = 0
    problems: list[str] = field(default_factory=list)
    head_seq: int | None = None
    head_chain: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def _describe(entry: dict[str, Any]) -> str:
    return f"seq {entry['seq']} (id {entry['id']}, {entry['action']} {entry['target_type']}#{entry['target_id']})"


def verify_chain() -> ChainReport:
    """Recompute every entry's HMAC in chain order; name each entry that breaks it, and why."""
    report = ChainReport()
    missing = set(append_only.expected(connection)) - set(append_only.installed(connection))
    if missing:
        report.problems.append(f"데이터베이스 트리거 없음: {', '.join(sorted(missing))} (고치기·지우기가 막히지 않음)")
    for entry in AuditEntry.objects.filter(seq__isnull=True).values("id", "action", "target_type", "target_id"):
        report.problems.append(f"id {entry['id']} ({entry['action']} {entry['target_type']}#{entry['target_id']}): "
                               "사슬 자리(seq)가 없음 — 사이트 밖에서 넣은 기록")
        report.checked += 1
    previous_seq, previous_chain = 0, ""
    for entry in AuditEntry.objects.chained().values("id", "chain", *CHAINED_FIELDS).iterator():
        report.checked += 1
        where = _describe(entry)
        if entry["seq"] != previous_seq + 1:
            report.problems.append(f"{where}: 앞 기록 seq {previous_seq + 1}–{entry['seq'] - 1}이 없음 (지워짐)")
        key = keys.key_for(entry["key_id"])
        if key is None:
            report.problems.append(f"{where}: 봉인 키 {entry['key_id'] or '(없음)'}가 설정에 없어 확인할 수 없음")
        elif not hmac.compare_digest(entry_chain(entry, previous_chain, key), entry["chain"]):
            report.problems.append(f"{where}: 사슬 값이 맞지 않음 — 사이트 밖에서 넣었거나 고친 기록")
        previous_seq, previous_chain = entry["seq"], entry["chain"]
    report.head_seq, report.head_chain = (previous_seq or None), previous_chain
    last = IntegrityCheck.objects.filter(kind=IntegrityCheck.Kind.AUDIT, ok=True, head_seq__isnull=False).first()
    if last is not None:
        anchor = AuditEntry.objects.filter(seq=last.head_seq).values_list("chain", flat=True).first()
        if anchor != last.head_chain:
            report.problems.append(f"지난 점검({last.checked_at:%Y-%m-%d %H:%M})의 마지막 기록 seq {last.head_seq}가 "
                                   "없거나 바뀜 (끝부분이 지워짐)")
    return report


def save_check(*, kind: str, checked: int, problems: list[str], head_seq: int | None = None,
               head_chain: str = "") -> IntegrityCheck:
    """Keep the outcome of a verification, so the admin shows when the records were last checked."""
    return IntegrityCheck.objects.create(kind=kind, ok=not problems, checked=checked, problems=problems,
                                         head_seq=head_seq, head_chain=head_chain)


def refused_access(request: Any, exc: Any) -> None:
    """Log a 404 that an access check gave a signed-in user; called by the page and API error handlers.

    The target is what the check refused, or else the URL route (not the path),
    so probing ids or names yields one gathered entry per route and hour, not one per id.
    """
    user = getattr(request, "auth", None) or getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    if exc.target is not None:
        target: models.Model | Target = exc.target
    else:
        match = getattr(request, "resolver_match", None)
        route = (match.route if match is not None else "") or request.path
        target = Target("route", route[:64], route[:200])
    try:
        # No path: it may name another person (a username in the URL); the target or route is enough.
        refusal(actor=user, action="access.deny", target=target, reason=exc.reason or exc.detail,
                detail={"method": request.method})
    except DatabaseError:  # the person still gets their 404, never a 500; the failure reaches the server log
        logger.exception("could not audit a refused access to %s", request.path)


def sign_in_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    """Receiver of ``user_login_failed``: one gathered entry per account and hour, counting the failures.

    An existing account is the target; a name that matches no account is not
    kept at all (it may be a password typed in the wrong box).
    """
    from django.contrib.auth import get_user_model

    User = get_user_model()
    username = str(credentials.get("username") or "")[:150]
    account = User._default_manager.filter(**{User.USERNAME_FIELD: username}).first() if username else None
    target = account if account is not None else Target("auth.user", "unknown", "없는 아이디")
    refusal(actor=None, action="sign_in.failed", target=target, reason="로그인 실패",
            detail={"path": getattr(request, "path", "")[:200]})
