"""Authored files are checked against pydantic models; a fault names the file and its line, before anything is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings

from exercises.labs.content import read_lab
from lessons.content import ContentError, read_course
from lessons.services import load_course

CONTENT = Path(settings.CONTENT_DIR)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    return copy


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in the file and return the 1-based line where it was."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line


def test_the_real_course_passes_every_model() -> None:
    """Every lesson, self-check, lab, exercise and evidence file of the course has the expected shape."""
    _meta, lessons = read_course(CONTENT)
    assert len(lessons) == 19
    for folder in CONTENT.glob("*/labs/*"):
        read_lab(folder)


@pytest.mark.django_db
def test_misspelt_custom_check_name_fails_load_course(content: Path) -> None:
    """A lab naming a custom check that does not exist stops load_course at that line, not at a learner's run."""
    lab = content / "tool-retries" / "labs" / "replay-retry" / "lab.yaml"
    line = edit(lab, "value: attempts_and_drafts", "value: attempts_and_draft")
    with pytest.raises(ContentError, match=rf"replay-retry/lab.yaml:{line}: checks\.\d+\.value: .*attempts_and_draft'는"):
        load_course(content_dir=content)


@pytest.mark.django_db
def test_unknown_key_in_evidence_fails_with_its_line(content: Path) -> None:
    """A misspelt key in evidence.yaml (attach_run for attach_runs) is refused at its line."""
    path = content / "tool-retries" / "evidence.yaml"
    line = edit(path, "attach_runs: true", "attach_run: true")
    with pytest.raises(ContentError, match=rf"tool-retries/evidence.yaml:{line}: tasks\.\d+\.attach_run: Extra inputs"):
        load_course(content_dir=content)


@pytest.mark.django_db
def test_wrong_relation_in_exercise_fails_with_its_line(content: Path) -> None:
    """A sample claim with a relation outside the table (here 'contradict') is refused at its line."""
    from exercises.grounding.content import read_exercise

    folder = content / "delivery-records" / "exercises" / "run-record"
    line = edit(folder / "exercise.yaml", "relation: contradicts", "relation: contradict")
    with pytest.raises(ContentError, match=rf"run-record/exercise.yaml:{line}: samples\.\d+\.claims\.\d+\.relation"):
        read_exercise(folder)


def test_self_check_with_unknown_kind_fails_with_its_line(content: Path) -> None:
    """A self-check of kind 'predicts' (not predict or recall) is refused at its line."""
    line = edit(content / "tool-calls" / "self_checks.yaml", "kind: predict\n", "kind: predicts\n")
    with pytest.raises(ContentError, match=rf"tool-calls/self_checks.yaml:{line}: \d+\.kind"):
        read_course(content)


def test_course_file_without_title_fails(content: Path) -> None:
    """course.yaml needs its title; the error names the file."""
    edit(content / "course.yaml", "title: 근거로 답하고 허락받고 움직이는 AI 활용\n", "")
    with pytest.raises(ContentError, match=r"course.yaml:\d+: title: Field required"):
        read_course(content)


@pytest.mark.django_db
@pytest.mark.parametrize("relative", ["tool-retries/evidence.yaml", "tool-retries/lesson.md",
                                      "tool-retries/labs/replay-retry/lab.yaml"])
def test_a_yaml_syntax_error_names_its_file_and_line(content: Path, relative: str) -> None:
    """A stray "key: value" inside a value in evidence.yaml, the front matter or lab.yaml stops load_course with file:line and
    "YAML 문법 오류", not a traceback without a file name."""
    path = content / relative
    text = path.read_text(encoding="utf-8")
    assert "title: " in text, relative
    line = edit(path, "title: ", "title: 값: 안에 콜론 ")
    with pytest.raises(ContentError, match=rf"{relative}:\d+: YAML 문법 오류") as caught:
        load_course(content_dir=content)
    reported = int(str(caught.value).split(f"{relative}:")[1].split(":")[0])
    assert reported == line, (line, str(caught.value))
