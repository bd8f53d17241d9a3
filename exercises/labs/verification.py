"""Run a lab's reference solution, and each failure it injects, through the real sandbox.

``check_labs`` and the lab content tests both call ``verify_lab``, so what the
command reports and what CI asserts are the same thing. Each step that names
checks is run with the solution (with the step's ``inject`` change applied for
an ``inject`` step, and the step's extra ``cases`` appended for an ``extend``
step, see ``content.program_for_step``) and must pass all of them; the starter code must *not*
already pass the ``run`` step, or the lab teaches nothing.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import conf
from .checking import run_checks
from .content import program_for_step, read_lab
from .sandbox import RunResult, run_python


@dataclass
class StepVerdict:
    """One step run: which checks failed (by id), and the run's status for the report."""

    kind: str
    status: str
    failed: list[str] = field(default_factory=list)
    problem: str = ""

    @property
    def passed(self) -> bool:
        return not self.failed and not self.problem


@dataclass
class LabVerdict:
    lesson: str
    slug: str
    steps: list[StepVerdict]
    starter_already_passes: bool
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(step.passed for step in self.steps) and not self.starter_already_passes and not self.problems

    def line(self) -> str:
        """One line for the command: the verdict, the lab, and each step that ran."""
        mark = "통과" if self.passed else "실패"
        steps = " ".join(
            f"{step.kind}{'✓' if step.passed else '✗'}" + (f"({','.join(step.failed) or step.problem})"
                                                          if not step.passed else "")
            for step in self.steps
        )
        extra = [*self.problems]
        if self.starter_already_passes:
            extra.append("시작 코드가 이미 통과함")
        return f"{mark}  {self.lesson}/{self.slug}  {steps}" + (f"  — {'; '.join(extra)}" if extra else "")


def sandbox_files(spec: dict[str, Any], folder: Path) -> dict[str, bytes]:
    """The read-only files a run sees: the lab's own files and its lesson's fixtures as ``<slug>.txt``."""
    files = {name: text.encode() for name, text in spec["files"].items()}
    lesson_fixtures = folder.parent.parent / "fixtures"
    for slug in spec["fixture_slugs"]:
        files[f"{slug}.txt"] = (lesson_fixtures / f"{slug}.txt").read_bytes()
    return files


def _run(code: str, files: dict[str, bytes]) -> RunResult:
    return run_python(code, files=files, limits=conf.limits(), config=conf.sandbox_config())


def verify_lab(folder: Path) -> LabVerdict:
    """Run every checked step of the lab in ``folder`` and say, per step, what did not hold."""
    spec = read_lab(folder)
    checks = {check["id"]: check for check in spec["checks"]}
    files = sandbox_files(spec, folder)
    verdict = LabVerdict(lesson=folder.parent.parent.name, slug=folder.name, steps=[], starter_already_passes=False)
    kinds = {step["kind"] for step in spec["steps"] if step["checks"]}
    for needed in ("run", "inject", "restore"):
        if needed not in kinds:
            verdict.problems.append(f"검사가 있는 {needed} 단계가 없음")
    for step in spec["steps"]:
        if not step["checks"]:
            continue
        code = spec["solution_code"]
        if step["inject"]:
            find = step["inject"]["find"]
            if code.count(find) != 1:
                verdict.steps.append(StepVerdict(kind=step["kind"], status="-", problem="주입할 곳이 하나가 아님"))
                continue
            code = code.replace(find, step["inject"]["replace"])
        result = _run(program_for_step(step, code), files)
        outcome = run_checks([checks[c] for c in step["checks"]], result)
        verdict.steps.append(StepVerdict(
            kind=step["kind"], status=result.status, failed=[item["id"] for item in outcome if not item["passed"]],
        ))
    run_step = next((step for step in spec["steps"] if step["kind"] == "run" and step["checks"]), None)
    if run_step is not None:
        outcome = run_checks([checks[c] for c in run_step["checks"]], _run(spec["starter_code"], files))
        verdict.starter_already_passes = all(item["passed"] for item in outcome)
    return verdict


