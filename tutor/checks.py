"""System checks for the promises the settings must keep."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core import checks

FORBIDDEN_SOURCES = {"'unsafe-inline'", "'unsafe-eval'"}


@checks.register(checks.Tags.security, deploy=False)
def check_csp(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Refuse a Content-Security-Policy that would allow inline script or style, or eval."""
    directives = getattr(settings, "CONTENT_SECURITY_POLICY", {}).get("DIRECTIVES", {})
    errors: list[checks.CheckMessage] = []
    for name, sources in directives.items():
        bad = FORBIDDEN_SOURCES.intersection(sources)
        if bad:
            errors.append(checks.Error(f"CSP {name} allows {', '.join(sorted(bad))}.", id="tutor.E001"))
    if not directives.get("script-src"):
        errors.append(checks.Error("CSP has no script-src.", id="tutor.E002"))
    return errors


@checks.register(checks.Tags.security, deploy=True)
def check_production_settings(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """In a deployment the secret must come from the environment and demo accounts must be off."""
    errors: list[checks.CheckMessage] = []
    if not os.environ.get("SECRET_KEY"):
        errors.append(checks.Warning("SECRET_KEY is not set in the environment.", id="tutor.W001"))
    if settings.DEMO_ACCOUNTS_ALLOWED:
        errors.append(checks.Warning("DEMO_ACCOUNTS_ALLOWED is on.", id="tutor.W002"))
    return errors


@checks.register(checks.Tags.security)
def check_seal_keys(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """The seal key must be its own secret: never SECRET_KEY, so neither rotation touches the other."""
    errors: list[checks.CheckMessage] = []
    if any(key.secret == settings.SECRET_KEY for key in settings.SEAL_KEYS):
        errors.append(checks.Error("A seal key equals SECRET_KEY; give SEAL_KEYS its own secret.", id="tutor.E003"))
    return errors


@checks.register(checks.Tags.security, deploy=True)
def check_seal_keys_from_environment(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    if not os.environ.get("SEAL_KEYS"):
        return [checks.Warning("SEAL_KEYS is not set in the environment (using var/seal_keys).", id="tutor.W003")]
    return []


@checks.register(checks.Tags.security, deploy=True)
def check_mail_server(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """A deployment without EMAIL_HOST writes its mail (password resets, invitations) to files nobody reads."""
    if not settings.EMAIL_HOST:
        return [checks.Warning("EMAIL_HOST is not set: mail is written to var/mail/ instead of being sent.",
                               id="tutor.W004")]
    return []
