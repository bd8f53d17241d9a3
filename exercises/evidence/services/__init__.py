"""Writes of the evidence app: tasks and rubrics, drafts, submissions, reviews, release, flags, settings.

Each write checks the capability it needs in ``tutor.access``, changes what it
must in one transaction and writes its audit entry there. Peer leases and
reproductions live in ``peer.py``; dates in ``schedule.py``.

One module per topic; this package exports every writer, so callers write ``services.submit(...)``.
"""

from .content import load_tasks
from .drafts import peer_work_read, save_draft, submit
from .limits import MAX_CITATION_CHARS, MAX_PEER_MINIMUM, MAX_TEXT_CHARS
from .release import release_review, release_reviews, release_task
from .resolution import flag_criterion, resolve_disagreement, resolve_flag, set_min_peer_reviews
from .reviews import (
    check_judgements,
    mark_reviews_opened,
    rate_helpful,
    record_practice_review,
    record_review,
)

__all__ = [
    "MAX_CITATION_CHARS",
    "MAX_PEER_MINIMUM",
    "MAX_TEXT_CHARS",
    "check_judgements",
    "flag_criterion",
    "load_tasks",
    "mark_reviews_opened",
    "peer_work_read",
    "rate_helpful",
    "record_practice_review",
    "record_review",
    "release_review",
    "release_reviews",
    "release_task",
    "resolve_disagreement",
    "resolve_flag",
    "save_draft",
    "set_min_peer_reviews",
    "submit",
]
