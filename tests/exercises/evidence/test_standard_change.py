""""기준 변경됨" says what changed: the fixture's changed lines, old → new, and the rubric versions."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.evidence.models import EvidenceTask
from lessons.fixture_changes import changed_lines
from lessons.models import Lesson
from lessons.services import create_fixture_version
from tests.exercises.evidence.helpers import submitted


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """A task with a source fixture (afs-practice has none): the change shown is an edit of the task's fixture."""
    return EvidenceTask.objects.exclude(fixture=None).first()


def test_changed_fixture_line_shows_old_and_new_text_with_its_number(
        learner_client: Client, learner: User, task: EvidenceTask) -> None:
    """After an admin edits line 2 of the fixture, the submission page names line 2, its old text and its new."""
    submission = submitted(learner, task, "증거")
    url = reverse("evidence:submission", args=[submission.pk])
    assert "기준 변경됨" not in learner_client.get(url).content.decode()
    old = task.fixture.current_version
    lines = old.text.splitlines()
    before = lines[1]
    lines[1] = before + " (바뀐 값)"
    new = create_fixture_version(fixture=task.fixture, text="\n".join(lines), origin="admin", actor=None,
                                 reason="시험")
    page = html.unescape(learner_client.get(url).content.decode())
    assert "기준 변경됨" in page
    assert f"가상 자료: 판 {old.number} → 판 {new.number}" in page
    item = page.split('<ul class="line-changes small">')[1].split("</ul>")[0]
    assert f"2번 줄 “{before}”</span> → " in item and f"2번 줄 “{before} (바뀐 값)”" in item
    assert lines[0] not in item, "unchanged lines are not listed"


def test_changed_lines_pairs_replaced_added_and_removed_lines(course: list[Lesson]) -> None:
    """A replaced line pairs old with new; an added line has no old; a removed line has no new."""
    task = EvidenceTask.objects.exclude(fixture=None).first()
    old = task.fixture.current_version
    first = create_fixture_version(fixture=task.fixture, text="가\n나\n다", origin="admin", actor=None, reason="a")
    second = create_fixture_version(fixture=task.fixture, text="가\n나나\n다\n라", origin="admin", actor=None,
                                    reason="b")
    changes = changed_lines(first, second)
    assert [(c.old_number, c.old_text, c.new_number, c.new_text) for c in changes] == [
        (2, "나", 2, "나나"), (None, None, 4, "라")]
    removed = changed_lines(second, first)
    assert (4, "라", None, None) in [(c.old_number, c.old_text, c.new_number, c.new_text) for c in removed]
    assert old.pk != first.pk
