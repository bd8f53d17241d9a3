"""A run's page learns that the run ended when it ends: its status request is held until the worker says so.

The requests run in threads against the live test database (``transaction=True``), as gunicorn's threads
would; the worker's side is ``execution.tell_run_finished``, which on SQLite sends a datagram to this
process's socket and on PostgreSQL a ``NOTIFY`` its ``LISTEN`` connection hears.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exercises.labs import push
from exercises.labs.execution import tell_run_finished
from exercises.labs.models import Lab, LabRun
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}


def queued(user: User, lab: Lab) -> LabRun:
    return LabRun.objects.create(lab=lab, user=user, idempotency_key=uuid.uuid4().hex, code="print(1)",
                                 code_digest="0" * 64, lab_version=lab.version, status=LabRun.Status.QUEUED)


def held_get(client: Client, run: LabRun, out: dict[str, Any]) -> threading.Thread:
    def ask() -> None:
        started = time.monotonic()
        try:
            response = client.get(reverse("labs:run", args=[run.pk]) + "?wait=1", **HTMX)
            out["seconds"], out["status"], out["body"] = time.monotonic() - started, response.status_code, \
                response.content.decode()
        finally:
            connections.close_all()  # this thread's own connection, as a server thread closes it
    thread = threading.Thread(target=ask)
    thread.start()
    return thread


def finish(run: LabRun) -> None:
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.OK, stdout="1\n", exit_code=0,
                                            finished_at=timezone.now())
    tell_run_finished(run.pk)


def test_a_held_status_request_answers_when_the_worker_says_the_run_ended(
        learner: User, replay_lab: Lab, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Held while the run is queued; answered with the finished result right after the worker's signal, not
    at the next re-check (re-checks are pushed out of the way to prove it) nor at the end of the hold."""
    settings.LAB_RUN_HOLD_SECONDS = 20
    monkeypatch.setattr(push, "RECHECK_SECONDS", 30)
    run = queued(learner, replay_lab)
    out: dict[str, Any] = {}
    thread = held_get(signed_in(learner), run, out)
    time.sleep(1.0)
    assert thread.is_alive(), "the request is held while the run has not ended"
    finish(run)
    thread.join(timeout=10)
    assert out["status"] == 200 and "data-run-finished" in out["body"]
    assert 1.0 <= out["seconds"] < 4.0, out["seconds"]


def test_without_an_end_the_request_is_answered_after_the_hold_and_asks_again_at_once(
        learner: User, replay_lab: Lab, settings: Any) -> None:
    """A run still queued after the hold gets its running fragment, which asks again with no delay."""
    settings.LAB_RUN_HOLD_SECONDS = 0.4
    run = queued(learner, replay_lab)
    started = time.monotonic()
    response = signed_in(learner).get(reverse("labs:run", args=[run.pk]) + "?wait=1", **HTMX)
    body = response.content.decode()
    assert time.monotonic() - started >= 0.4
    assert 'hx-trigger="load"' in body and "?wait=1" in body and "data-run-finished" not in body


def test_past_the_hold_slots_of_a_process_the_request_is_answered_at_once_and_polls_later(
        learner: User, replay_lab: Lab, settings: Any) -> None:
    """With every hold slot taken (here: none allowed) nothing waits: the fragment polls after 250 ms."""
    settings.LAB_RUN_HOLD_SECONDS, settings.LAB_RUN_HOLD_MAX = 5, 0
    run = queued(learner, replay_lab)
    started = time.monotonic()
    body = signed_in(learner).get(reverse("labs:run", args=[run.pk]) + "?wait=1", **HTMX).content.decode()
    assert time.monotonic() - started < 1.0
    assert 'hx-trigger="load delay:250ms"' in body


def test_a_finished_run_is_answered_at_once_and_a_stranger_gets_404(
        learner: User, other_learner: User, replay_lab: Lab, settings: Any) -> None:
    """A finished run is not held; another learner asking to wait on it gets the same 404 as for no run."""
    settings.LAB_RUN_HOLD_SECONDS = 5
    run = queued(learner, replay_lab)
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.OK, finished_at=timezone.now())
    started = time.monotonic()
    assert "data-run-finished" in signed_in(learner).get(
        reverse("labs:run", args=[run.pk]) + "?wait=1", **HTMX).content.decode()
    assert time.monotonic() - started < 1.0
    stranger = signed_in(other_learner)
    assert stranger.get(reverse("labs:run", args=[run.pk]) + "?wait=1", **HTMX).status_code == 404
    assert stranger.get(reverse("labs:run", args=[run.pk + 1000]) + "?wait=1", **HTMX).status_code == 404


def test_telling_with_no_page_waiting_is_harmless(learner: User, replay_lab: Lab) -> None:
    """The worker's signal with no held request (or no listener yet) neither fails nor leaves anything."""
    run = queued(learner, replay_lab)
    finish(run)
    push.notify_run_finished(run.pk + 12345)
    assert not push.BOARD.waiting


def test_the_api_holds_the_same_way(learner: User, replay_lab: Lab, settings: Any,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /api/labs/runs/{id}?wait=true`` is held like the page's request and answers the finished record."""
    from tutor.services import issue_api_token

    settings.LAB_RUN_HOLD_SECONDS = 20
    monkeypatch.setattr(push, "RECHECK_SECONDS", 30)
    _, token = issue_api_token(user=learner, name="push")
    run = queued(learner, replay_lab)
    out: dict[str, Any] = {}

    def ask() -> None:
        started = time.monotonic()
        try:
            response = Client().get(f"/api/labs/runs/{run.pk}?wait=true", HTTP_AUTHORIZATION=f"Bearer {token}")
            out["seconds"], out["record"] = time.monotonic() - started, response.json()
            out["headers"] = dict(response.headers)
        finally:
            connections.close_all()
    thread = threading.Thread(target=ask)
    thread.start()
    time.sleep(1.0)
    finish(run)
    thread.join(timeout=10)
    assert out["record"]["finished_at"] and 1.0 <= out["seconds"] < 4.0
    assert "Retry-After" not in out.get("headers", {})


def test_the_api_says_when_to_ask_again_when_it_could_not_hold(learner: User, replay_lab: Lab,
                                                               settings: Any) -> None:
    """With every hold slot taken the unfinished record comes at once with ``Retry-After: 1``, so an API client
    does not spin; a held answer, a finished run and a plain read carry no such header."""
    from tutor.services import issue_api_token

    _, token = issue_api_token(user=learner, name="push")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    run = queued(learner, replay_lab)
    settings.LAB_RUN_HOLD_SECONDS, settings.LAB_RUN_HOLD_MAX = 5, 0
    started = time.monotonic()
    refused = Client().get(f"/api/labs/runs/{run.pk}?wait=true", **auth)
    assert time.monotonic() - started < 1.0
    assert refused.status_code == 200 and refused["Retry-After"] == "1" and refused.json()["finished_at"] is None
    assert "Retry-After" not in Client().get(f"/api/labs/runs/{run.pk}", **auth)
    settings.LAB_RUN_HOLD_SECONDS, settings.LAB_RUN_HOLD_MAX = 0.3, 4
    held = Client().get(f"/api/labs/runs/{run.pk}?wait=true", **auth)
    assert held.json()["finished_at"] is None and "Retry-After" not in held
    finish(run)
    settings.LAB_RUN_HOLD_MAX = 0
    done = Client().get(f"/api/labs/runs/{run.pk}?wait=true", **auth)
    assert done.json()["finished_at"] and "Retry-After" not in done
