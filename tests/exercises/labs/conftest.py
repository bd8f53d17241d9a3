"""Fixtures for lab tests: the real labs loaded from content."""

from __future__ import annotations

import pytest

from exercises.labs.models import Lab
from lessons.models import Lesson


@pytest.fixture
def replay_lab(course: list[Lesson]) -> Lab:
    return Lab.objects.get(slug="replay-retry")
