"""System checks for the grounding app's configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register()
def suggest_allowance_is_positive(app_configs: Any, **kwargs: Any) -> list[Error]:
    """GROUNDING_SUGGEST_PER_MINUTE, when set, is a positive whole number (the suggest rate limit)."""
    value = getattr(settings, "GROUNDING_SUGGEST_PER_MINUTE", None)
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
        return []
    return [Error("GROUNDING_SUGGEST_PER_MINUTE must be a positive integer.", id="grounding.E001",
                  hint="근거 후보 API의 사용자별 1분 허용 횟수입니다 (기본 60).")]
