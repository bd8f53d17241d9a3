"""Each lab's wrong solutions (``labs/<lab>/mutants/*.py``) fail its checks in the real sandbox; the reference passes.

The mutants go through ``verify_mutant``, the same path ``check_labs`` takes:
the lab's checked ``run``, ``inject`` and ``extend`` steps, evaluated by the lab's own checks.
Runs go through a small thread pool (each run takes one sandbox slot).
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from exercises.labs import conf
from exercises.labs.content import read_lab
from exercises.labs.sandbox.runner import sandbox_problem
from exercises.labs.verification import (
    MutantVerdict,
    lab_folders,
    mutant_code,
    mutant_files,
    verify_lab,
    verify_mutant,
)

WORKERS = 2
LABS_WITH_MUTANTS = lab_folders(settings.CONTENT_DIR)  # every lab has its mutants


@pytest.fixture(scope="module")
def verdicts() -> dict[Path, tuple[bool, list[MutantVerdict]]]:
    problem = sandbox_problem(conf.sandbox_config())
    if problem:
        pytest.fail(f"the real sandbox is needed: {problem}")
    jobs = [(folder, path) for folder in LABS_WITH_MUTANTS for path in mutant_files(folder)]
    specs = {folder: read_lab(folder) for folder in LABS_WITH_MUTANTS}
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        references = dict(zip(LABS_WITH_MUTANTS, pool.map(lambda f: verify_lab(f).passed, LABS_WITH_MUTANTS), strict=True))
        mutants = list(pool.map(lambda job: (job[0], verify_mutant(job[0], job[1], specs[job[0]])), jobs))
    return {folder: (references[folder], [m for f, m in mutants if f == folder]) for folder in LABS_WITH_MUTANTS}


def test_each_mutant_names_the_rule_it_breaks_and_applies_to_the_reference() -> None:
    """Every mutant names the rule it breaks, and each of its changes is found exactly once in the current reference."""
    assert LABS_WITH_MUTANTS
    for folder in LABS_WITH_MUTANTS:
        assert len(mutant_files(folder)) >= 3, folder.name
        solution = read_lab(folder)["solution_code"]
        for path in mutant_files(folder):
            rule, code, problem = mutant_code(path, solution)
            assert not problem and len(rule) > 10 and code != solution, (path, problem)


def test_references_pass_and_mutants_fail(verdicts: dict[Path, tuple[bool, list[MutantVerdict]]]) -> None:
    """The reference of every lab passes; at least 90 % of all mutants fail, and each lab catches two or more."""
    report = []
    total = caught = 0
    for folder, (reference_passed, mutants) in verdicts.items():
        assert reference_passed, f"{folder.name}: the reference solution fails its own checks"
        lab_caught = sum(m.caught for m in mutants)
        total += len(mutants)
        caught += lab_caught
        report.append(f"{folder.name} {lab_caught}/{len(mutants)} missed={[m.name for m in mutants if not m.caught]}")
        assert lab_caught >= 2, report[-1]
    assert caught >= 0.9 * total, "\n".join(report)


def test_mutant_folders_are_not_part_of_the_lab_a_learner_sees() -> None:
    """read_lab neither lists nor digests mutants: adding one leaves the lab's files and lesson version unchanged."""
    from lessons.content import folder_digest

    folder = LABS_WITH_MUTANTS[0]
    spec = read_lab(folder)
    assert all("mutants" not in name for name in spec["files"])
    before = folder_digest(folder.parent.parent)
    extra = folder / "mutants" / "zz-extra-for-test.yaml"
    extra.write_text("rule: test\n", encoding="utf-8")
    try:
        assert folder_digest(folder.parent.parent) == before
    finally:
        extra.unlink()


def _copy_lesson(tmp_path: Path, lesson: str) -> Path:
    shutil.copytree(settings.CONTENT_DIR / lesson, tmp_path / "content" / lesson)
    return tmp_path / "content"


def _check_labs(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("check_labs", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def test_check_labs_fails_a_lab_whose_checks_miss_its_mutants(tmp_path: Path) -> None:
    """When one mutant changes nothing that matters and another no longer applies, the lab's line fails and names both."""
    content = _copy_lesson(tmp_path, "keyword-retrieval")
    lab = content / "keyword-retrieval" / "labs" / "keyword-baseline"
    for path in sorted((lab / "mutants").glob("*.yaml"))[1:]:
        path.unlink()
    (lab / "mutants" / "same-a.yaml").write_text(
        "rule: 주석만 바꾼다\nchanges:\n  - find: '# 아직 시행 전'\n    replace: '# 시행 전'\n", encoding="utf-8")
    (lab / "mutants" / "same-b.yaml").write_text(
        "rule: 없는 줄을 바꾼다\nchanges:\n  - find: 'no such line'\n    replace: 'x'\n", encoding="utf-8")
    output, error = _check_labs("--content-dir", str(content))
    line = output.splitlines()[0]
    assert error is not None
    assert line.startswith("실패  keyword-retrieval/keyword-baseline") and "mutants caught: 1/3" in line, line
    assert "same-a" in line and "same-b[바꿀 곳이 하나가 아님" in line


def test_check_labs_reports_caught_mutants_and_wants_three(tmp_path: Path) -> None:
    """A lab catching all its mutants passes with 'mutants caught: n/n'; a lab with fewer than three fails."""
    content = _copy_lesson(tmp_path, "keyword-retrieval")
    output, error = _check_labs("--content-dir", str(content))
    n = len(mutant_files(content / "keyword-retrieval" / "labs" / "keyword-baseline"))
    assert error is None and f"mutants caught: {n}/{n}" in output.splitlines()[0], output
    shutil.rmtree(content / "keyword-retrieval" / "labs" / "keyword-baseline" / "mutants")
    output, error = _check_labs("--content-dir", str(content))
    assert error is not None and output.startswith("실패") and "mutants caught: 0/0" in output, output
