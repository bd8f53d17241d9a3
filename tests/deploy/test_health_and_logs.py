"""/healthz, request ids, JSON logs, and the settings a deployment relies on."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.test import Client

from exercises.labs.models import SandboxHealth
from exercises.labs.selectors import this_host
from tutor.logs import JsonFormatter, RequestIdFilter

pytestmark = pytest.mark.django_db

FAILED = [{"name": "fork_bomb", "contained": False, "status": "ok", "note": ""}]


def test_healthz_reports_database_queue_and_this_hosts_sandbox(client: Client) -> None:
    """All checks pass: 200 with each check's figures; a host no worker checked is 'not checked', not failing."""
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["queue"] == {"ok": True, "waiting": 0, "oldest_wait_s": 0.0}
    assert body["checks"]["sandbox"]["ok"] is None
    SandboxHealth.objects.create(ok=True, host=this_host(), worker=f"{this_host()}:1", detail=[])
    assert client.get("/healthz").json()["checks"]["sandbox"]["ok"] is True


def test_healthz_fails_when_this_hosts_sandbox_failed_but_not_for_another_host(client: Client) -> None:
    """Another host's failed self-test does not make this host unhealthy; this host's does (503)."""
    SandboxHealth.objects.create(ok=False, host="elsewhere", worker="elsewhere:1", detail=FAILED)
    assert client.get("/healthz").status_code == 200
    SandboxHealth.objects.create(ok=False, host=this_host(), worker=f"{this_host()}:2", detail=FAILED)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["checks"]["sandbox"]["failed"] == ["fork_bomb"]


def test_healthz_fails_when_a_task_waits_too_long(client: Client, settings) -> None:
    """A queue nobody takes from (no worker running) turns /healthz to 503."""
    from exercises.labs.tasks import execute_lab_run

    settings.HEALTHZ_MAX_QUEUE_AGE_SECONDS = -1
    execute_lab_run.enqueue(run_id=0)
    body = client.get("/healthz").json()
    assert body["status"] == "fail" and body["checks"]["queue"]["waiting"] == 1


def test_every_response_carries_a_request_id_and_keeps_a_well_formed_one(client: Client) -> None:
    """A fresh id per request, or the proxy's id when it is well-formed; junk is replaced."""
    first, second = client.get("/"), client.get("/")
    assert len(first["X-Request-ID"]) == 32 and first["X-Request-ID"] != second["X-Request-ID"]
    assert client.get("/", HTTP_X_REQUEST_ID="proxy-abc-12345")["X-Request-ID"] == "proxy-abc-12345"
    assert client.get("/", HTTP_X_REQUEST_ID="<script>")["X-Request-ID"] != "<script>"


def test_log_lines_are_json_with_the_request_id(client: Client, settings) -> None:
    """Each request is logged as one JSON line that carries its id, status and duration."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tutor.request")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        response = client.get("/lessons/")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    entry = json.loads(stream.getvalue().strip().splitlines()[-1])
    assert entry["request_id"] == response["X-Request-ID"]
    assert entry["status"] == 200 and entry["path"] == "/lessons/" and entry["duration_ms"] >= 0


def test_an_english_browser_gets_korean_pages_marked_as_korean(client: Client) -> None:
    """The site has only Korean messages, so it never claims lang="en"."""
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert 'lang="ko"' in page and 'lang="en"' not in page


def test_a_bad_host_header_gets_a_korean_400_not_a_500(client: Client) -> None:
    """Django refuses an unknown Host before authentication runs; the error page must still render."""
    client.raise_request_exception = False
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and "잘못된 요청" in response.content.decode()
