"""The worker's clock: each worker process calls ``tick`` as it loops; the day's jobs run on one host only.

Timed events (a peer step that closed) are looked for on every tick, on every host: the apps'
``timed_notices`` hooks make each notice under a key naming the event and the person, so a second host
finds it made and sends nothing.

A daily job is claimed with a ``DailyRun`` row (unique per job and date) and its task is
enqueued in the same transaction, so exactly one worker enqueues it and a worker
dying right after the claim still leaves the task in the queue.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from . import registry
from .models import DailyRun

logger = logging.getLogger(__name__)

CHECK_EVERY_SECONDS = 30.0
_last_check = 0.0

JOBS = ("due", "digest")


def tick(*, worker: str, now: datetime | None = None, force: bool = False) -> list[str]:
    """Enqueue the daily jobs whose hour has come and that no other worker claimed today; return them."""
    global _last_check
    if not force and time.monotonic() - _last_check < CHECK_EVERY_SECONDS:
        return []
    _last_check = time.monotonic()
    from django.conf import settings

    from .tasks import run_daily_job

    now = now or timezone.now()
    try:
        registry.timed_notices(now)
    except Exception:  # a fault in one app's notices must not stop the worker taking runs; it is logged
        logger.exception("timed notices failed")
    local = timezone.localtime(now)
    if local.hour < settings.NOTICES_DAILY_HOUR:
        return []
    claimed = []
    for job in JOBS:
        try:
            with transaction.atomic():
                DailyRun.objects.create(job=job, date=local.date(), claimed_by=worker[:64])
                run_daily_job.enqueue(job=job, day=local.date().isoformat())
        except IntegrityError:
            continue
        claimed.append(job)
    return claimed
