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
from pathlib import Path
from typing import Any, NamedTuple

from django.conf import settings
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
    per_kind: bool = False,
) -> AuditEntry:
    """Record a refusal, gathered: one entry per actor, action, target, reason and hour, with a count.

    With ``per_kind`` the entry gathers every refusal of this actor, action and
    kind of target (a model, or a URL route) in the hour, whatever the id or the
    reason: the entry names the first one, and its count says how many followed.
    Probing ids then adds one entry per person, kind and hour, not one per object.
    """
    now = timezone.now()
    hour = now.replace(minute=0, second=0, microsecond=0)
    who = _actor(actor)
    place = _target_fields(target)
    with transaction.atomic():
        _lock_chain()
        same = AuditEntry.objects.filter(hour=hour, action=action, actor=who, target_type=place["target_type"])
        if not per_kind:
            same = same.filter(reason=reason, target_id=place["target_id"])
        elif place["target_type"] == "route":  # a route is a kind of its own; there are only so many
            same = same.filter(target_id=place["target_id"])
        existing = same.order_by("seq").first()
        if existing is not None:
            AuditEntry.objects.filter(pk=existing.pk).count_repeat(at=max(now, existing.last_at or now))
            existing.refresh_from_db(fields=["repeats", "last_at"])
            return existing
        return _append(at=now, actor=who, action=action, **place, reason=reason, hour=hour, last_at=now,
                       detail=_as_json({**(detail or {}), **({"gathered": "person, kind, hour"} if per_kind else {})}))


@dataclass
class ChainReport:
    """What ``verify_chain`` found: how many entries it checked and each break, in words."""

    checked: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # the site's database role could get past the triggers
    head_seq: int | None = None
    head_chain: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def _describe(entry: dict[str, Any]) -> str:
    return f"seq {entry['seq']} (id {entry['id']}, {entry['action']} {entry['target_type']}#{entry['target_id']})"


def _check_triggers(report: ChainReport) -> None:
    states = append_only.trigger_states(connection)
    missing = sorted(set(append_only.expected(connection)) - set(states))
    if missing:
        report.problems.append(f"데이터베이스 트리거 없음: {', '.join(missing)} (고치기·지우기가 막히지 않음)")
    disabled = sorted(name for name, enabled in states.items() if not enabled)
    if disabled:
        report.problems.append(f"데이터베이스 트리거가 꺼져 있음 (tgenabled = 'D'): {', '.join(disabled)} "
                               "(ALTER TABLE … DISABLE TRIGGER: 고치기·지우기가 막히지 않음)")
    report.warnings.extend(append_only.role_problems(connection))


def verify_chain() -> ChainReport:
    """Recompute every entry's HMAC in chain order; name each entry that breaks it, and why.

    Then check the checkpoints: each check is sealed and chained to the one
    before, so the last good check's head (seq and chain value) is an anchor an
    editor of the database cannot move; the newest check is also kept outside
    the database (``AUDIT_CHECKPOINT_FILE``) so deleting the newest checks shows.
    """
    report = ChainReport()
    _check_triggers(report)
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
    sound = _verify_checkpoints(report)
    anchors = [c for c in sound if c["kind"] == IntegrityCheck.Kind.AUDIT and c["ok"] and c["head_seq"] is not None]
    if anchors:
        last = max(anchors, key=lambda c: c["seq"])
        anchor = AuditEntry.objects.filter(seq=last["head_seq"]).values_list("chain", flat=True).first()
        if anchor != last["head_chain"]:
            report.problems.append(f"지난 점검({last['checked_at']:%Y-%m-%d %H:%M})의 마지막 기록 seq {last['head_seq']}가 "
                                   "없거나 바뀜 (끝부분이 지워짐)")
    return report


CHECK_FIELDS = ("seq", "kind", "checked_at", "ok", "checked", "problems", "head_seq", "head_chain", "key_id")


def checkpoint_seal(values: dict[str, Any], previous: str, key: keys.SealKey) -> str:
    """The HMAC of one integrity check and the seal of the check before it."""
    return key.mac(canonical({"previous": previous, **{name: values[name] for name in CHECK_FIELDS}}))


