"""Settings for the test suite: fast hashing, no manifest, demo data allowed."""

import os
from pathlib import Path

# The suite runs in parallel processes (pytest-xdist, `make test`). Each process is set up as a host of its own
# would be: its own var folder (database file, the wake-up and push sockets, mail) and, below, its own sandbox
# slots and slot users, so one process's runs, hints and checks never reach another's. A worker process a test
# starts inherits both variables and finds the same folder.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    _var = Path(os.environ.get("TUTOR_VAR_DIR", Path(__file__).resolve().parents[2] / "var"))
    if _var.name != XDIST_WORKER:
        os.environ["TUTOR_VAR_DIR"] = str(_var / XDIST_WORKER)

from .base import *  # noqa: E402, F403

DEBUG = False
DEMO_ACCOUNTS_ALLOWED = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files straight from the source folders; no collectstatic needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405

# One seal key file for the whole run (the parent of the processes' own var folders): the processes start from one
# template database (tests/conftest.py), whose audit entries the course load sealed; each process must verify them.
# The controlling pytest process made the file when it read these settings, before any test process started.
if XDIST_WORKER:
    SEAL_KEYS_FILE = VAR_DIR.parent / "seal_keys"  # noqa: F405
    SEAL_KEYS = load_or_create_seal_keys(SEAL_KEYS_FILE)  # noqa: F405

# A file, not memory, so that the real task worker started by the browser tests
# (a separate process) reaches the same test database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405

# The suite's many short sample texts ("증거 글") are real submissions; the minimum's own tests set the default.
EVIDENCE_MIN_SUBMISSION_CHARS = 2

# Each test rolls its checks back; a file outside the database would outlive them. Tests that need it set one.
AUDIT_CHECKPOINT_FILE = None

# No daily job by the clock of the day the suite happens to run: a worker started by a test would otherwise
# claim the digest after 07:00 Seoul and add tasks and mail that a test counts. Tests that need the daily
# jobs set the hour (settings or the worker's environment).
NOTICES_DAILY_HOUR = int(os.environ.get("NOTICES_DAILY_HOUR", "24"))  # noqa: F405
# A held run-status request (exercises/labs/push.py) ends within 2 s, so a browser test's page left asking
# about a run no worker will take never holds the live server's shutdown for long.
LAB_RUN_HOLD_SECONDS = float(os.environ.get("LAB_RUN_HOLD_SECONDS", "2"))  # noqa: F405
# Each test sees the queue capacity its own rows give (no memo carried from one test into the next).
LAB_QUEUE_CAPACITY_CACHE_SECONDS = 0.0

if XDIST_WORKER:
    LAB_SANDBOX_STATE_DIR = VAR_DIR / "sandbox-slots"  # noqa: F405
    LAB_SANDBOX_UID_BASE += 100 * (int(XDIST_WORKER.removeprefix("gw") or 0) + 1)  # noqa: F405
