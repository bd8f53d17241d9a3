"""Several workers, several hosts: health per host, wake-ups, and no run taken twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django_tasks_db.models import DBTaskResult

from exercises.labs import selectors, services, wakeup
from exercises.labs.models import Lab, LabRun, SandboxHealth
from tests.e2e.conftest import database_url
from tutor.errors import Refused

FAILED = [{"name": "fork_bomb", "contained": False, "status": "ok", "note": ""}]


def health(host: str, ok: bool) -> SandboxHealth:
    return SandboxHealth.objects.create(ok=ok, host=host, worker=f"{host}:1", detail=[] if ok else FAILED)


@pytest.mark.django_db
def test_one_failing_host_does_not_block_runs_a_healthy_host_can_take(learner: User, replay_lab: Lab) -> None:
    """A failed self-test on one host leaves runs open while another host's latest check passed."""
    health("web-2", ok=True)
    health("web-1", ok=False)
    assert selectors.sandbox_health().host == "web-2"
    services.request_run(user=learner, lab=replay_lab, code="pass", step="run", idempotency_key="h1")
    health("web-2", ok=False)
    with pytest.raises(Refused, match="fork_bomb"):
        services.request_run(user=learner, lab=replay_lab, code="pass", step="run", idempotency_key="h2")
    health("web-1", ok=True)
    services.request_run(user=learner, lab=replay_lab, code="pass", step="run", idempotency_key="h3")


@pytest.mark.django_db(transaction=True)
def test_queuing_a_run_wakes_a_waiting_worker() -> None:
    """The wake-up channel of this database (NOTIFY or a socket) reaches a waiting worker at once."""
    waiter = wakeup.open_waiter()
    try:
        assert not isinstance(waiter, wakeup.SleepWaiter)
        assert waiter.wait(0.05) is False
        wakeup.notify_workers()
        started = time.monotonic()
        assert waiter.wait(5) is True
        assert time.monotonic() - started < 1
    finally:
        waiter.close()


def start_worker(**extra_env: str) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tutor.settings.test", "DATABASE_URL": database_url(),
           "LAB_SELFTEST_RETRY_SECONDS": "600", **extra_env}
    return subprocess.Popen([sys.executable, "manage.py", "worker"], cwd=settings.BASE_DIR, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.fixture
def stop_workers() -> Iterator[list[subprocess.Popen]]:
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in started:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for(predicate: Callable[[], bool], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_two_workers_share_the_queue_without_running_anything_twice(
    make_user: Callable[..., User], replay_lab: Lab, stop_workers: list[subprocess.Popen]
) -> None:
    """Two worker processes on one queue: every run finishes once, no task is run twice, none is lost."""
    stop_workers += [start_worker(), start_worker()]
    wait_for(lambda: SandboxHealth.objects.count() >= 2)
    assert [(h.ok, [d["name"] for d in h.detail if not d["contained"]]) for h in SandboxHealth.objects.all()] == [(True, [])] * 2
    learners = [make_user(f"pair{n}") for n in range(8)]
    runs = [services.request_run(user=learner, lab=replay_lab, code=f"print({n})", step="run",
                                 idempotency_key=f"two-{n}-{k}")
            for n, learner in enumerate(learners) for k in range(2)]
    wait_for(lambda: LabRun.objects.filter(pk__in=[r.pk for r in runs], finished_at__isnull=False).count() == len(runs))
    finished = list(LabRun.objects.filter(pk__in=[r.pk for r in runs]))
    assert all(run.attempts == 1 and run.status == LabRun.Status.OK for run in finished)
    assert {run.stdout for run in finished} == {f"{n}\n" for n in range(8)}
    tasks = list(DBTaskResult.objects.all())
    assert len(tasks) == len(runs) and all(task.status == "SUCCESSFUL" for task in tasks)
    assert len({task.worker_ids[0] for task in tasks}) <= 2 and all(len(task.worker_ids) == 1 for task in tasks)


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_own_sandbox_failed_takes_no_runs(
    learner: User, replay_lab: Lab, stop_workers: list[subprocess.Popen]
) -> None:
    """A worker on a host without a working sandbox records the failure and leaves runs for others."""
    health("healthy-host", ok=True)
    run = services.request_run(user=learner, lab=replay_lab, code="print(1)", step="run", idempotency_key="bad-host")
    stop_workers.append(start_worker(LAB_SANDBOX_BWRAP="/nonexistent/bwrap"))
    wait_for(lambda: SandboxHealth.objects.filter(host=selectors.this_host(), ok=False).exists())
    time.sleep(2)
    run.refresh_from_db()
    assert run.status == LabRun.Status.QUEUED and run.attempts == 0
    assert DBTaskResult.objects.get().status == "READY"
