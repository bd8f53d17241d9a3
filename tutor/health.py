"""``/healthz``: what a load balancer or a supervisor asks before sending this host traffic.

Checks the database (a query answers), the task queue (reachable; how many tasks
wait and for how long) and this host's sandbox (its latest worker self-test).
Answers 200 when all that apply pass and 503 otherwise, as JSON; a web-only host
where no worker ever checked reports the sandbox as not checked without failing.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


def check_database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:200]}
    return {"ok": True, "vendor": connection.vendor, "ms": round((time.perf_counter() - started) * 1000, 1)}


def check_queue() -> dict[str, Any]:
    """The database task queue: ready tasks and the age of the oldest (stuck workers show here)."""
    backend = settings.TASKS["default"]["BACKEND"]
    if backend != "django_tasks_db.DatabaseBackend":
        return {"ok": True, "backend": backend, "detail": "not checked for this backend"}
    from django_tasks_db.models import DBTaskResult

    try:
        ready = DBTaskResult.objects.ready()
        waiting = ready.count()
        oldest = ready.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    except DatabaseError as exc:
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:200]}
    age = (timezone.now() - oldest).total_seconds() if oldest else 0.0
    return {"ok": age <= settings.HEALTHZ_MAX_QUEUE_AGE_SECONDS, "waiting": waiting,
            "oldest_wait_s": round(age, 1)}


def check_sandbox() -> dict[str, Any]:
    from exercises.labs.selectors import host_health, this_host

    try:
        health = host_health(this_host())
    except DatabaseError:
        return {"ok": False, "detail": "database unavailable"}
    if health is None:
        return {"ok": None, "host": this_host(), "detail": "no worker has checked this host"}
    failed = [item["name"] for item in health.detail if not item["contained"]]
    return {"ok": health.ok, "host": health.host, "checked_at": health.checked_at.isoformat(),
            "failed": failed}


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "queue": check_queue(), "sandbox": check_sandbox()}
    healthy = all(check["ok"] is not False for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "fail", "checks": checks},
                        status=200 if healthy else 503)
