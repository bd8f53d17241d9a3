"""Tasks of the mail app: thin, take plain ids, re-fetch in the service."""

from __future__ import annotations

from django_tasks import task

from . import services


@task()
def send_queued_mail(mail_id: int) -> None:
    services.send_mail_now(mail_id=mail_id)
