"""Fixtures for lab tests: the real labs loaded from content."""

from __future__ import annotations

import pytest

from exercises.labs.models import Lab
from exercises.labs.sandbox import cgroups
from lessons.models import Lesson


@pytest.fixture
def replay_lab(course: list[Lesson]) -> Lab:
    return Lab.objects.get(slug="replay-retry")


@pytest.fixture
def groups_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the run groups this test process makes while the test runs, to ask whether each is gone.

    The groups' folders are the host's, shared with any other process running sandboxes at the same time
    (another task worker, a parallel test process), so "no run group exists" would be a claim about them too.
    """
    made: list[str] = []
    original = cgroups.new_name

    def recorded() -> str:
        name = original()
        made.append(name)
        return name

    monkeypatch.setattr(cgroups, "new_name", recorded)
    return made

