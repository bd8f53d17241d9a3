"""Template context shared by every page."""

from __future__ import annotations

from django.http import HttpRequest

from . import access


def roles(request: HttpRequest) -> dict[str, bool]:
    """Which role-specific links to show; access itself is always checked by the selectors.

    An error page rendered before authentication ran (a bad Host header, say)
    has no ``request.user``; it shows the links of a visitor.
    """
    user = getattr(request, "user", None)
    return {"is_instructor": user is not None and access.is_instructor(user)}
