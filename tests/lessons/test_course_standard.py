"""Every lesson meets the course standard of lessons/content/README.md ("Each lesson has").

Lessons written before the standard are listed in ``NOT_YET_AT_STANDARD`` until
their writer brings them up to it; a listed lesson that already meets it fails
``test_the_waiting_list_only_holds_lessons_that_still_miss_something``, so the
list can only shrink.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from lessons.content import read_lesson

NOT_YET_AT_STANDARD: set[str] = set()
# Part 12 names the seed by its title (「…」 after "과정 원고"), never by a path of the authoring machine.
SEED_TITLE = re.compile(r"과정 원고 「[^」]+」")
AUTHORING_PATH = re.compile(r"/work/|/home/|/tmp/|\d{3}_[0-9a-f]{16}\.txt")
LESSONS = sorted(p for p in settings.CONTENT_DIR.iterdir() if (p / "lesson.md").is_file())


def shortfalls(folder: Path) -> list[str]:
    """What the lesson in ``folder`` lacks against the standard, in words; empty when it meets it."""
    source = read_lesson(folder)
    missing = []
    if not source.objectives:
        missing.append("학습 목표 없음")
    checks = source.self_checks
    if len(checks) < 3:
        missing.append(f"확인 문제 {len(checks)}개 (3개 이상)")
    predictive = sum(check.kind == "predict" for check in checks)
    if predictive * 2 < len(checks):
        missing.append(f"예측 문제 {predictive}/{len(checks)} (절반 이상)")
    if not list(folder.glob("labs/*/lab.yaml")) and not list(folder.glob("exercises/*/exercise.yaml")):
        missing.append("실습이나 근거 연습 없음")
    evidence = folder / "evidence.yaml"
    tasks = (yaml.safe_load(evidence.read_text(encoding="utf-8")) or {}).get("tasks", []) if evidence.is_file() else []
    kinds = {task.get("kind") for task in tasks}
    if not {"practice", "transfer", "explain"} <= kinds:
        missing.append(f"증거 과제 종류 {sorted(k for k in kinds if k)} (practice, transfer, explain)")
    for task in tasks:
        for criterion in task.get("rubric", {}).get("criteria", []):
            if not all(str(level.get("description", "")).strip() for level in criterion.get("levels", [])):
                missing.append(f"{task.get('slug')}/{criterion.get('key')}: 설명 없는 수준")
    sources = source.parts[-1].rendered.html
    if not SEED_TITLE.search(sources):
        missing.append("출처에 시드 제목(과정 원고 「…」) 없음")
    if AUTHORING_PATH.search("".join(part.rendered.html for part in source.parts)):
        missing.append("작성한 기계의 파일 경로가 본문에 있음")
    if "인수" in "".join(part.rendered.html for part in source.parts):
        missing.append("'인수' 대신 '인자'")
    return missing


@pytest.mark.parametrize("folder", [p for p in LESSONS if p.name not in NOT_YET_AT_STANDARD], ids=lambda p: p.name)
def test_lesson_meets_the_course_standard(folder: Path) -> None:
    assert shortfalls(folder) == []


@pytest.mark.parametrize("folder", [p for p in LESSONS if p.name in NOT_YET_AT_STANDARD], ids=lambda p: p.name)
def test_the_waiting_list_only_holds_lessons_that_still_miss_something(folder: Path) -> None:
    assert shortfalls(folder), f"{folder.name} meets the standard now: remove it from NOT_YET_AT_STANDARD"


def test_course_orders_are_distinct() -> None:
    """Each lesson has its own place in the course; the next step relies on it."""
    orders = [read_lesson(folder).order for folder in LESSONS]
    assert len(orders) == len(set(orders))
