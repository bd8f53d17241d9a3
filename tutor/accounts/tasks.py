"""Tasks of the account pages: thin, re-fetch in the service."""

from __future__ import annotations

from django_tasks import task

from . import services


@task()
def delete_inactive_accounts() -> None:
    """Retention, from the worker: enqueue it daily (e.g. from cron) instead of running the command."""
    services.delete_inactive_accounts()
