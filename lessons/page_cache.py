"""Visitors' pages, rendered once per content revision.

Every visitor (not signed in, no session or message cookie, no query string)
sees the same lesson page and catalogue, so this process keeps the rendered
page under the content revision (``lessons.revision``), which the database
raises on any change to lessons, versions, fixtures, labs, exercises or tasks.
A kept page is therefore never older than the data, and a visit costs one
small query instead of a render. Signed-in readers always get a fresh render:
their pages hold their own records. Only a plain 200 that sets no cookie is
kept, so a 404 or an error is never served from here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from . import revision

CACHE_ALIAS = "pages"


def is_plain_visitor(request: HttpRequest) -> bool:
    """Say whether the page would be the same for any visitor: nobody signed in, nothing personal sent."""
    return (not request.user.is_authenticated and not request.GET and not request.headers.get("HX-Request")
            and not set(request.COOKIES) - {settings.CSRF_COOKIE_NAME})


def for_visitors(name: str, request: HttpRequest, render: Callable[[], HttpResponse]) -> HttpResponse:
    """``render()``'s page, or for a plain visitor the one kept under ``name`` at the current revision."""
    if not is_plain_visitor(request):
        return render()
    number = revision.current()
    if number is None:
        return render()
    cache = caches[CACHE_ALIAS]
    # Hashed: the name carries a slug from the URL, which may be anything up to the URL's length.
    key = hashlib.sha256(f"{name}:{number}:{translation.get_language()}".encode()).hexdigest()
    body = cache.get(key)
    if body is None:
        response = render()
        if response.status_code == 200 and not response.cookies:
            cache.set(key, response.content)
    else:
        response = HttpResponse(body)
    patch_vary_headers(response, ["Cookie"])
    return response
