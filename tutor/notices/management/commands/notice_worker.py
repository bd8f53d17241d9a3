"""A worker for mail and notices only (a host without the sandbox, and the tests): never takes a lab run.

Like ``manage.py worker`` it calls the notices clock (``tutor.notices.worker.tick``)
as it loops, so the day's digest is scheduled by whichever worker comes first.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.db.models import Q
from django.db.utils import OperationalError
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from tutor.notices.worker import tick

# Tasks this worker may run: mail and notices, none of which needs the sandbox.
TASK_PREFIXES = ("tutor.mail.", "tutor.notices.", "exercises.evidence.tasks.")


def _mine() -> Q:
    query = Q()
    for prefix in TASK_PREFIXES:
        query |= Q(task_path__startswith=prefix)
    return query


class NoticeWorker(Worker):
    def claim_next(self) -> DBTaskResult | None:
        tasks = DBTaskResult.objects.ready().filter(_mine(), backend_name=self.backend_name,
                                                    queue_name__in=self.queue_names)
        with exclusive_transaction(tasks.db):
            try:
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
            except OperationalError as exc:
                if not is_locked_database_exception(exc):
                    raise
                return None
        return task_result

    def run(self) -> None:
        while self.running:
            close_old_connections()
            tick(worker=self.worker_id)
            task_result = self.claim_next()
            if task_result is not None:
                self.run_task(task_result)
                continue
            if self.batch:
                return
            close_old_connections()
            if self.running:
                time.sleep(self.interval)


class Command(BaseCommand):
    help = "메일과 알림 작업만 처리하는 워커 (샌드박스 없는 호스트용). 하루 작업(요약, 마감 알림)도 예약합니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", action="store_true", help="쌓인 작업만 처리하고 끝냅니다.")
        parser.add_argument("--interval", type=float, default=0.5)

    def handle(self, *args: Any, batch: bool, interval: float, **options: Any) -> None:
        worker = NoticeWorker(queue_names=["default"], interval=interval, batch=batch, backend_name="default",
                              startup_delay=False, max_tasks=None, excluded_queue_names=[],
                              worker_id=f"{socket.gethostname()}:{os.getpid()}"[:64])
        worker.configure_signals()
        worker.run()
