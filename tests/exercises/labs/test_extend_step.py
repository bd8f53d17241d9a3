"""The ``extend`` step: extra cases a lab appends to the learner's program, declared once and run everywhere alike."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.labs import execution, services
from exercises.labs.content import CASES_BANNER, program_for_step, read_lab
from exercises.labs.models import Lab, LabRun
from exercises.labs.sandbox import RunResult
from exercises.labs.verification import MUTANT_STEPS, lab_folders
from lessons.content import ContentError

CONTENT = Path(settings.CONTENT_DIR)


def test_only_an_extend_step_changes_the_program() -> None:
    """Steps without cases run the learner's code as written; an extend step runs it with its cases after it."""
    code = "def f(x):\n    return x + 1\n"
    assert program_for_step({"kind": "run", "cases": ""}, code) == code
    assert program_for_step(None, code) == code
    program = program_for_step({"kind": "extend", "cases": "assert f(1) == 2\nprint('ok')\n"}, code)
    assert program.startswith(code.rstrip()) and program.endswith("assert f(1) == 2\nprint('ok')\n")
    assert program.index(CASES_BANNER) > program.index("return x + 1")


def _lab_copy(tmp_path: Path) -> Path:
    folder = CONTENT / "tool-retries" / "labs" / "replay-retry"
    copy = tmp_path / "replay-retry"
    shutil.copytree(folder, copy)
    return copy


def test_extend_without_cases_is_refused_with_its_line(tmp_path: Path) -> None:
    """An extend step that supplies no cases fails reading the lab, naming the file (not a learner's run)."""
    lab = _lab_copy(tmp_path)
    path = lab / "lab.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace("\nchecks:\n", "\n  - kind: extend\n    title: 늘리기\n    checks: [exits-zero]\nchecks:\n", 1),
                    "utf-8")
    with pytest.raises(ContentError, match=r"lab.yaml.*extend 단계에는 cases"):
        read_lab(lab)


def test_cases_on_another_step_are_refused(tmp_path: Path) -> None:
    """Only an extend step may carry cases: a run step with cases fails reading the lab."""
    lab = _lab_copy(tmp_path)
    path = lab / "lab.yaml"
    text = path.read_text("utf-8")
    assert "  - kind: run\n" in text
    path.write_text(text.replace("  - kind: run\n", "  - kind: run\n    cases: \"print(1)\"\n", 1), "utf-8")
    with pytest.raises(ContentError, match="cases는 extend 단계에만"):
        read_lab(lab)


def test_every_lab_has_a_checked_extend_step_with_cases() -> None:
    """Each lab of the course ends its run/inject/restore cycle with an extend step that has cases and checks."""
    for folder in lab_folders(CONTENT):
        steps = [step for step in read_lab(folder)["steps"] if step["kind"] == "extend"]
        assert len(steps) == 1 and steps[0]["cases"].strip() and steps[0]["checks"], folder.name
    assert "extend" in MUTANT_STEPS, "a mutant caught only by the extra cases counts as caught"


@pytest.mark.django_db
def test_the_worker_runs_the_learners_code_with_the_steps_cases(
    learner: User, replay_lab: Lab, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks,
) -> None:
    """A run of the extend step executes code + cases and checks that output; the stored code stays the learner's."""
    seen: list[str] = []

    def fake_run(code: str, **kwargs: object) -> RunResult:
        seen.append(code)
        return RunResult(status="ok", exit_code=0, signal=None, stdout="", stderr="", wall_ms=1.0, cpu_ms=1.0,
                         truncated=False)

    monkeypatch.setattr(execution, "run_python", fake_run)
    monkeypatch.setattr(services, "ensure_sandbox_healthy", lambda: None)
    step = replay_lab.step("extend")
    assert step is not None
    for kind, key in (("extend", "k-extend"), ("run", "k-run")):
        with django_capture_on_commit_callbacks(execute=False):
            run = services.request_run(user=learner, lab=replay_lab, code="print('내 코드')\n", step=kind,
                                       idempotency_key=key)
        execution.execute_run(run_id=run.pk)
    extend_run, plain_run = LabRun.objects.order_by("pk")
    assert seen[0] == program_for_step(step, "print('내 코드')\n") and step["cases"] in seen[0]
    assert seen[1] == "print('내 코드')\n", "the run step appends nothing"
    assert extend_run.code == "print('내 코드')\n"
    assert [c["id"] for c in extend_run.check_results] == step["checks"]


@pytest.mark.django_db
def test_the_lab_page_shows_the_extend_step_and_its_cases(client: Client, learner: User, replay_lab: Lab) -> None:
    """The lab page lists the extend step with its cases and offers it as a step to run."""
    client.force_login(learner)
    page = client.get(reverse("labs:detail", args=[replay_lab.slug])).content.decode()
    step = replay_lab.step("extend")
    assert step is not None
    assert 'id="step-extend"' in page and 'name="step" value="extend"' in page
    first_line = step["cases"].strip().splitlines()[0]
    assert first_line.replace("'", "&#x27;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;") in page
