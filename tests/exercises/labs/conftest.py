"""Fixtures for lab tests: the real labs loaded from content, and a way to drain the real queue."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.management import call_command

from exercises.labs.models import Lab
from lessons.models import Lesson


@pytest.fixture
def replay_lab(course: list[Lesson]) -> Lab:
    return Lab.objects.get(slug="replay-retry")


@pytest.fixture
def drain_queue() -> Callable[[], None]:
    """Run the real django-tasks database worker until the queue is empty."""

    def drain() -> None:
        call_command("db_worker", batch=True, startup_delay=False, reload=False, interval=0.01, verbosity=0)

    return drain
