"""Settings for a deployment behind TLS.

``SECRET_KEY`` and ``ALLOWED_HOSTS`` must come from the environment; the
checks in ``tutor.checks`` refuse to start without them. Static files are
collected with hashed names (``collectstatic``) and served by whitenoise.
"""

import os

from .base import *  # noqa: F403

DEBUG = False
DEMO_ACCOUNTS_ALLOWED = False
SECURE_SSL_REDIRECT = True
# /healthz is asked by the load balancer over plain HTTP on the private side.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LOGGING["loggers"]["tutor.request"]["level"] = os.environ.get("REQUEST_LOG_LEVEL", "INFO")  # noqa: F405
LOGGING["root"]["level"] = os.environ.get("LOG_LEVEL", "INFO")  # noqa: F405
