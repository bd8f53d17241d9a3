"""Template context shared by every page."""

from __future__ import annotations

from django.http import HttpRequest

from . import access


def roles(request: HttpRequest) -> dict[str, bool]:
    """Which role-specific links to show; access itself is always checked by the selectors."""
    return {"is_instructor": access.is_instructor(request.user)}
