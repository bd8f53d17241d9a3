"""Shared fixtures: the real course loaded from ``lessons/content``, and people in each role."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import django
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client

from lessons.models import Lesson
from lessons.services import load_course
from tests.smtp import smtp_server  # noqa: F401  (a real SMTP server for any test: tests/smtp.py)
from tutor.models import Cohort, Membership
from tutor.roles import CohortRole, Role

PASSWORD = "correct-horse-battery-staple"


# SQLite: the test database as migrated and loaded with the course, built by the first test process and copied by
# the others (``django_db_keepdb``). Building it takes each process about 5 s of CPU, and with four processes on two
# cores they all built at once at the start of the run.
TEMPLATE_BUILD: list[tuple[int, Path]] = []  # (the held lock, where to write) while this process builds it
TEMPLATE_COPIED: list[bool] = []


def _template() -> Path:
    """Where the template for this code lives: named by a digest of every migration, the course's files and the
    seal keys, so a template made before any of them changed is never used."""
    digest = hashlib.sha256(django.get_version().encode())
    digest.update(" ".join(key.key_id for key in settings.SEAL_KEYS).encode())  # the course load seals its entries
    base = Path(settings.BASE_DIR)
    files = sorted(p for p in base.glob("*/**/migrations/*.py") if ".venv" not in p.parts)
    files += sorted(p for p in Path(settings.CONTENT_DIR).rglob("*") if p.is_file())
    for path in files:
        digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes())
    return base / "var" / f"test-db-template-{digest.hexdigest()[:16]}.sqlite3"


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest, django_db_modify_db_settings: None) -> bool:
    """On SQLite, start from the template when there is one (and keep the copy: it is this process's own file);
    otherwise build the database while holding the template's lock, so the other processes wait for it and copy
    it instead of building their own. ``--reuse-db`` and ``--create-db`` keep pytest-django's meaning."""
    if request.config.getvalue("reuse_db"):
        return True
    if connection.vendor != "sqlite" or request.config.getvalue("create_db"):
        return False
    template = _template()
    template.parent.mkdir(parents=True, exist_ok=True)
    lock = os.open(template.with_suffix(".lock"), os.O_CREAT | os.O_RDWR, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    if template.exists():
        name = connection.settings_dict["TEST"]["NAME"]
        for leftover in (f"{name}-wal", f"{name}-shm"):  # a journal of an earlier run would be replayed onto the copy
            Path(leftover).unlink(missing_ok=True)
        shutil.copyfile(template, name)
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
        TEMPLATE_COPIED.append(True)
        return True
    TEMPLATE_BUILD.append((lock, template))  # released in django_db_setup once the template is written
    return False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """Load the real course once, into the test database, right after it is made.

    Loading it took about a second and most tests need it. A test runs in a transaction rolled back at its
    end, so whatever a test changes in the course is undone and the next test finds it as loaded here. A database
    copied from the template has it already.
    """
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        if not TEMPLATE_COPIED:
            load_course(content_dir=settings.CONTENT_DIR)
        take_snapshot()
    if TEMPLATE_BUILD:
        lock, template = TEMPLATE_BUILD.pop()
        partial = template.with_suffix(f".{os.getpid()}.part")
        target = sqlite3.connect(partial)
        SNAPSHOT[0].backup(target)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, whatever mode the source was in
        target.close()
        os.replace(partial, template)
        for older in template.parent.glob("test-db-template-*"):  # templates of code as it stood before
            if older.stem != template.stem:
                older.unlink(missing_ok=True)
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
    yield
    # A held run-status request starts a listener with its own database connection (exercises.labs.push);
    # it is closed before the test database is dropped, which PostgreSQL refuses while a session is open.
    from exercises.labs import push

    push.stop_listening()


# SQLite: the test database as it stood right after the course was loaded, kept in memory (see
# ``flush_past_the_append_only_triggers``).
SNAPSHOT: list[sqlite3.Connection] = []


def take_snapshot() -> None:
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        SNAPSHOT[:] = [sqlite3.connect(":memory:", check_same_thread=False)]
        connection.connection.backup(SNAPSHOT[0])


@pytest.fixture
def course(db: None) -> list[Lesson]:
    """The course as loaded from ``lessons/content``. A transactional test (browser, workers) empties the tables
    when it ends (on SQLite it puts the snapshot back instead: ``flush_past_the_append_only_triggers``), so after
    one the course is loaded again here; ``load_course`` changes nothing when it is there."""
    if not Lesson.objects.exists():
        load_course(content_dir=settings.CONTENT_DIR)
    return list(Lesson.objects.with_current())


@pytest.fixture
def lesson(course: list[Lesson]) -> Lesson:
    return Lesson.objects.with_current().get(slug="answer-from-sources")


@pytest.fixture
def cohort(db: None) -> Cohort:
    return Cohort.objects.create(name="테스트 기수")


def join(cohort: Cohort, user: User, role: str = CohortRole.LEARNER) -> Membership:
    """Make ``user`` an active member of ``cohort`` in ``role`` (replacing any role they held there)."""
    membership, _ = Membership.objects.update_or_create(
        cohort=cohort, user=user, defaults={"role": role, "status": Membership.Status.ACTIVE})
    return membership


@pytest.fixture
def make_user(db: None, cohort: Cohort) -> Callable[..., User]:
    """A user in a site group (instructors and fixture admins) and, unless told otherwise, a member of
    the test cohort: learners as learners, instructors as instructors, ``cohort_role`` for any other role."""

    def make(username: str, role: Role | None = Role.LEARNER, *, in_cohort: bool = True,
             cohort_role: str | None = None) -> User:
        user = User.objects.create_user(username=username, password=PASSWORD, email=f"{username}@example.com")
        if role is not None:
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
        if in_cohort and cohort_role is not None:
            join(cohort, user, cohort_role)
        elif in_cohort and role is Role.LEARNER:
            join(cohort, user, CohortRole.LEARNER)
        elif in_cohort and role is Role.INSTRUCTOR:
            join(cohort, user, CohortRole.INSTRUCTOR)
        return user

    return make


@pytest.fixture
def learner(make_user: Callable[..., User]) -> User:
    return make_user("learner")


@pytest.fixture
def other_learner(make_user: Callable[..., User]) -> User:
    return make_user("other")


@pytest.fixture
def instructor(make_user: Callable[..., User]) -> User:
    return make_user("teacher", Role.INSTRUCTOR)


@pytest.fixture
def fixture_admin(make_user: Callable[..., User]) -> User:
    return make_user("keeper", Role.FIXTURE_ADMIN)


def signed_in(user: User, **kwargs: object) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def learner_client(learner: User) -> Client:
    return signed_in(learner)


@pytest.fixture(autouse=True)
def no_page_kept_from_another_test() -> None:
    """Empty the visitors' page cache before each test.

    A test's requests share its transaction, and the rollback after the test
    takes the content revision back with the content, so the next test can reach
    the same revision number with other content. On a site a visitor's request
    only ever reads committed data, so a number never stands for two contents.
    """
    from django.core.cache import caches

    from lessons.page_cache import CACHE_ALIAS

    caches[CACHE_ALIAS].clear()


@pytest.fixture(scope="session", autouse=True)
def no_sandbox_process_left_behind() -> Iterator[None]:
    """After the whole suite, no live process of any sandbox slot user may remain (zombies have exited)."""
    yield
    if os.geteuid() != 0:
        return
    from exercises.labs import conf
    from exercises.labs.sandbox.selftest import leftover_processes

    leftover = leftover_processes(conf.sandbox_config())
    assert leftover == [], f"sandbox processes left behind: {leftover}"


@pytest.fixture
def drain_queue() -> Callable[[], None]:
    """Run the real django-tasks database worker until the queue is empty."""
    from django.core.management import call_command

    def drain() -> None:
        call_command("db_worker", batch=True, startup_delay=False, reload=False, interval=0.01, verbosity=0)

    return drain


@pytest.fixture(scope="session", autouse=True)
def flush_past_the_append_only_triggers() -> Iterator[None]:
    """Let the flush after a transactional test empty the audit table, and put the triggers back.

    The triggers refuse every DELETE and TRUNCATE of audit entries, including
    the test runner's own flush; only that flush is let through.

    On SQLite the flush puts the whole database back as it stood right after the course was first loaded
    (SQLite's online backup, page by page, in milliseconds): the state every other test starts from. Emptying
    the tables and loading the course again took about 2 s, and some 50 transactional tests need the course.
    """
    from django.core.management.commands import flush
    from django.db import connections

    from tutor import append_only

    original = flush.Command.handle

    def handle(self: flush.Command, **options: object) -> None:
        connection = connections[options.get("database") or "default"]
        if SNAPSHOT and connection.alias == "default" and not connection.in_atomic_block:
            connection.ensure_connection()
            SNAPSHOT[0].backup(connection.connection)
            return
        append_only.remove(connection)
        try:
            original(self, **options)
        finally:
            append_only.install(connection)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush.Command, "handle", handle)
        yield
