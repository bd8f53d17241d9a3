"""Lab checks, evaluated on the host over a finished run's result, never inside the sandbox."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from . import custom_checks
from .sandbox import RunResult

CHECK_KINDS = {"stdout_contains", "stdout_not_contains", "exit_status", "exception", "custom"}
_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def raised_exception(stderr: str) -> str | None:
    """Name the exception of the last traceback in ``stderr``, if the output ends in one."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    if not lines or not any(line.startswith("Traceback") for line in lines):
        return None
    match = _EXCEPTION_LINE.match(lines[-1])
    return match.group(1).rsplit(".", 1)[-1] if match else None


def evaluate(check: dict[str, Any], result: RunResult) -> tuple[bool, str]:
    kind, value = check["kind"], check.get("value")
    if result.status == "refused":
        return False, _("실행이 거부되어 확인하지 못했습니다.")
    if kind == "stdout_contains":
        return str(value) in result.stdout, ""
    if kind == "stdout_not_contains":
        return str(value) not in result.stdout, ""
    if kind == "exit_status":
        if result.exit_code is None:
            return False, _("종료 코드 없음: 프로그램이 끝나기 전에 멈췄습니다")
        return result.exit_code == int(str(value)), _("종료 코드 %(code)s") % {"code": result.exit_code}
    if kind == "exception":
        raised = raised_exception(result.stderr)
        return raised == value, _("발생한 예외: %(name)s") % {"name": raised or _("없음")}
    if kind == "custom":
        return getattr(custom_checks, str(value))(result)
    raise ValueError(f"unknown check kind {kind!r}")


def run_checks(checks: list[dict[str, Any]], result: RunResult) -> list[dict[str, Any]]:
    return [
        {"id": check["id"], "label": check["label"], "passed": passed, "detail": detail}
        for check in checks
        for passed, detail in [evaluate(check, result)]
    ]
