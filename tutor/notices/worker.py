"""The worker's clock: each worker process calls ``tick`` as it loops; the day's jobs run on one host only.

A job is claimed with a ``DailyRun`` row (unique per job and date) and its task is
enqueued in the same transaction, so exactly one worker enqueues it and a worker
dying right after the claim still leaves the task in the queue.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import DailyRun

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

    local = timezone.localtime(now or timezone.now())
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
