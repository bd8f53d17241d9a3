"""System checks of the evidence app's configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register()
def check_peer_lease(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """A lease that never ends, or ends at once, would strand or starve peer review."""
    hours = getattr(settings, "EVIDENCE_PEER_LEASE_HOURS", None)
    if not isinstance(hours, (int, float)) or not 0 < hours <= 24 * 14:
        return [checks.Error("EVIDENCE_PEER_LEASE_HOURS must be a number of hours above 0 and at most 336.",
                             id="evidence.E001")]
    return []
