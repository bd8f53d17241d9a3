"""What the web side gives away, from an outsider's side: /healthz details, personal pages kept by
caches, and a rate limit that each server process counted on its own."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import DatabaseError, connection, connections
from django.test import Client
from django.urls import reverse

from exercises.labs.models import SandboxHealth
from exercises.labs.selectors import this_host
from lessons.models import Lesson
from tests.conftest import signed_in

PUBLIC = "93.184.216.34"  # a public address (Python counts the documentation ranges as private)


# -- /healthz -------------------------------------------------------------------------------------------------------


def health(client: Client, **extra: str) -> dict:
    return client.get("/healthz", **extra).json()


@pytest.mark.django_db
def test_a_visitor_from_a_public_address_reads_the_status_only() -> None:
    """Before: host name, database vendor, queue depth and failed self-test names went to anyone."""
    SandboxHealth.objects.create(ok=False, host=this_host(), worker=f"{this_host()}:1",
                                 detail=[{"name": "fork_bomb", "contained": False, "status": "ok", "note": ""}])
    response = Client(REMOTE_ADDR=PUBLIC).get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "fail"}
    text = response.content.decode()
    assert this_host() not in text and connection.vendor not in text and "fork_bomb" not in text


@pytest.mark.django_db
def test_the_database_error_text_never_reaches_a_visitor(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor import health as health_module

    def broken(*args: object, **kwargs: object) -> None:
        raise DatabaseError('connection to server at "db.internal" (10.0.0.5), port 5432 failed')

    monkeypatch.setattr(health_module.connection, "cursor", broken)
    response = Client(REMOTE_ADDR=PUBLIC).get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "fail"}
    assert "db.internal" not in response.content.decode()
    assert "db.internal" in Client().get("/healthz").content.decode(), "loopback still sees why"


@pytest.mark.django_db
def test_details_go_to_the_health_token_or_a_private_address(settings) -> None:
    settings.HEALTH_TOKEN = "h" * 40
    outsider = Client(REMOTE_ADDR=PUBLIC)
    assert "checks" not in health(outsider, HTTP_AUTHORIZATION="Bearer wrong-token")
    assert health(outsider, HTTP_AUTHORIZATION=f"Bearer {'h' * 40}")["checks"]["database"]["vendor"] == connection.vendor
    assert "checks" in health(Client(REMOTE_ADDR="10.1.2.3"))
    assert "checks" in health(Client(REMOTE_ADDR="127.0.0.1"))
    settings.HEALTH_TOKEN = ""
    assert "checks" not in health(outsider, HTTP_AUTHORIZATION="Bearer "), "an empty token is no token"


@pytest.mark.django_db
def test_behind_a_proxy_the_client_address_decides_not_the_proxys(settings) -> None:
    """The proxy connects from loopback; only the address it reports for the client counts."""
    through_proxy = Client(REMOTE_ADDR="127.0.0.1")
    # Proxy not configured: a forwarded request is treated as public, whatever it claims.
    assert "checks" not in health(through_proxy, HTTP_X_FORWARDED_FOR=PUBLIC)
    assert "checks" not in health(through_proxy, HTTP_X_FORWARDED_FOR="10.0.0.1")
    settings.CLIENT_ADDRESS_HEADER, settings.TRUSTED_PROXY_COUNT = "HTTP_X_FORWARDED_FOR", 1
    assert "checks" not in health(through_proxy, HTTP_X_FORWARDED_FOR=PUBLIC)
    # A client writing a private address at the left of the header does not pass for one.
    assert "checks" not in health(through_proxy, HTTP_X_FORWARDED_FOR=f"10.0.0.1, {PUBLIC}")
    assert "checks" in health(through_proxy, HTTP_X_FORWARDED_FOR="10.0.0.7")


# -- Cache-Control on personal responses ------------------------------------------------------------------------------


def assert_private(response) -> None:
    value = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert {"private", "no-store"} <= value and "public" not in value, response.get("Cache-Control")


@pytest.mark.parametrize("name", ["lessons:home", "lessons:progress", "lessons:catalogue", "tutor:api-tokens"])
def test_personal_pages_are_private_and_never_stored(name: str, learner: User, course: list[Lesson]) -> None:
    """Before: no Cache-Control, so a shared proxy or the disk cache could keep a learner's page."""
    response = signed_in(learner).get(reverse(name))
    assert response.status_code == 200
    assert_private(response)


def test_csv_exports_and_the_api_are_private(instructor: User, learner: User, course: list[Lesson]) -> None:
    client = signed_in(instructor)
    for name in ("evidence:export", "evidence:gradebook"):
        response = client.get(reverse(name))
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv"), name
        assert_private(response)
    assert_private(signed_in(learner).get("/api/me/progress"))
    assert_private(signed_in(learner).get("/healthz"))


def test_a_lesson_page_for_a_signed_in_person_is_private_even_if_a_visitor_would_share_it(
    lesson: Lesson, learner: User
) -> None:
    assert_private(signed_in(learner).get(reverse("lessons:detail", args=[lesson.slug])))


def test_the_sign_in_page_that_sets_a_session_or_csrf_cookie_is_private(db: None) -> None:
    assert_private(Client().get(reverse("tutor:sign-in")))


def test_public_static_files_are_not_marked_personal(learner: User) -> None:
    """The rule spares public static files, even fetched by a signed-in person."""
    response = signed_in(learner).get(f"/{settings.STATIC_URL.lstrip('/')}css/site.css")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


# -- A rate limit every process shares -----------------------------------------------------------------------------


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


COUNTER = """
import json, sys, django
django.setup()
from django.contrib.auth.models import User
from exercises.grounding import services
from tutor.errors import Throttled
services.clock = lambda: float(sys.argv[2])
user = User.objects.get(pk=int(sys.argv[1]))
accepted = 0
for _ in range(int(sys.argv[3])):
    try:
        services.count_suggest_request(user=user)
        accepted += 1
    except Throttled:
        pass
print(json.dumps(accepted))
"""


@pytest.fixture
def committed_cache(transactional_db: None) -> Iterator[None]:
    """These tests commit cache rows, which the flush after them does not empty (not a model's table)."""
    yield
    cache.clear()


@pytest.mark.usefixtures("committed_cache")
def test_the_suggest_limit_holds_across_two_server_processes(make_user: Callable[..., User]) -> None:
    """Before: each process counted in its own memory, so two processes accepted twice the limit."""
    import os

    learner = make_user("counted")
    now = str(time.time() // 60 * 60 + 5)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tutor.settings.test", "DATABASE_URL": database_url(),
           "PYTHONPATH": str(settings.BASE_DIR)}
    processes = [subprocess.Popen([sys.executable, "-c", COUNTER, str(learner.pk), now, "40"],
                                  cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(2)]
    accepted = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        accepted.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(accepted) == 60, f"the limit is 60 a minute for the whole site, accepted {accepted}"


@pytest.mark.usefixtures("committed_cache")
def test_the_increment_is_atomic_between_connections() -> None:
    """Four threads, each with its own database connection, add 25 each: no increment is lost."""
    cache.add("race", 0, timeout=60)
    errors: list[BaseException] = []

    def bump() -> None:
        try:
            for _ in range(25):
                cache.incr("race")
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and cache.get("race") == 100


def test_the_default_cache_is_the_shared_database_table() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "tutor.cache.AtomicDatabaseCache"
