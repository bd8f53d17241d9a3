"""Tasks of the labs app: thin, take plain ids, re-fetch in the service."""

from __future__ import annotations

from django_tasks import task

from . import execution


@task()
def execute_lab_run(run_id: int) -> None:
    execution.execute_run(run_id=run_id)
