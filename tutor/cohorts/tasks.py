"""Tasks of the cohorts: thin, take plain ids, the service re-fetches."""

from __future__ import annotations

from django_tasks import task

from . import services


@task()
def send_invitations(invitation_ids: list[int], base_url: str) -> None:
    services.send_invitations(invitation_ids=invitation_ids, base_url=base_url)
