"""System checks for the grounding app's configuration."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.checks import Error, register

if TYPE_CHECKING:
    from .feedback import Check


@register()
def suggest_allowance_is_positive(app_configs: Any, **kwargs: Any) -> list[Error]:
    """GROUNDING_SUGGEST_PER_MINUTE, when set, is a positive whole number (the suggest rate limit)."""
    value = getattr(settings, "GROUNDING_SUGGEST_PER_MINUTE", None)
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
        return []
    return [Error("GROUNDING_SUGGEST_PER_MINUTE must be a positive integer.", id="grounding.E001",
                  hint="근거 후보 API의 사용자별 1분 허용 횟수입니다 (기본 60).")]


NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@register()
def verdict_checks_are_well_formed(app_configs: Any, **kwargs: Any) -> list[Error]:
    """The verdict checks (``feedback.CHECKS``) are declared once each, so a misspelt or doubled entry stops the
    site at start-up rather than showing a learner a verdict under the wrong name."""
    from .feedback import CHECKS

    return check_table(CHECKS)


def check_table(checks: Sequence[Check]) -> list[Error]:
    """What is wrong with a table of verdict checks: each name is unique and snake_case (the API's ``check`` and
    every stored feedback carry it), each has a label (the page shows it), and a soft check never ends the run
    (it only holds where no other check spoke, so it cannot be final)."""
    errors: list[Error] = []
    seen: set[str] = set()
    for check in checks:
        if not NAME.match(check.name):
            errors.append(Error(f"Verdict check name {check.name!r} is not snake_case.", id="grounding.E002",
                                hint="확인 이름은 영문 소문자와 밑줄로 씁니다 (예: incomplete_citation)."))
        if check.name in seen:
            errors.append(Error(f"Verdict check {check.name!r} is declared twice.", id="grounding.E003",
                                hint="feedback.CHECKS에서 같은 이름의 확인을 하나만 남기세요."))
        seen.add(check.name)
        if not str(check.label).strip():
            errors.append(Error(f"Verdict check {check.name!r} has no label.", id="grounding.E004",
                                hint="화면에 보일 확인 이름(label)을 적으세요."))
        if check.soft and check.final:
            errors.append(Error(f"Verdict check {check.name!r} is both soft and final.", id="grounding.E005",
                                hint="부드러운 확인은 다른 확인이 말하지 않을 때만 보류합니다: final일 수 없습니다."))
    return errors
