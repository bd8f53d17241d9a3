"""Shared settings, driven by environment variables.

The default database is SQLite under ``var/`` so that ``make serve`` needs no
other service; ``DATABASE_URL`` points the site at PostgreSQL instead.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

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
    "lessons",
    "exercises.labs",
    "exercises.grounding",
    "exercises.evidence",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'tutor.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the task worker writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "tutor:sign-in"
LOGIN_REDIRECT_URL = "lessons:home"

LANGUAGE_CODE = "ko"
LANGUAGES = [("ko", _("한국어")), ("en", _("English"))]
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

# Sign-in throttling: this many failures within the window lock the
# username (and, separately, the client address) until the window passes.
SIGN_IN_MAX_FAILURES = int(os.environ.get("SIGN_IN_MAX_FAILURES", "5"))
SIGN_IN_WINDOW_SECONDS = int(os.environ.get("SIGN_IN_WINDOW_SECONDS", "900"))

# Demo accounts with generated passwords exist only where this is True.
DEMO_ACCOUNTS_ALLOWED = False

CONTENT_DIR = BASE_DIR / "lessons" / "content"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Labs: the sandbox limits of one run, and the queue's backpressure.
LAB_CPU_SECONDS = int(os.environ.get("LAB_CPU_SECONDS", "2"))
LAB_WALL_SECONDS = float(os.environ.get("LAB_WALL_SECONDS", "5"))
LAB_MEMORY_MB = int(os.environ.get("LAB_MEMORY_MB", "256"))
LAB_OUTPUT_KB = int(os.environ.get("LAB_OUTPUT_KB", "64"))
LAB_TMPFS_MB = int(os.environ.get("LAB_TMPFS_MB", "8"))
LAB_PROCESSES = int(os.environ.get("LAB_PROCESSES", "16"))
LAB_OPEN_FILES = int(os.environ.get("LAB_OPEN_FILES", "64"))
LAB_SANDBOX_SLOTS = int(os.environ.get("LAB_SANDBOX_SLOTS", "8"))
LAB_SANDBOX_UID_BASE = int(os.environ.get("LAB_SANDBOX_UID_BASE", "61000"))
LAB_SANDBOX_PYTHON = os.environ.get("LAB_SANDBOX_PYTHON", "/usr/bin/python3")
LAB_SANDBOX_BWRAP = os.environ.get("LAB_SANDBOX_BWRAP", "bwrap")
LAB_SANDBOX_STATE_DIR = Path(os.environ.get("LAB_SANDBOX_STATE_DIR", "/tmp/tutor-sandbox"))
LAB_CODE_MAX_BYTES = 64 * 1024
LAB_MAX_IN_FLIGHT_PER_LEARNER = 2
LAB_MAX_QUEUE_DEPTH = int(os.environ.get("LAB_MAX_QUEUE_DEPTH", "40"))
# A run still "running" this long after it started lost its worker.
LAB_STALE_AFTER_SECONDS = int(os.environ.get("LAB_STALE_AFTER_SECONDS", "60"))
LAB_WORKER_POLL_SECONDS = float(os.environ.get("LAB_WORKER_POLL_SECONDS", "0.05"))

# A peer reviewer's lease on a submission ends after this many hours unless reviewed or given back.
EVIDENCE_PEER_LEASE_HOURS = float(os.environ.get("EVIDENCE_PEER_LEASE_HOURS", "8"))
