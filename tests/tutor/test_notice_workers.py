"""Two worker processes, one killed mid-send: the digest and each notice still reach a person exactly once.

Starts ``manage.py notice_worker`` (mail and notice tasks only; never a lab run) twice
against the test database and a real SMTP server that holds the first message
before answering, so the first worker is killed while it is talking to the server.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson
from tests.e2e.conftest import database_url
from tutor.mail.models import OutboundMail
from tutor.notices.models import DailyRun, Kind, Notice


class HoldingHandler:
    """Accepts every message, but keeps the first sender waiting for an answer (a slow mail server)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
            first = len(self.messages) == 1
        if first:
            await asyncio.sleep(60)
        return "250 OK"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)


@pytest.fixture
def holding_smtp() -> Iterator[tuple[HoldingHandler, int]]:
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = HoldingHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture
def workers() -> Iterator[list[subprocess.Popen]]:
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def start_worker(port: int) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tutor.settings.test", "DATABASE_URL": database_url(),
           "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(port), "NOTICES_DAILY_HOUR": "0", "EMAIL_TIMEOUT": "120"}
    return subprocess.Popen([sys.executable, "manage.py", "notice_worker", "--interval", "0.2"],
                            cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def wait_for(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


def submitted(author: User, task: EvidenceTask, text: str) -> None:
    services.save_draft(author=author, task=task, text=text, run_ids=[], lines=[])
    services.submit(author=author, task=task, submit_key=f"{author.pk}-{text}")


@pytest.mark.django_db(transaction=True)
def test_digest_and_notices_are_sent_once_with_two_workers_and_one_killed_mid_send(
        course: list[Lesson], learner: User, other_learner: User, instructor: User,
        holding_smtp: tuple[HoldingHandler, int], workers: list[subprocess.Popen]) -> None:
    """Worker A claims the day's digest and starts sending; it is killed while the server holds its first
    message. Worker B takes the rest: one DailyRun per job, one digest and one peer notice, and every message
    arrives once (the one A was sending is never sent again: whether it left is for staff to decide)."""
    handler, port = holding_smtp
    task = EvidenceTask.objects.get(slug="afs-practice")
    submitted(other_learner, task, "동료 글")
    submitted(learner, task, "내 글")
    peer.allocate_peer_work(reviewer=learner, task=task)  # its notice task is queued at commit

    first = start_worker(port)
    workers.append(first)
    wait_for(lambda: handler.count() >= 1)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    held = OutboundMail.objects.get(state=OutboundMail.State.SENDING)

    workers.append(start_worker(port))
    wait_for(lambda: Notice.objects.filter(kind=Kind.DIGEST).exists()
             and Notice.objects.filter(kind=Kind.PEER_REVIEW).exists()
             and not OutboundMail.objects.filter(state=OutboundMail.State.QUEUED).exists()
             and handler.count() >= OutboundMail.objects.count())
    time.sleep(2)  # give a wrong second send the time to show

    assert sorted(DailyRun.objects.values_list("job", flat=True)) == ["digest", "due"]
    assert Notice.objects.filter(kind=Kind.DIGEST, user=instructor).count() == 1
    assert Notice.objects.filter(kind=Kind.PEER_REVIEW, user=learner).count() == 1
    subjects = [(str(m["To"]), str(m["Subject"])) for m in handler.messages]
    assert len(subjects) == len(set(subjects)) == OutboundMail.objects.count(), subjects
    assert any(instructor.email in to for to, _subject in subjects), "the digest arrived"
    held.refresh_from_db()
    assert held.state == OutboundMail.State.SENDING, "a message a dead worker was sending is not resent"
