from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import AppConfig


class GroundingConfig(AppConfig):
    """Grounding exercises: paste a model's answer, mark each claim 근거 / 자료없음 / 보류, cite lines."""

    name = "exercises.grounding"
    label = "grounding"
    verbose_name = "근거 연습"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from lessons.extensions import FixtureUsers, LearnerRecords, LessonContent
        from tutor import extensions
        from tutor.notices.registry import TodoSource

        from . import checks  # noqa: F401  (registers the system checks)

        for point in (LessonContent, LearnerRecords, FixtureUsers, TodoSource):
            extensions.register(point, self)

    def load_lesson_content(self, *, lesson: Any, folder: Path) -> list[str]:
        """Called by ``lessons.services.load_course`` for every lesson folder: load its exercises."""
        from .services import load_exercises

        return load_exercises(lesson=lesson, folder=folder)

    def record_links_for(self, user: Any) -> dict[int, list[Any]]:
        """Called by ``lessons.selectors.progress_of``: links to this learner's own records, per lesson."""
        from .selectors import record_links_of

        return record_links_of(user)

    def fixture_uses(self, fixture: Any) -> list[Any]:
        """Called by ``lessons.fixture_refs.uses_of``: the answer keys, variants and sample claims on the fixture."""
        from .selectors import fixture_uses

        return fixture_uses(fixture)

    def todo_for(self, user: Any) -> list[Any]:
        """Called by ``tutor.notices.registry.todo_for``: "claim_judged" for learners and "answer_group" for
        teachers (exercises.grounding.selectors)."""
        from .selectors import answer_groups_waiting, claims_judged_since_last_look

        return claims_judged_since_last_look(user) + answer_groups_waiting(user)
