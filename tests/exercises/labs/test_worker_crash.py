"""A worker killed in the middle of a run: the next worker settles the run instead of leaving it "running"."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from exercises.labs import services
from exercises.labs.models import Lab, LabRun
from tests.e2e.conftest import database_url

pytestmark = pytest.mark.django_db(transaction=True)


def start_worker() -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tutor.settings.test", "DATABASE_URL": database_url()}
    return subprocess.Popen([sys.executable, "manage.py", "worker"], cwd=settings.BASE_DIR, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for(predicate, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_killed_worker_run_is_retried_by_the_next_worker(replay_lab: Lab, learner: User) -> None:
    run = services.request_run(user=learner, lab=replay_lab, code="import time\ntime.sleep(3)\nprint('끝')",
                               step="run", idempotency_key="crash")
    first = start_worker()
    try:
        wait_for(lambda: LabRun.objects.get(pk=run.pk).status == LabRun.Status.RUNNING)
        os.killpg(first.pid, signal.SIGKILL)  # the worker and everything it started
        first.wait()
        assert LabRun.objects.get(pk=run.pk).status == LabRun.Status.RUNNING
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    second = start_worker()
    try:
        wait_for(lambda: LabRun.objects.get(pk=run.pk).is_finished)
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=20)
    run.refresh_from_db()
    assert run.status == LabRun.Status.OK and run.stdout == "끝\n" and run.attempts == 2
