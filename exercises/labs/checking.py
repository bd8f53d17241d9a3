"""Lab checks, evaluated on the host over a finished run's result, never inside the sandbox."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from . import custom_checks
from .sandbox import RunResult


@dataclass(frozen=True)
class CheckKind:
    """One kind of lab check: how a finished run is evaluated, and what makes a ``value`` unusable (a message)."""

    name: str
    evaluate: Callable[[str | int, RunResult], tuple[bool, str]]
    validate: Callable[[str | int], str]


_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def raised_exception(stderr: str) -> str | None:
    """Name the exception of the last traceback in ``stderr``, if the output ends in one."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    if not lines or not any(line.startswith("Traceback") for line in lines):
        return None
    match = _EXCEPTION_LINE.match(lines[-1])
    return match.group(1).rsplit(".", 1)[-1] if match else None


def _stdout_contains(value: str | int, result: RunResult) -> tuple[bool, str]:
    return str(value) in result.stdout, ""


def _stdout_not_contains(value: str | int, result: RunResult) -> tuple[bool, str]:
    return str(value) not in result.stdout, ""


def _last_line_starts_with(value: str | int, result: RunResult) -> tuple[bool, str]:
    """The last line the program printed (blank lines aside) begins with ``value``: a lab that says "출력 마지막
    줄에 … 이 보이면" means the pass line ends the run, not that it appears somewhere before a later line."""
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if last.startswith(str(value).strip()):
        return True, ""
    return False, _("마지막 줄: %(line)s") % {"line": last[:80] or _("(출력 없음)")}


def _stdout_matches(value: str | int, result: RunResult) -> tuple[bool, str]:
    """A line of the output matches the regular expression (``re.search`` per line): for output whose exact
    figures the learner's design may vary but whose shape the lab fixes."""
    pattern = re.compile(str(value))
    return any(pattern.search(line) for line in result.stdout.splitlines()), ""


def _exit_status(value: str | int, result: RunResult) -> tuple[bool, str]:
    if result.exit_code is None:
        return False, _("종료 코드 없음: 프로그램이 끝나기 전에 멈췄습니다")
    return result.exit_code == int(str(value)), _("종료 코드 %(code)s") % {"code": result.exit_code}


def _exception(value: str | int, result: RunResult) -> tuple[bool, str]:
    raised = raised_exception(result.stderr)
    return raised == value, _("발생한 예외: %(name)s") % {"name": raised or _("없음")}


def _custom(value: str | int, result: RunResult) -> tuple[bool, str]:
    check: Callable[[RunResult], tuple[bool, str]] = getattr(custom_checks, str(value))
    return check(result)


#: The kinds a lab's check may have, each with how it is evaluated and how its ``value`` is checked when the
#: lab is read (``content_schema.LabCheck``), so a bad value fails ``load_course``, never a learner's run.
#: Adding a kind is one entry here (and a lab that uses it).
CHECK_KINDS: dict[str, CheckKind] = {}


def _kind(name: str, evaluate: Callable[[str | int, RunResult], tuple[bool, str]],
          validate: Callable[[str | int], str] | None = None) -> None:
    CHECK_KINDS[name] = CheckKind(name, evaluate, validate or (lambda value: ""))


def _valid_pattern(value: str | int) -> str:
    try:
        re.compile(str(value))
    except re.error as exc:
        return f"정규식 '{value}'를 읽을 수 없습니다: {exc}"
    return ""


def _valid_custom(value: str | int) -> str:
    names = {name for name, fn in vars(custom_checks).items()
             if callable(fn) and not name.startswith("_") and getattr(fn, "__module__", "") == custom_checks.__name__}
    return "" if str(value) in names else f"custom 검사 '{value}'는 exercises/labs/custom_checks.py에 없습니다"


def _valid_int(value: str | int) -> str:
    return "" if str(value).lstrip("-").isdigit() else f"종료 코드 '{value}'는 정수가 아닙니다"


_kind("stdout_contains", _stdout_contains)
_kind("stdout_not_contains", _stdout_not_contains)
_kind("stdout_matches", _stdout_matches, _valid_pattern)
_kind("last_line_starts_with", _last_line_starts_with)
_kind("exit_status", _exit_status, _valid_int)
_kind("exception", _exception)
_kind("custom", _custom, _valid_custom)


def evaluate(check: dict[str, Any], result: RunResult) -> tuple[bool, str]:
    if result.status == "refused":
        return False, _("실행이 거부되어 확인하지 못했습니다.")
    kind = CHECK_KINDS.get(check["kind"])
    if kind is None:
        raise ValueError(f"unknown check kind {check['kind']!r}")
    return kind.evaluate(check.get("value", ""), result)


def run_checks(checks: list[dict[str, Any]], result: RunResult) -> list[dict[str, Any]]:
    return [
        {"id": check["id"], "label": check["label"], "passed": passed, "detail": detail}
        for check in checks
        for passed, detail in [evaluate(check, result)]
    ]
