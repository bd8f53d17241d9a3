"""Every lab's reference solution passes its steps' checks in the real sandbox; every starter needs work."""

from __future__ import annotations

import pytest
from django.conf import settings

from exercises.labs import conf
from exercises.labs.checking import run_checks
from exercises.labs.content import read_lab
from exercises.labs.models import Lab
from exercises.labs.sandbox import run_python

LAB_DIRS = sorted(settings.CONTENT_DIR.glob("*/labs/*/lab.yaml"))


def sandbox_files(spec: dict, folder) -> dict[str, bytes]:
    files = {name: text.encode() for name, text in spec["files"].items()}
    lesson_fixtures = folder.parent.parent / "fixtures"
    for slug in spec["fixture_slugs"]:
        files[f"{slug}.txt"] = (lesson_fixtures / f"{slug}.txt").read_bytes()
    return files


@pytest.mark.parametrize("lab_yaml", LAB_DIRS, ids=lambda p: p.parent.name)
def test_reference_solution_passes_every_step(lab_yaml) -> None:
    spec = read_lab(lab_yaml.parent)
    checks = {check["id"]: check for check in spec["checks"]}
    runnable = [step for step in spec["steps"] if step["checks"]]
    assert {step["kind"] for step in runnable} >= {Lab.StepKind.RUN, Lab.StepKind.INJECT}
    for step in runnable:
        code = spec["solution_code"]
        if step["inject"]:
            assert code.count(step["inject"]["find"]) == 1, "the injected change must be unambiguous"
            code = code.replace(step["inject"]["find"], step["inject"]["replace"])
        result = run_python(code, files=sandbox_files(spec, lab_yaml.parent), limits=conf.limits(), config=conf.sandbox_config())
        outcome = run_checks([checks[c] for c in step["checks"]], result)
        assert all(item["passed"] for item in outcome), (step["kind"], outcome, result.stdout[-300:], result.stderr[-500:])


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
