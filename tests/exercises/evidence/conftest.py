"""The evidence task most of these tests use. A file that needs another one overrides `task` and says why."""

from __future__ import annotations

import pytest

from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """The first lesson's practice task (afs-practice): no fixture version to pin, no calibration needed."""
    return EvidenceTask.objects.get(slug="afs-practice")