def _verify_checkpoints(report: ChainReport) -> list[dict[str, Any]]:
    """Check the seal and order of every kept check; return those that verify (the usable anchors)."""
    sound: list[dict[str, Any]] = []
    for check in IntegrityCheck.objects.filter(seq__isnull=True).values("id", "kind"):
        report.problems.append(f"점검 기록 id {check['id']} ({check['kind']}): 봉인 자리(seq)가 없음 — "
                               "사이트 밖에서 넣은 점검")
    previous_seq, previous_seal = 0, ""
    for check in IntegrityCheck.objects.filter(seq__isnull=False).order_by("seq").values("id", "seal", *CHECK_FIELDS):
        where = f"점검 기록 seq {check['seq']} (id {check['id']}, {check['kind']})"
        if check["seq"] != previous_seq + 1:
            report.problems.append(f"{where}: 앞 점검 seq {previous_seq + 1}–{check['seq'] - 1}이 없음 (지워짐)")
        key = keys.key_for(check["key_id"])
        if key is None:
            report.problems.append(f"{where}: 봉인 키 {check['key_id'] or '(없음)'}가 설정에 없어 확인할 수 없음")
        elif not hmac.compare_digest(checkpoint_seal(check, previous_seal, key), check["seal"]):
            report.problems.append(f"{where}: 봉인이 맞지 않음 — 점검 기록을 사이트 밖에서 넣었거나 고침 (기준점이 옮겨짐)")
        else:
            sound.append(check)
        previous_seq, previous_seal = check["seq"], check["seal"]
    outside = _read_checkpoint_file()
    if outside is not None:
        kept = IntegrityCheck.objects.filter(seq=outside.get("seq")).values_list("seal", flat=True).first()
        if kept is None or kept != outside.get("seal"):
            report.problems.append(f"데이터베이스 밖에 둔 마지막 점검(seq {outside.get('seq')})이 데이터베이스에 없거나 "
                                   "다름 — 최근 점검 기록이 지워지거나 바뀜")
    return sound


def _read_checkpoint_file() -> dict[str, Any] | None:
    path = getattr(settings, "AUDIT_CHECKPOINT_FILE", None)
    if not path:
        return None
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"seq": None, "seal": "(읽을 수 없음)"}
    return value if isinstance(value, dict) else {"seq": None, "seal": "(읽을 수 없음)"}


def _write_checkpoint_file(seq: int, seal: str) -> None:
    """Keep the newest check's position and seal where the database is not (beside the seal keys)."""
    setting = getattr(settings, "AUDIT_CHECKPOINT_FILE", None)
    if not setting:
        return
    path = Path(setting)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{seq}")
        temporary.write_text(json.dumps({"seq": seq, "seal": seal}), encoding="utf-8")
        temporary.chmod(0o600)
        temporary.replace(path)
    except OSError:
        logger.exception("could not keep the audit checkpoint in %s", path)


def save_check(*, kind: str, checked: int, problems: list[str], head_seq: int | None = None,
               head_chain: str = "") -> IntegrityCheck:
    """Keep the outcome of a verification, sealed and chained to the check before it."""
    key = keys.current_key()
    with transaction.atomic():
        _lock_chain()
        last = IntegrityCheck.objects.filter(seq__isnull=False).order_by("seq").values("seq", "seal").last()
        seq: int = (last["seq"] or 0) + 1 if last else 1
        check = IntegrityCheck(kind=kind, ok=not problems, checked=checked, problems=_as_json(problems),
                               head_seq=head_seq, head_chain=head_chain, checked_at=timezone.now(),
                               seq=seq, key_id=key.key_id)
        check.seal = seal = checkpoint_seal({name: getattr(check, name) for name in CHECK_FIELDS},
                                            last["seal"] if last else "", key)
        check.save()
        transaction.on_commit(lambda: _write_checkpoint_file(seq, seal))
    return check


# The action a refusal is kept under, by the HTTP status the person met.
REFUSAL_ACTIONS = {403: "access.forbidden", 404: "access.deny", 409: "access.conflict", 429: "access.throttled"}


def refused_request(request: Any, *, status: int, target: models.Model | Target | None = None, reason: str = "",
                    action: str | None = None) -> None:
    """Audit a refusal a signed-in person met (pages and API), gathered per person, kind and hour.

    The target is what was refused, or else the URL route (not the path: it may
    name another person, and probing ids must not make one entry per id).
    Visitors are not kept. A database failure here never turns the refusal into a 500.
    """
    user = getattr(request, "auth", None) or getattr(request, "user", None)
    if user is None or not getattr(user, "is_authenticated", False):
        return
    if target is None:
        match = getattr(request, "resolver_match", None)
        route = match.route if match is not None else ""
        # An address no route matches is one kind, whatever was typed: probing paths adds no entries.
        target = Target("route", route[:64], route[:200]) if route else Target("route", "(none)", "없는 주소")
    try:
        refusal(actor=user, action=action or REFUSAL_ACTIONS.get(status, f"access.refused_{status}"),
                target=target, reason=reason, detail={"method": request.method, "status": status}, per_kind=True)
    except DatabaseError:  # the person still gets their answer; the failure reaches the server log
        logger.exception("could not audit a refusal (%s) of %s", status, request.path)


def refused_access(request: Any, exc: Any) -> None:
    """Audit a ``TutorError`` refusal (404 with its refused object, 403, 409, 429) met by a signed-in person."""
    if exc.status not in REFUSAL_ACTIONS:
        return
    target = getattr(exc, "target", None)
    refused_request(request, status=exc.status, target=target,
                    reason=getattr(exc, "reason", "") or exc.detail)


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
