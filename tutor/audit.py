"""Write the audit trail: one function, called by every action that changes or refuses something."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import models

from .models import AuditEntry


def state_digest(state: Any) -> str:
    """Return a SHA-256 over a JSON form of ``state`` so before/after can be compared later."""
    if state is None:
        return ""
    blob = json.dumps(state, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def record(
    *,
    actor: User | AnonymousUser | None,
    action: str,
    target: models.Model,
    reason: str = "",
    before: Any = None,
    after: Any = None,
    detail: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry; call it inside the transaction of the change it describes."""
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        target_label=str(target)[:200],
        reason=reason,
        before_digest=state_digest(before),
        after_digest=state_digest(after),
        detail=detail or {},
    )
