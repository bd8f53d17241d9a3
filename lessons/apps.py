from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Courses, lessons, self-checks, fictional fixtures, content loading and completion."""

    name = "lessons"
    verbose_name = "레슨"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tutor import extensions

        from .extensions import FixtureUsers

        extensions.register(FixtureUsers, self)

    def fixture_uses(self, fixture: Any) -> list[Any]:
        """Called by ``lessons.fixture_refs.uses_of``: current lesson texts and files that point at or copy its lines."""
        from .selectors import fixture_uses

        return fixture_uses(fixture)
