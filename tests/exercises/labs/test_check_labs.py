"""``check_labs``: every lab's solution and injected failures, through the real sandbox, one line per lab."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from exercises.labs.verification import lab_folders


def run_check_labs(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("check_labs", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def test_every_lab_of_the_course_passes_with_one_line_each() -> None:
    """The command runs each lab and prints one passing line per lab, then a count.

    Without the mutants: every lab's mutants go through the same ``verify_mutant`` in ``test_lab_mutants.py``, and
    the command's "mutants caught" verdicts are tested there; running them twice cost the suite about 20 s.
    """
    output, error = run_check_labs("--no-mutants")
    labs = lab_folders(settings.CONTENT_DIR)
    lines = output.splitlines()
    assert error is None, output
    assert len(lines) == len(labs) + 1
    for folder, line in zip(labs, lines[:-1], strict=True):
        assert line.startswith(f"통과  {folder.parent.parent.name}/{folder.name}  "), line
        assert "inject✓" in line and "run✓" in line
    assert lines[-1] == f"실습 {len(labs)}개 중 {len(labs)}개 통과"


@pytest.fixture
def one_lab(tmp_path: Path) -> Path:
    source = settings.CONTENT_DIR / "structured-output"
    target = tmp_path / "content" / "structured-output"
    shutil.copytree(source, target)
    return tmp_path / "content"


def test_a_solution_that_no_longer_passes_fails_the_command(one_lab: Path) -> None:
    """When the reference solution is replaced by the starter, the run step fails and the exit is non-zero."""
    lab = one_lab / "structured-output" / "labs" / "approval-gate"
    shutil.copy(lab / "starter.py", lab / "solution.py")
    output, error = run_check_labs("--content-dir", str(one_lab))
    assert error is not None
    line = output.splitlines()[0]
    assert line.startswith("실패  structured-output/approval-gate") and "run✗" in line


def test_an_injection_that_does_not_break_anything_fails_the_command(one_lab: Path) -> None:
    """An inject step whose change leaves the program passing is reported: the failure was not shown."""
    lab = one_lab / "structured-output" / "labs" / "approval-gate"
    spec = (lab / "lab.yaml").read_text(encoding="utf-8")
    spec = spec.replace("""replace: '"status": "approved"'""", """replace: '"status": "needs_review"'""")
    (lab / "lab.yaml").write_text(spec, encoding="utf-8")
    output, error = run_check_labs("--content-dir", str(one_lab))
    line = output.splitlines()[0]
    assert error is not None and line.startswith("실패") and "inject✗" in line and "run✓" in line, output


def test_an_unknown_lab_slug_is_refused() -> None:
    _, error = run_check_labs("no-such-lab")
    assert error is not None and "no-such-lab" in str(error)


def test_a_lab_that_cannot_be_read_is_a_failing_line_not_a_traceback(one_lab: Path) -> None:
    lab = one_lab / "structured-output" / "labs" / "approval-gate"
    (lab / "lab.yaml").write_text("title: 깨진: 파일: [\n", encoding="utf-8")
    output, error = run_check_labs("--content-dir", str(one_lab))
    assert error is not None
    assert output.splitlines()[0].startswith("실패  structured-output/approval-gate  읽을 수 없음")
