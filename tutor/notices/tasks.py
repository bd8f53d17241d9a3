"""Tasks of the notices app: thin, take plain values."""

from __future__ import annotations

from datetime import date

from django_tasks import task

from . import services


@task()
def run_daily_job(job: str, day: str) -> None:
    services.run_daily_job(job=job, day=date.fromisoformat(day))
