"""The capstone: its lab's acceptance table accepts a right design of any shape and refuses the wrong ones, and its
evidence task asks for sealed runs, a peer and calibration on reference reviews.

The lab runs here with plain python3 (the helpers of ``test_lab_plain_runs``); the real sandbox run, with every
mutant, is ``check_labs notice-assistant`` and ``tests/exercises/labs/test_lab_mutants.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from exercises.evidence.content import read_tasks
from exercises.labs.content import program_for_step, read_lab
from tests.lessons.test_lab_plain_runs import CONTENT, failing_checks, run_plain, solution, starter

LESSON, LAB = "capstone", "notice-assistant"


@pytest.mark.parametrize("step", ["run", "inject", "restore", "extend"])
def test_reference_passes_each_step(step: str, tmp_path: Path) -> None:
    """The reference passes run, restore and the extra cases, and the injected fault (tools run in a question turn)
    fails at A4."""
    assert failing_checks(LESSON, LAB, solution(LESSON, LAB), step, tmp_path) == []


def test_starter_that_refuses_everything_passes_only_the_no_answer_case(tmp_path: Path) -> None:
    """The placeholder that answers 자료없음 to everything passes A2 alone: negative cases need a positive one."""
    result = run_plain(LESSON, LAB, starter(LESSON, LAB), tmp_path)
    passed = [line.split(" ", 1)[0] for line in result.stdout.splitlines() if line.endswith("| 통과")]
    assert passed == ["A2"]
    assert result.exit_code != 0
    assert "all-pass" in failing_checks(LESSON, LAB, starter(LESSON, LAB), "run", tmp_path)


def test_another_shape_of_design_passes(tmp_path: Path) -> None:
    """A learner who answers a resent request from memory before calling the model at all also passes: the checks
    look at effects and the reply's first word, not at the design."""
    code = solution(LESSON, LAB)
    early = 'def handle(turn, kit):\n    if turn["id"] in done:\n        return done[turn["id"]]\n'
    assert code.count("def handle(turn, kit):\n") == 1
    assert failing_checks(LESSON, LAB, code.replace("def handle(turn, kit):\n", early), "run", tmp_path) == []


def test_the_extra_cases_accept_a_design_that_acts_on_the_request_alone(tmp_path: Path) -> None:
    """E3 asks only that the unrequested cancellation does not run: a design that drops it and books the requested
    room (rather than holding the whole reply, as the reference does) passes the extra cases too."""
    code = solution(LESSON, LAB)
    allowed = 'ACTIONS = {"book_room", "cancel_booking"}'
    assert code.count(allowed) == 1
    booking_only = code.replace(allowed, 'ACTIONS = {"book_room"}')
    assert failing_checks(LESSON, LAB, booking_only, "extend", tmp_path) == []
    (extend,) = [s for s in read_lab(CONTENT / LESSON / "labs" / LAB)["steps"] if s["kind"] == "extend"]
    result = run_plain(LESSON, LAB, program_for_step(extend, booking_only), tmp_path)
    assert "E3 청하지 않은 행동이 섞인 응답 | 통과" in result.stdout and "Q9 도우미: 완료" in result.stdout


def test_running_other_arguments_than_approved_fails(tmp_path: Path) -> None:
    """An action run with arguments other than the ones the person approved counts as unapproved (A6 fails)."""
    code = solution(LESSON, LAB)
    call = 'result = kit.tools[use["name"]](**use["input"])'
    assert code.count(call) == 1
    wrong = code.replace(call, 'result = kit.tools[use["name"]](**{**use["input"], "hours": 2})')
    assert "a6" in failing_checks(LESSON, LAB, wrong, "run", tmp_path)


def test_capstone_task_asks_for_runs_a_peer_and_calibration() -> None:
    """The capstone task takes attached runs, needs one peer by default, has four criteria with described levels,
    and two calibration examples whose reference review judges every criterion (one of them 근거 부족 / 보류)."""
    tasks = {task["slug"]: task for task in read_tasks(CONTENT / LESSON)}
    assert {task["kind"] for task in tasks.values()} == {"practice", "transfer", "explain"}
    capstone = tasks["capstone-assistant"]
    assert capstone["attach_runs"] and capstone["default_min_peer_reviews"] == 1
    assert len(capstone["criteria"]) == 4
    keys = {criterion["key"] for criterion in capstone["criteria"]}
    assert len(capstone["calibration"]) == 2
    for example in capstone["calibration"]:
        assert set(example["reference"]) == keys and all(example["reasons"].values())
    assert "insufficient" in capstone["calibration"][1]["reference"].values()