MUTANT_STEPS = ("run", "inject", "extend")
"""The steps a wrong solution is run through: the learner's own program, the injected fault, the extra cases."""

MUTANTS_DIR = "mutants"
"""Test-only wrong solutions of a lab: ``labs/<lab>/mutants/<name>.yaml``; never loaded, shown or digested.

Each names the rule it breaks and the change that breaks it, as ``find``/``replace``
pairs applied to the lab's current ``solution.py`` (each ``find`` exactly once), so
a mutant is always "the reference with one mistake" and follows the reference
when its other lines are reworded.
"""


@dataclass
class MutantVerdict:
    """One wrong solution: whether a checked ``run``, ``inject`` or ``extend`` step failed on it, and where."""

    name: str
    rule: str
    caught_at: list[str] = field(default_factory=list)
    problem: str = ""

    @property
    def caught(self) -> bool:
        return bool(self.caught_at) and not self.problem


def mutant_files(folder: Path) -> list[Path]:
    return sorted((folder / MUTANTS_DIR).glob("*.yaml"))


def mutant_code(path: Path, solution: str) -> tuple[str, str, str]:
    """(rule, code, problem): the solution with the mutant's changes applied, or a problem saying why not."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    rule = str(data.get("rule", "")).strip()
    changes = data.get("changes") or []
    if not rule or not changes:
        return rule, solution, "rule과 changes가 필요함"
    code = solution
    for change in changes:
        find, replace = str(change.get("find", "")), str(change.get("replace", ""))
        if not find or code.count(find) != 1:
            return rule, solution, f"바꿀 곳이 하나가 아님: {find[:40]!r}"
        code = code.replace(find, replace)
    if code == solution:
        return rule, solution, "바뀐 것이 없음"
    return rule, code, ""


def verify_mutant(folder: Path, path: Path, spec: dict[str, Any] | None = None) -> MutantVerdict:
    """Run a wrong solution through the lab's checked ``run``, ``inject`` and ``extend`` steps, as a learner's code would be.

    The mutant is caught when any of those steps does not pass all its checks. An
    ``inject`` step whose ``find`` text is not in the mutant exactly once is skipped
    (the button could not apply it), so a mutant is never caught merely for
    lacking the injected line. A mutant whose changes no longer apply is reported,
    never counted as caught.
    """
    spec = spec or read_lab(folder)
    checks = {check["id"]: check for check in spec["checks"]}
    files = sandbox_files(spec, folder)
    rule, code, problem = mutant_code(path, spec["solution_code"])
    verdict = MutantVerdict(name=path.stem, rule=rule, problem=problem)
    if problem:
        return verdict
    for step in spec["steps"]:
        if not step["checks"] or step["kind"] not in MUTANT_STEPS:
            continue
        run_code = code
        if step["inject"]:
            find = step["inject"]["find"]
            if code.count(find) != 1:
                continue
            run_code = code.replace(find, step["inject"]["replace"])
        outcome = run_checks([checks[c] for c in step["checks"]], _run(program_for_step(step, run_code), files))
        failed = [item["id"] for item in outcome if not item["passed"]]
        if failed:
            verdict.caught_at.append(f"{step['kind']}({','.join(failed)})")
    return verdict


def verify_mutants(folder: Path, *, workers: int = 1) -> list[MutantVerdict]:
    """Every mutant of the lab in ``folder``, run in up to ``workers`` threads (each run takes one sandbox slot)."""
    spec = read_lab(folder)
    paths = mutant_files(folder)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(lambda path: verify_mutant(folder, path, spec), paths))


def lab_folders(content_dir: Path) -> list[Path]:
    """Every lab folder of the course, in lesson then lab order of their folder names."""
    return sorted(path.parent for path in content_dir.glob("*/labs/*/lab.yaml"))
