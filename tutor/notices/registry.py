"""What other apps contribute to notices and to-do lists, declared as two extension points
(``tutor.extensions``): an app registers for them in its ``AppConfig.ready()``.

``tutor`` imports no app: each app that has something to say registers itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol

from tutor import extensions

LEARNER_KINDS = ("peer_review", "due", "overdue", "review_released", "resubmission", "claim_judged")
TEACHER_KINDS = ("waiting_review", "disagreement", "flag", "peer_closed", "stuck_learner", "answer_group")


@dataclass(frozen=True)
class TodoItem:
    kind: str
    title: str
    url: str
    due_at: datetime | None = None
    count: int = 1
    cohort: str = ""


class TodoSource(Protocol):
    """An app in which a person can owe something (a review to write, a claim judgement to read)."""

    def todo_for(self, user: Any) -> list[TodoItem]:
        """What ``user`` owes in this app, as to-do items."""
        ...


class NoticeSource(Protocol):
    """An app that makes scheduled notices and lines of a teacher's daily digest."""

    def digest_lines_for(self, user: Any) -> list[str]:
        """Lines of ``user``'s daily digest (a teacher's waiting work, one line per cohort and kind)."""
        ...

    def daily_notices(self, day: date) -> int:
        """Make the notices of ``day`` (e.g. "due tomorrow"); return how many were made."""
        ...

    def timed_notices(self, now: datetime) -> int:
        """Make the notices of events due by ``now`` (e.g. "the peer step closed"). Called on every worker clock
        tick, so it is cheap when nothing is due and idempotent per event and person (``notify``'s key)."""
        ...


def todo_for(user: Any) -> list[TodoItem]:
    """Everything this person owes, soonest due first (items without a due time after)."""
    items = [item for app in extensions.providers(TodoSource) for item in app.todo_for(user)]
    far = datetime.max.replace(tzinfo=None)
    return sorted(items, key=lambda item: (item.due_at is None,
                                          item.due_at.replace(tzinfo=None) if item.due_at else far, item.title))


def digest_lines_for(user: Any) -> list[str]:
    return [line for app in extensions.providers(NoticeSource) for line in app.digest_lines_for(user)]


def daily_notices(day: Any) -> int:
    return sum(app.daily_notices(day) for app in extensions.providers(NoticeSource))


def timed_notices(now: datetime) -> int:
    return sum(app.timed_notices(now) for app in extensions.providers(NoticeSource))
