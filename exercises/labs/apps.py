from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import AppConfig


class LabsConfig(AppConfig):
    """Sandboxed Python labs: the runner, the run queue, the editor page and run records."""

    name = "exercises.labs"
    label = "labs"
    verbose_name = "실습"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from lessons.extensions import FixtureUsers, LearnerRecords, LessonContent
        from tutor import extensions
        from tutor.health import HealthSource

        from . import checks  # noqa: F401  (registers the system checks)

        for point in (LessonContent, LearnerRecords, FixtureUsers, HealthSource):
            extensions.register(point, self)

    def load_lesson_content(self, *, lesson: Any, folder: Path) -> list[str]:
        """Called by ``lessons.services.load_course`` for every lesson folder: load its labs."""
        from .services import load_labs

        return load_labs(lesson=lesson, folder=folder)

    def record_links_for(self, user: Any) -> dict[int, list[Any]]:
        """Called by ``lessons.selectors.progress_of``: links to this learner's own records, per lesson."""
        from .selectors import record_links_of

        return record_links_of(user)

    def fixture_uses(self, fixture: Any) -> list[Any]:
        """Called by ``lessons.fixture_refs.uses_of``: labs that read the fixture (all of it) or quote its lines."""
        from .selectors import fixture_uses

        return fixture_uses(fixture)

    def health_checks(self) -> dict[str, dict[str, Any]]:
        """Called by ``/healthz``: this host's sandbox, by its latest worker self-test."""
        from .selectors import sandbox_health_check

        return {"sandbox": sandbox_health_check()}
