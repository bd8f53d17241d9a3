"""Every lab's reference solution passes its steps' checks in the real sandbox; every starter needs work."""

from __future__ import annotations

import pytest
from django.conf import settings

from exercises.labs import conf
from exercises.labs.checking import run_checks
from exercises.labs.content import read_lab
from exercises.labs.models import Lab
from exercises.labs.sandbox import run_python
from exercises.labs.verification import sandbox_files, verify_lab

LAB_DIRS = sorted(settings.CONTENT_DIR.glob("*/labs/*/lab.yaml"))


@pytest.mark.parametrize("lab_yaml", LAB_DIRS, ids=lambda p: p.parent.name)
def test_reference_solution_passes_every_step(lab_yaml) -> None:
    """The solution passes every checked step, injected failures included (what ``check_labs`` reports)."""
    verdict = verify_lab(lab_yaml.parent)
    assert {step.kind for step in verdict.steps} >= {Lab.StepKind.RUN, Lab.StepKind.INJECT}
    assert all(step.passed for step in verdict.steps) and not verdict.problems, verdict.line()


@pytest.mark.parametrize("lab_yaml", LAB_DIRS, ids=lambda p: p.parent.name)
def test_starter_code_does_not_already_pass(lab_yaml) -> None:
    spec = read_lab(lab_yaml.parent)
    checks = {check["id"]: check for check in spec["checks"]}
    run_step = next(step for step in spec["steps"] if step["kind"] == "run")
    result = run_python(spec["starter_code"], files=sandbox_files(spec, lab_yaml.parent), limits=conf.limits(),
                        config=conf.sandbox_config())
    outcome = run_checks([checks[c] for c in run_step["checks"]], result)
    assert not all(item["passed"] for item in outcome)


def test_the_course_has_the_three_labs() -> None:
    assert {p.parent.name for p in LAB_DIRS} >= {"approval-gate", "mcp-stdio", "replay-retry"}
