"""What ``lessons`` asks of the apps built on it: each app registers in ``ready()`` for the points it answers
(``tutor.extensions.register``). ``lessons`` imports none of those apps."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .fixture_refs import FixtureUse
    from .models import Fixture, Lesson
    from .selectors import RecordLink


class LessonContent(Protocol):
    """An app whose content lives in a lesson's folder (labs, grounding exercises, evidence tasks)."""

    def load_lesson_content(self, *, lesson: Lesson, folder: Path) -> list[str]:
        """Load (upsert) this app's part of ``folder`` for ``lesson``; return one line per problem found."""
        ...


class LearnerRecords(Protocol):
    """An app with records a learner's progress page links to, per lesson."""

    def record_links_for(self, user: User) -> dict[int, list[RecordLink]]:
        """Links to ``user``'s own records, by lesson id."""
        ...


class ReviewRecords(Protocol):
    """An app that keeps the review track (the third record, beside completion and self-report)."""

    def review_records_for(self, user_ids: list[Any]) -> dict[Any, dict[int, list[str]]]:
        """Each author's review track as the author may see it: by user id, then lesson id."""
        ...


class FixtureUsers(Protocol):
    """An app whose content rests on lines of a fictional fixture (so an edit can warn of what it moves)."""

    def fixture_uses(self, fixture: Fixture) -> list[FixtureUse]:
        """What of this app's content points at or quotes lines of ``fixture``."""
        ...
