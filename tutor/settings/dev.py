"""Settings for ``make dev`` (the auto-reloading development server) and management commands."""

import os

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
DEMO_ACCOUNTS_ALLOWED = True
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files straight from the source folders; no collectstatic needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405

# Readable lines in a terminal instead of JSON.
if "LOG_FORMAT" not in os.environ:
    LOGGING["handlers"]["console"]["formatter"] = "text"  # noqa: F405
