"""Settings for ``make serve``: the production server on one machine, over plain HTTP.

Everything production has (DEBUG off, hashed static files from ``collectstatic``
served by whitenoise, JSON logs) except TLS, which a classroom's own machine
rarely has, and with the demo accounts allowed so a fresh clone can be tried.
"""

import os

from .base import *  # noqa: F403

DEBUG = False
DEMO_ACCOUNTS_ALLOWED = True
LOGGING["loggers"]["tutor.request"]["level"] = os.environ.get("REQUEST_LOG_LEVEL", "INFO")  # noqa: F405
LOGGING["root"]["level"] = os.environ.get("LOG_LEVEL", "INFO")  # noqa: F405
