"""The digest that makes a run record checkable: recompute it and compare."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .models import LabRun

RECORD_FIELDS = (
    "code_digest", "lab_version", "step", "fixture_versions", "limits", "interpreter", "status",
    "exit_code", "signal", "stdout", "stderr", "truncated", "wall_ms", "cpu_ms", "check_results",
)


def record_payload(run: LabRun) -> dict[str, Any]:
    payload = {name: getattr(run, name) for name in RECORD_FIELDS}
    payload.update(run=run.pk, lab=run.lab.slug, user=run.user_id,
                   finished_at=run.finished_at.isoformat() if run.finished_at else None)
    return payload


def record_digest(run: LabRun) -> str:
    blob = json.dumps(record_payload(run), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def digest_verifies(run: LabRun) -> bool:
    """Say whether the stored record still matches its digest (nobody changed it since)."""
    return bool(run.record_digest) and run.record_digest == record_digest(run)
