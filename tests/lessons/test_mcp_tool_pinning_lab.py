"""The mcp-tool-pinning lab run with plain python3 (no sandbox): the lesson prints what the reference prints.

``check_labs`` runs the lab in the real sandbox; these tests only keep the
lesson's text honest and prove, quickly, that the data exercises each rule:
a learner who normalises descriptions or compares schemas by argument names
only is caught by the extra-cases step, not merely by the final assert.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.lessons.test_lab_plain_runs import CONTENT, failing_checks, run_plain, solution, starter

LESSON, LAB = "mcp-tool-pinning", "pin-check"
MUTANTS = CONTENT / LESSON / "labs" / LAB / "mutants"


def mutated(name: str) -> str:
    code = solution(LESSON, LAB)
    for change in yaml.safe_load((MUTANTS / f"{name}.yaml").read_text(encoding="utf-8"))["changes"]:
        assert code.count(change["find"]) == 1
        code = code.replace(change["find"], change["replace"])
    return code


def extra_cases_failures(code: str, tmp_path: Path) -> list[str]:
    """Failing check ids of the second run step ("추가 사례 세 개"), run as the learner's code."""
    from exercises.labs.checking import run_checks
    from exercises.labs.content import read_lab

    spec = read_lab(CONTENT / LESSON / "labs" / LAB)
    step = [s for s in spec["steps"] if s["kind"] == "run"][1]
    checks = [c for c in spec["checks"] if c["id"] in step["checks"]]
    return [r["id"] for r in run_checks(checks, run_plain(LESSON, LAB, code, tmp_path)) if not r["passed"]]


def test_expected_output_in_the_lesson_is_what_the_reference_prints(tmp_path: Path) -> None:
    """Part 5 of the lesson shows the reference's stdout line for line, and the reference exits 0."""
    text = (CONTENT / LESSON / "lesson.md").read_text(encoding="utf-8")
    part = text[text.index("{#expected-result}"):text.index("{#verify}")]
    block = re.search(r"```text\n(.*?)```", part, re.S)
    assert block is not None
    result = run_plain(LESSON, LAB, solution(LESSON, LAB), tmp_path)
    assert result.exit_code == 0
    assert result.stdout == block.group(1)


@pytest.mark.parametrize("step", ["run", "inject", "restore"])
def test_reference_passes_each_step(step: str, tmp_path: Path) -> None:
    """The reference passes the first run step, the injected fault's checks, and restore."""
    assert failing_checks(LESSON, LAB, solution(LESSON, LAB), step, tmp_path) == []


def test_starter_stops_before_any_listing(tmp_path: Path) -> None:
    """The starter leaves the three functions to write: it stops with NotImplementedError and prints no verdict."""
    result = run_plain(LESSON, LAB, starter(LESSON, LAB), tmp_path)
    assert result.exit_code != 0
    assert "NotImplementedError" in result.stderr
    assert "그대로" not in result.stdout


@pytest.mark.parametrize(("mutant", "missed"), [
    ("whitespace-normalised", "c-invisible"),
    ("whitespace-normalised", "c-trailing-newline"),
    ("schema-argument-names-only", "c-schema-inner"),
])
def test_extra_cases_catch_the_rule_they_were_written_for(mutant: str, missed: str, tmp_path: Path) -> None:
    """Normalising descriptions, or comparing schemas by argument names, fails that case's own line in the extra step."""
    assert extra_cases_failures(solution(LESSON, LAB), tmp_path) == []
    assert missed in extra_cases_failures(mutated(mutant), tmp_path)
