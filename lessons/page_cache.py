"""A visitor's lesson page, rendered once for what it shows.

Every visitor (not signed in, no session or message cookie, no query string)
sees the same lesson page, so this process keeps the rendered page under a
digest of everything on it: the lesson's current version and publication, the
next lesson, the versions of the fixtures its text quotes, and what the apps that build on lessons list on it (each answers
``lesson_listing(lesson_id)`` with exactly the fields it shows). A change to any
of them is a new digest, so a visitor never gets a page older than the data;
the digest costs a few small queries instead of a full render. Signed-in
readers always get a fresh render: their page holds their own records.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from .models import FixtureVersion, Lesson

CACHE_ALIAS = "pages"


def is_plain_visitor(request: HttpRequest) -> bool:
    """Say whether the page would be the same for any visitor: nobody signed in, nothing personal sent."""
    return (not request.user.is_authenticated and not request.GET and not request.headers.get("HX-Request")
            and not set(request.COOKIES) - {settings.CSRF_COOKIE_NAME})


def lesson_page_key(lesson: Lesson, next_lesson: Lesson | None, fixtures: dict[str, FixtureVersion]) -> str:
    version = lesson.current_version
    shown: list[object] = [lesson.pk, lesson.order, lesson.is_published, translation.get_language(),
                           [version.pk, version.digest] if version else None,
                           [next_lesson.slug, next_lesson.order, next_lesson.current_version.title]
                           if next_lesson and next_lesson.current_version else None,
                           sorted((slug, v.pk) for slug, v in fixtures.items())]
    for config in apps.get_app_configs():
        listing = getattr(config, "lesson_listing", None)
        if listing is not None:
            shown.append([config.label, listing(lesson.pk)])
    digest = hashlib.sha256(json.dumps(shown, default=str, ensure_ascii=False).encode()).hexdigest()
    return f"lesson-page:{digest}"


def visitor_page(key: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """The page kept under ``key``, or ``render()``'s, kept when it is a plain 200 that sets no cookie."""
    cache = caches[CACHE_ALIAS]
    body = cache.get(key)
    if body is None:
        response = render()
        if response.status_code == 200 and not response.cookies:
            cache.set(key, response.content)
    else:
        response = HttpResponse(body)
    patch_vary_headers(response, ["Cookie"])
    return response
