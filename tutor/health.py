"""``/healthz``: what a load balancer or a supervisor asks before sending this host traffic.

Checks the database (a query answers), the task queue (reachable; how many tasks
wait and for how long) and this host's sandbox (its latest worker self-test).
Answers 200 when all that apply pass and 503 otherwise, as JSON; a web-only host
where no worker ever checked reports the sandbox as not checked without failing.
Only ``{"status"}`` is public: the checks (host name, database vendor, queue
depth, failed self-test names, database error text) go to a bearer token
(``HEALTH_TOKEN``) or a private or loopback client address.
"""

from __future__ import annotations

import hmac
import ipaddress
import time
from typing import Any, Protocol

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from . import extensions
from .throttle import client_address


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


class HealthSource(Protocol):
    """An app with something of this host to check (labs: the sandbox's latest self-test here)."""

    def health_checks(self) -> dict[str, dict[str, Any]]:
        """Named checks, each ``{"ok": True | False | None, ...details}``; ``None`` is "not checked", not a failure."""
        ...


# Headers a proxy adds: seen without CLIENT_ADDRESS_HEADER set, the peer address is the proxy's, not the client's.
_PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def may_see_details(request: HttpRequest) -> bool:
    """The bearer token ``HEALTH_TOKEN``, or a private or loopback client address, sees the details.

    The address is the site's own client address (``tutor.throttle.client_address``,
    which reads the trusted proxy's header when one is configured). A request that
    came through a proxy the site was not told about counts as public: behind
    such a proxy every peer address is the proxy's own loopback address.
    """
    token = settings.HEALTH_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if token and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return True
    if not settings.CLIENT_ADDRESS_HEADER and any(request.META.get(name) for name in _PROXY_HEADERS):
        return False
    address = client_address(request)
    if address is None:
        return False
    ip = ipaddress.ip_address(address)
    return ip.is_private or ip.is_loopback


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Visitors read only ``{"status"}`` (and the 200/503); the details go to a token or a private address."""
    checks = {"database": check_database(), "queue": check_queue()}
    for app in extensions.providers(HealthSource):
        checks.update(app.health_checks())
    healthy = all(check["ok"] is not False for check in checks.values())
    body: dict[str, Any] = {"status": "ok" if healthy else "fail"}
    if may_see_details(request):
        body["checks"] = checks
    return JsonResponse(body, status=200 if healthy else 503)
