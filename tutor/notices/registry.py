"""What other apps contribute, asked through their AppConfig (as ``load_lesson_content`` is):

- ``todo_for(user) -> list[TodoItem]``: what this person owes, in that app;
- ``digest_lines_for(user) -> list[str]``: lines of a teacher's daily digest;
- ``daily_notices(day: date) -> int``: make the notices of a day (e.g. "due tomorrow"); return how many;
- ``timed_notices(now: datetime) -> int``: make the notices of events that happen at a scheduled time rather
  than on a request (e.g. "the peer step closed"); called on every worker's clock tick, so it must be cheap
  when nothing is due and idempotent per event and person (``notify``'s key).

``tutor`` imports no app: each app that has something to say defines the method.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.apps import apps

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


def _hooks(name: str) -> Iterator[Any]:
    for config in apps.get_app_configs():
        hook = getattr(config, name, None)
        if callable(hook):
            yield hook


def todo_for(user: Any) -> list[TodoItem]:
    """Everything this person owes, soonest due first (items without a due time after)."""
    items = [item for hook in _hooks("todo_for") for item in hook(user)]
    far = datetime.max.replace(tzinfo=None)
    return sorted(items, key=lambda item: (item.due_at is None,
                                          item.due_at.replace(tzinfo=None) if item.due_at else far, item.title))


def digest_lines_for(user: Any) -> list[str]:
    return [line for hook in _hooks("digest_lines_for") for line in hook(user)]


def daily_notices(day: Any) -> int:
    return sum(hook(day) for hook in _hooks("daily_notices"))


def timed_notices(now: datetime) -> int:
    return sum(hook(now) for hook in _hooks("timed_notices"))
