"""The site's task worker: check the sandbox, settle runs a dead worker left, then process the queue."""

from __future__ import annotations

import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from exercises.labs import wakeup
from exercises.labs.execution import (
    keep_warm,
    record_sandbox_health,
    stop_warm,
    tell_runs_finished_while_away,
)
from exercises.labs.models import SandboxHealth
from exercises.labs.sandbox.runner import become_subreaper
from exercises.labs.services import settle_stale_runs
from tutor.notices import worker as notices_clock


class WakeableWorker(Worker):
    """django-tasks' database worker, running a few runs at once, idle without burning a core.

    The main thread claims tasks and hands each to one of ``threads`` runner
    threads; it claims only while one is free, so nothing waits inside this
    process that another worker could have taken. Right after a claim it polls
    again at once; while idle it waits on the wake-up channel
    (``exercises.labs.wakeup``) with a poll interval that doubles up to
    ``LAB_WORKER_IDLE_POLL_SECONDS``, so a missed wake-up costs at most that long.
    Claiming stays the library's: ``select_for_update(skip_locked=True)`` in one
    transaction, so several workers on several hosts never take the same task.
    """

    def __init__(self, *, waiter: wakeup.Waiter, idle_poll: float, health: SandboxHealth, threads: int,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.waiter = waiter
        self.idle_poll = idle_poll
        self.health = health
        self.last_beat = 0.0
        self.threads = max(1, threads)
        self.free = threading.Semaphore(self.threads)
        self.in_flight = 0
        self.in_flight_lock = threading.Lock()

    def beat(self) -> None:
        """Mark this worker alive now and then, so the site knows whose check still counts."""
        if time.monotonic() - self.last_beat >= settings.LAB_WORKER_SILENT_AFTER_SECONDS / 3:
            SandboxHealth.objects.filter(pk=self.health.pk).update(seen_at=timezone.now())
            self.last_beat = time.monotonic()

    def claim_next(self) -> DBTaskResult | None:
        tasks = DBTaskResult.objects.ready().filter(
            backend_name=self.backend_name, queue_name__in=self.queue_names)
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

    def shutdown(self, signum: int, frame: FrameType | None) -> None:
        """Stop claiming; runs already taken finish first (a second signal still ends everything at once)."""
        with self.in_flight_lock:
            self.running_task = self.in_flight > 0
        super().shutdown(signum, frame)

    def run(self) -> None:
        with ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="lab-run") as pool:
            self._claim_loop(pool)

    def _claim_loop(self, pool: ThreadPoolExecutor) -> None:
        interval = self.interval
        while self.running:
            close_old_connections()
            self.beat()
            notices_clock.tick(worker=self.worker_id)  # the day's digest, on the first worker to get there
            if not self.free.acquire(timeout=self.idle_poll):
                continue  # every runner thread is busy
            task_result = self.claim_next()
            if task_result is not None:
                with self.in_flight_lock:
                    self.in_flight += 1
                pool.submit(self._run_in_thread, task_result)
                interval = self.interval
                continue
            self.free.release()
            if self.batch:
                return
            close_old_connections()
            if self.waiter.wait(interval):
                interval = self.interval
            else:
                interval = min(interval * 2, self.idle_poll)

    def _run_in_thread(self, task_result: DBTaskResult) -> None:
        try:
            close_old_connections()
            self.run_task(task_result)
        finally:
            with self.in_flight_lock:
                self.in_flight -= 1
            close_old_connections()  # this thread's own connection, as Django does after a request
            self.free.release()


def warm_size() -> int:
    """Warm sandboxes this worker keeps: the setting, at most one per runner thread."""
    return max(0, min(settings.LAB_WARM_SANDBOXES, settings.LAB_WORKER_THREADS))


class Command(BaseCommand):
    help = "샌드박스 점검 → 멈춘 실행 정리 → 작업 큐 처리 (이 호스트의 점검이 통과했을 때만)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", action="store_true", help="쌓인 작업만 처리하고 끝냅니다.")

    def handle(self, *args: Any, batch: bool, **options: Any) -> None:
        become_subreaper()
        health = record_sandbox_health(warm=warm_size(), reuse=True)
        while not health.ok:
            # with each case's status and note: a failure seen only in a CI log must say why
            failed = [f"{item['name']} ({item.get('status', '?')}: {item.get('note', '')})" for item in health.detail
                      if not item["contained"] and not item.get("accepted_risk")]
            self.stderr.write(f"샌드박스 점검 실패: {', '.join(failed) or '실행 안 됨'}. "
                              f"이 호스트의 워커는 실행을 받지 않습니다. 제한 방식: {health.enforcement}")
            if batch:
                return
            health = self._check_again_later()
        reused = (f", {timezone.localtime(health.reused_from):%H:%M:%S}에 이 호스트가 통과한 점검을 다시 씀"
                  if health.reused_from else "")
        self.stdout.write(f"샌드박스 점검 통과 ({len(health.detail)}개{reused}), {health.interpreter}; "
                          f"제한 방식: {health.enforcement}")
        risks = [item["name"] for item in health.detail if item.get("accepted_risk")]
        if risks:
            self.stdout.write(f"cgroup 없이 막지 못하는 위험(알려짐): {', '.join(risks)}")
        settled = settle_stale_runs()
        if settled:
            self.stdout.write(f"멈춘 실행 {len(settled)}개를 정리했습니다: {settled}")
        tell_runs_finished_while_away()
        waiter = wakeup.open_waiter()
        worker = WakeableWorker(
            waiter=waiter, idle_poll=settings.LAB_WORKER_IDLE_POLL_SECONDS, health=health,
            threads=settings.LAB_WORKER_THREADS,
            queue_names=["default"], interval=settings.LAB_WORKER_POLL_SECONDS, batch=batch,
            backend_name="default", startup_delay=False, max_tasks=None,
            worker_id=f"{socket.gethostname()}:{os.getpid()}"[:64], excluded_queue_names=[],
        )
        worker.configure_signals()
        keep_warm(warm_size())
        try:
            worker.run()
        finally:
            stop_warm()
            waiter.close()

    def _check_again_later(self) -> SandboxHealth:
        """Wait, then repeat the self-test: a fixed host starts taking runs without a restart."""
        time.sleep(settings.LAB_SELFTEST_RETRY_SECONDS)
        return record_sandbox_health(warm=warm_size())
