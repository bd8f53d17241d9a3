"""Lab check kinds are declared once (``checking.CHECK_KINDS``): evaluation and the validation of a lab's
values when the course loads come from the same entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings

from exercises.labs.checking import CHECK_KINDS, evaluate
from exercises.labs.content import read_lab
from exercises.labs.sandbox import RunResult
from lessons.content import ContentError


def result(stdout: str = "", stderr: str = "", exit_code: int | None = 0) -> RunResult:
    return RunResult(status="ok", exit_code=exit_code, signal=None, stdout=stdout, stderr=stderr, wall_ms=1.0, truncated=False,
                     cpu_ms=1.0)


def test_every_kind_the_course_uses_is_declared_and_every_declared_kind_evaluates() -> None:
    """The kinds in the table evaluate a run; each lab check of the course names one of them."""
    assert list(CHECK_KINDS) == ["stdout_contains", "stdout_not_contains", "stdout_matches", "last_line_starts_with",
                                 "exit_status", "exception", "custom"]
    used = {check["kind"] for folder in Path(settings.CONTENT_DIR).glob("*/labs/*")
            for check in read_lab(folder)["checks"]}
    assert used <= set(CHECK_KINDS) and {"stdout_matches", "last_line_starts_with"} <= used


def test_last_line_starts_with_wants_the_pass_line_to_end_the_output() -> None:
    """"출력 마지막 줄에 … 이 보이면": the last printed line (blank lines aside) begins with the value; the same line
    followed by a later line, or no output, fails and says what the last line was."""
    check = {"kind": "last_line_starts_with", "value": "검사 통과: 제안으로 접수됨"}
    assert evaluate(check, result("1단계 통과\n검사 통과: 제안으로 접수됨 (RF-1, 1원)\n\n")) == (True, "")
    assert evaluate(check, result("검사 통과: 제안으로 접수됨\n그런데 한 줄 더\n")) == (False, "마지막 줄: 그런데 한 줄 더")
    assert evaluate(check, result(""))[0] is False


def test_stdout_matches_looks_for_a_line_matching_the_pattern() -> None:
    """A line must match (per line, so ^ and $ are the line's ends); a longer figure does not match an anchored one."""
    check = {"kind": "stdout_matches", "value": r"^실행 기록: 예약 1건, 취소 0건, 승인 요청 \d+건$"}
    assert evaluate(check, result("A1 | 통과\n실행 기록: 예약 1건, 취소 0건, 승인 요청 3건\n")) == (True, "")
    assert evaluate(check, result("실행 기록: 예약 1건, 취소 0건, 승인 요청 3건 (추가)\n"))[0] is False
    assert evaluate(check, result("실행 기록: 예약 11건, 취소 0건, 승인 요청 3건\n"))[0] is False


@pytest.mark.parametrize(("kind", "value", "message"), [
    ("stdout_maches", "x", "검사 종류 'stdout_maches'를 모릅니다"),
    ("stdout_matches", "(unclosed", "정규식 '\\(unclosed'를 읽을 수 없습니다"),
    ("exit_status", "zero", "종료 코드 'zero'는 정수가 아닙니다"),
    ("custom", "no_such_function", "custom 검사 'no_such_function'는"),
])
def test_a_bad_kind_or_value_fails_reading_the_lab(tmp_path: Path, kind: str, value: str, message: str) -> None:
    """A misspelt kind, a pattern that does not compile, a non-integer exit status or an unknown custom function
    fails ``read_lab`` with the file's name, before any learner runs the lab."""
    source = Path(settings.CONTENT_DIR) / "tool-retries" / "labs" / "replay-retry"
    lab = tmp_path / "replay-retry"
    shutil.copytree(source, lab)
    spec = (lab / "lab.yaml").read_text("utf-8")
    old = "  - id: exits-zero\n    kind: exit_status\n    value: 0\n"
    assert old in spec
    (lab / "lab.yaml").write_text(spec.replace(old, f"  - id: exits-zero\n    kind: {kind}\n    value: '{value}'\n"),
                                  "utf-8")
    with pytest.raises(ContentError, match=message):
        read_lab(lab)
