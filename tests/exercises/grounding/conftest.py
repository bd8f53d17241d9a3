"""Fixtures for grounding tests: the real exercises loaded from content."""

from __future__ import annotations

import pytest

from exercises.grounding.models import Exercise
from lessons.models import Lesson


@pytest.fixture
def bookshop(course: list[Lesson]) -> Exercise:
    return Exercise.objects.get(slug="bookshop")


@pytest.fixture
def venue(course: list[Lesson]) -> Exercise:
    return Exercise.objects.get(slug="venue-rental")
