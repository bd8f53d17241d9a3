"""Shared settings, driven by environment variables.

The default database is SQLite under ``var/`` so that ``make serve`` needs no
other service; ``DATABASE_URL`` points the site at PostgreSQL instead.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
from django.utils.translation import gettext_lazy as _

from tutor import gunicorn_conf
from tutor.keys import load_or_create_seal_keys

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("TUTOR_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no environment variable; unset means ``default``."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def load_or_create_secret_key(path: Path) -> str:
    """Return ``SECRET_KEY`` from the environment, or from a file made once.

    The generated key lives under ``var/`` (ignored by git), so no key is ever
    committed and a restart keeps sessions valid.
    """
    if key := os.environ.get("SECRET_KEY"):
        return key
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key)
        return key


SECRET_KEY = load_or_create_secret_key(VAR_DIR / "secret_key")
# HMAC keys that seal lab run records and chain the audit log; never SECRET_KEY (tutor/keys.py).
SEAL_KEYS_FILE = VAR_DIR / "seal_keys"
SEAL_KEYS = load_or_create_seal_keys(SEAL_KEYS_FILE)
# The newest audit check's position and seal, kept where the database is not (tutor.audit); empty: not kept.
AUDIT_CHECKPOINT_FILE = os.environ.get("AUDIT_CHECKPOINT_FILE", str(VAR_DIR / "audit_checkpoint")) or None
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "ninja",
    "django_tasks",
    "django_tasks_db",
    "tutor",
    "tutor.mail",
    "tutor.notices",
    "lessons",
    "exercises.labs",
    "exercises.grounding",
    "exercises.evidence",
]

MIDDLEWARE = [
    "tutor.middleware.RequestIdMiddleware",
    "tutor.middleware.PrivateResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tutor.middleware.BodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tutor.middleware.TutorErrorMiddleware",
]

ROOT_URLCONF = "tutor.urls"
WSGI_APPLICATION = "tutor.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tutor.context_processors.roles",
            ],
            # ``visible``: one person's text shown to another with its hidden characters marked (tutor.text).
            "builtins": ["tutor.templatetags.text"],
        },
    },
]

# "pages" holds visitors' lesson pages and catalogue, per process, under the content revision (lessons.page_cache).
# "default" holds the rate limits' counters: a database table every process and host shares
# (`manage.py createcachetable`; make serve, the deploy unit and the test database create it).
CACHES = {
    "default": {"BACKEND": "tutor.cache.AtomicDatabaseCache", "LOCATION": "tutor_cache"},
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages", "TIMEOUT": 3600,
              "OPTIONS": {"MAX_ENTRIES": 500}},
}

DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{VAR_DIR / 'tutor.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web processes read while the task worker writes; a writer waits
    # up to 20 s for the lock (busy timeout) instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        # recursive_triggers: INSERT OR REPLACE must fire the audit log's DELETE trigger (tutor.append_only).
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA recursive_triggers=ON;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    })
# Persistent connections: opening one per request (with SQLite's pragmas, or a PostgreSQL
# handshake) cost more than a kept page takes to serve. Health checks drop a connection the
# server closed meanwhile.
DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "300"))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A person signs in with their username or their e-mail address (tutor.auth_backends).
AUTHENTICATION_BACKENDS = ["tutor.auth_backends.UsernameOrEmailBackend"]
LOGIN_URL = "tutor:sign-in"
# Password reset links are valid this long (Django's setting; the link also dies once used).
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(60 * 60 * 24)))
LOGIN_REDIRECT_URL = "lessons:home"

LANGUAGE_CODE = "ko"
# Korean only: the site has no translations, so it never claims another language.
LANGUAGES = [("ko", _("한국어"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Seoul"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Cohorts (tutor.cohorts): an invitation link works this many days; a roster upload holds at most
# this many rows (one request; larger classes upload in parts).
INVITATION_EXPIRY_DAYS = int(os.environ.get("INVITATION_EXPIRY_DAYS", "7"))
ROSTER_MAX_ROWS = int(os.environ.get("ROSTER_MAX_ROWS", "1000"))

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "tutor.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# No inline script or style anywhere, no eval: htmx is configured (see
# base.html) not to inject its indicator styles and not to evaluate code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Sign-in throttling (tutor.throttle): failures are counted per account and
# address pair, per account and per address. Past each key's free allowance the
# next attempt must wait, doubling from SIGN_IN_BACKOFF_SECONDS up to its cap;
# a quiet window of SIGN_IN_WINDOW_SECONDS forgets the failures. Nobody is ever
# locked out for longer than a cap.
SIGN_IN_MAX_FAILURES = int(os.environ.get("SIGN_IN_MAX_FAILURES", "5"))
SIGN_IN_WINDOW_SECONDS = int(os.environ.get("SIGN_IN_WINDOW_SECONDS", "900"))
SIGN_IN_BACKOFF_SECONDS = float(os.environ.get("SIGN_IN_BACKOFF_SECONDS", "2"))
SIGN_IN_MAX_BACKOFF_SECONDS = int(os.environ.get("SIGN_IN_MAX_BACKOFF_SECONDS", "900"))
# The header a trusted reverse proxy sets to the client's address, as Django names
# it in request.META (e.g. "HTTP_X_FORWARDED_FOR" or "HTTP_X_REAL_IP"). Unset: the
# peer address (REMOTE_ADDR) is the client. Never set it without such a proxy in
# front, or any client can claim any address.
CLIENT_ADDRESS_HEADER = os.environ.get("CLIENT_ADDRESS_HEADER", "")
# For X-Forwarded-For: how many proxies we run in front of the site; the client is
# the address that many entries from the right.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))
# /healthz shows its details (host, database, queue, self-test) only with this bearer token or from a
# private or loopback client address; everyone else reads {"status"} alone. Empty: no token accepted.
HEALTH_TOKEN = os.environ.get("HEALTH_TOKEN", "")

# Request bodies: above this the site answers 413 (problem+json under /api/).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(5 * 512 * 1024)))  # 2.5 MiB

# Demo accounts with generated passwords exist only where this is True.
DEMO_ACCOUNTS_ALLOWED = False

CONTENT_DIR = BASE_DIR / "lessons" / "content"

# One JSON object per line (LOG_FORMAT=json, the default outside `make dev`), each
# with the request id that the response also carries as X-Request-ID.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json")
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "tutor.logs.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "tutor.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": LOG_FORMAT if LOG_FORMAT in {"json", "text"} else "json",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "tutor.request": {"level": os.environ.get("REQUEST_LOG_LEVEL", "WARNING")},
    },
}
# A request id arriving in this header (from a trusted proxy) is kept; otherwise one is made.
REQUEST_ID_HEADER = os.environ.get("REQUEST_ID_HEADER", "HTTP_X_REQUEST_ID")

# Labs: the sandbox limits of one run, and the queue's backpressure.
LAB_CPU_SECONDS = int(os.environ.get("LAB_CPU_SECONDS", "2"))
LAB_WALL_SECONDS = float(os.environ.get("LAB_WALL_SECONDS", "5"))
LAB_MEMORY_MB = int(os.environ.get("LAB_MEMORY_MB", "256"))
LAB_OUTPUT_KB = int(os.environ.get("LAB_OUTPUT_KB", "64"))
LAB_TMPFS_MB = int(os.environ.get("LAB_TMPFS_MB", "8"))
LAB_PROCESSES = int(os.environ.get("LAB_PROCESSES", "16"))
LAB_OPEN_FILES = int(os.environ.get("LAB_OPEN_FILES", "64"))
LAB_SANDBOX_SLOTS = int(os.environ.get("LAB_SANDBOX_SLOTS", "8"))
# Slot n runs as uid 62000+n when the worker is root (61000+n was the old scheme's, with /tmp locks).
LAB_SANDBOX_UID_BASE = int(os.environ.get("LAB_SANDBOX_UID_BASE", "62000"))
LAB_SANDBOX_PYTHON = os.environ.get("LAB_SANDBOX_PYTHON", "/usr/bin/python3")
LAB_SANDBOX_BWRAP = os.environ.get("LAB_SANDBOX_BWRAP", "bwrap")
# Host-wide slot locks; empty means /run/geungeo-tutor-sandbox for root, a private folder otherwise.
LAB_SANDBOX_STATE_DIR = Path(os.environ["LAB_SANDBOX_STATE_DIR"]) if os.environ.get("LAB_SANDBOX_STATE_DIR") else None
# "0" turns the per-run cgroups off (the rlimit-only fallback), e.g. to test that path.
LAB_SANDBOX_CGROUPS = os.environ.get("LAB_SANDBOX_CGROUPS", "1") != "0"
LAB_CODE_MAX_BYTES = 64 * 1024
LAB_MAX_IN_FLIGHT_PER_LEARNER = 2
# The queue cap: a run is accepted while the live workers would start it within LAB_QUEUE_PROMISE_SECONDS
# (their threads × the promise ÷ a recent run's time on a worker, read every LAB_QUEUE_CAPACITY_CACHE_SECONDS),
# never fewer than LAB_QUEUE_FLOOR queued runs nor more than LAB_MAX_QUEUE_DEPTH; past it, 429 with Retry-After.
LAB_QUEUE_PROMISE_SECONDS = int(os.environ.get("LAB_QUEUE_PROMISE_SECONDS", "10"))
LAB_QUEUE_FLOOR = int(os.environ.get("LAB_QUEUE_FLOOR", "10"))
LAB_MAX_QUEUE_DEPTH = int(os.environ.get("LAB_MAX_QUEUE_DEPTH", "2000"))
LAB_QUEUE_CAPACITY_CACHE_SECONDS = float(os.environ.get("LAB_QUEUE_CAPACITY_CACHE_SECONDS", "5"))
# A run still "running" this long after it started lost its worker.
# A run's page holds its status request open until the run ends (exercises/labs/push.py), at most this long,
# and each web process holds at most LAB_RUN_HOLD_MAX such requests (each holds a gunicorn thread, so keep it
# below GUNICORN_THREADS; three processes x 12 hold a class of 30 clicking at once without anyone polling).
LAB_RUN_HOLD_SECONDS = float(os.environ.get("LAB_RUN_HOLD_SECONDS", "5"))
LAB_RUN_HOLD_MAX = int(os.environ.get("LAB_RUN_HOLD_MAX", "12"))
# The web server's threads per process, read from tutor/gunicorn_conf.py itself (one default, one variable): the
# system check labs.W004 keeps LAB_RUN_HOLD_MAX below it, so held run pages never take every thread.
GUNICORN_THREADS = gunicorn_conf.threads
LAB_STALE_AFTER_SECONDS = int(os.environ.get("LAB_STALE_AFTER_SECONDS", "60"))
LAB_WORKER_POLL_SECONDS = float(os.environ.get("LAB_WORKER_POLL_SECONDS", "0.05"))
# Runs one worker process executes at once. A run mostly waits (namespaces, exec, the program's own
# pauses), so a few at once keep the cores busy; the host-wide sandbox slots still bound the total.
LAB_WORKER_THREADS = int(os.environ.get("LAB_WORKER_THREADS", "3"))
# Task worker processes `manage.py serve` starts.
TASK_WORKERS = int(os.environ.get("TASK_WORKERS", "2"))
# Sandboxes each worker keeps made ahead of their runs (exercises/labs/sandbox/warm.py), at most its
# threads; each waits in a slot of its own, so TASK_WORKERS × (LAB_WORKER_THREADS + LAB_WARM_SANDBOXES)
# should fit in LAB_SANDBOX_SLOTS (a system check says so). 0 turns them off: every run starts cold.
LAB_WARM_SANDBOXES = int(os.environ.get("LAB_WARM_SANDBOXES", "1"))

# A peer reviewer's lease on a submission ends after this many hours unless reviewed or given back.
EVIDENCE_PEER_LEASE_HOURS = float(os.environ.get("EVIDENCE_PEER_LEASE_HOURS", "8"))
# A submission counts (and opens the peer step) only with at least this many letters or digits (tutor.text).
EVIDENCE_MIN_SUBMISSION_CHARS = int(os.environ.get("EVIDENCE_MIN_SUBMISSION_CHARS", "20"))
# An idle worker waits for a wake-up (LISTEN/NOTIFY on PostgreSQL, a socket on
# SQLite), polling at most this rarely in case one was missed.
LAB_WORKER_IDLE_POLL_SECONDS = float(os.environ.get("LAB_WORKER_IDLE_POLL_SECONDS", "2"))
# A worker silent this long (no heartbeat) no longer counts for the site's sandbox verdict.
LAB_WORKER_SILENT_AFTER_SECONDS = int(os.environ.get("LAB_WORKER_SILENT_AFTER_SECONDS", "90"))
# A worker whose host failed the self-test takes no runs and repeats the test this often.
LAB_SELFTEST_RETRY_SECONDS = float(os.environ.get("LAB_SELFTEST_RETRY_SECONDS", "60"))
# A worker starting within this many seconds of a pass this host recorded (same boot, sandbox configuration,
# interpreter and pool size; sealed in VAR_DIR/sandbox-selftest.json) starts on that pass instead of burning
# the catalogue's CPU again: a restart or a second worker. 0 runs the test at every start.
LAB_SELFTEST_REUSE_SECONDS = float(os.environ.get("LAB_SELFTEST_REUSE_SECONDS", "600"))
# /healthz fails when the oldest waiting task has waited longer than this (no worker takes it).
HEALTHZ_MAX_QUEUE_AGE_SECONDS = int(os.environ.get("HEALTHZ_MAX_QUEUE_AGE_SECONDS", "60"))

# Mail (tutor.mail): Django's own settings, from the environment. Every message is queued in
# the database and sent once by the task worker after the transaction that queued it commits.
# Without EMAIL_HOST each message is written to var/mail/ as an .eml file instead.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if EMAIL_USE_TLS else "465" if EMAIL_USE_SSL else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "근거 튜터 <no-reply@localhost>")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_FILE_PATH = VAR_DIR / "mail"
# The site's address for links in mail sent without a request (commands, the worker), e.g.
# "https://tutor.school.example". Unset: links use the address of the request that caused the mail.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
# The hour (Seoul time, 0-23) from which a worker makes the day's notices: teachers' digest, "due tomorrow".
NOTICES_DAILY_HOUR = int(os.environ.get("NOTICES_DAILY_HOUR", "7"))
# The most peer reviews one learner holds or has done per task (point 5 of issue 19); 0 = no cap.
EVIDENCE_PEER_CAP = int(os.environ.get("EVIDENCE_PEER_CAP", "3"))
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "tutor.mail.backends.EmlFileBackend")

# Retention (tutor.accounts): accounts nobody signed in to for this many days are deleted by
# `manage.py delete_inactive_accounts` (run it daily). 0, the default, keeps every account.
INACTIVE_ACCOUNT_DELETE_DAYS = int(os.environ.get("INACTIVE_ACCOUNT_DELETE_DAYS", "0"))
