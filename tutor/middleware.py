"""Request ids and timing, the body size limit, and ``TutorError`` turned into a Korean page.

(The API turns a ``TutorError`` into problem+json itself, in ``tutor.api``.)
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from . import audit, logs
from .errors import SignInRequired, TutorError

request_logger = logging.getLogger("tutor.request")
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")


class RequestIdMiddleware:
    """Give every request an id (kept from a trusted proxy's header when well-formed) and log it
    with the response's status and duration.

    The id is in every log line written while the request runs and in the
    ``X-Request-ID`` response header, so a learner's report can be matched to the logs.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.META.get(settings.REQUEST_ID_HEADER, "")
        rid = incoming if _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        token = logs.request_id.set(rid)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = rid
            request_logger.info(
                "%s %s %s", request.method, request.path, response.status_code,
                extra={"method": request.method, "path": request.path, "status": response.status_code,
                       "duration_ms": round((time.perf_counter() - started) * 1000, 1)},
            )
            return response
        finally:
            logs.request_id.reset(token)



class BodyLimitMiddleware:
    """Answer 413 (a Korean page, or problem+json under /api/) before reading a body over the limit.

    Placed after authentication so the page can show who is signed in, and
    before anything reads the body (the CSRF check reads form posts).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        length = request.META.get("CONTENT_LENGTH") or "0"
        if limit is not None and length.isascii() and length.isdigit() and int(length) > limit:
            from .views import too_large

            return too_large(request)
        return self.get_response(request)


def return_path(request: HttpRequest) -> str:
    """Where sign-in should bring the learner back: the page they were on, never another site.

    A GET is its own page; an htmx request names its page in HX-Current-URL; a
    plain form post came from its Referer. Only a path on this host is kept.
    """
    if getattr(request, "htmx", False):
        source = request.headers.get("HX-Current-URL", "")
    elif request.method == "GET":
        return request.get_full_path()
    else:
        source = request.headers.get("Referer", "")
    parts = urlsplit(source)
    if parts.netloc and parts.netloc != request.get_host():
        return "/"
    path = parts.path or "/"
    if not path.startswith("/") or path.startswith("//") or path == reverse(settings.LOGIN_URL):
        return "/"
    return path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


class TutorErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, TutorError) or request.path.startswith("/api/"):
            return None
        audit.refused_access(request, exc)  # 403, 404, 409 and 429 met by a signed-in person
        if isinstance(exc, SignInRequired):
            url = f"{reverse(settings.LOGIN_URL)}?{urlencode({'next': return_path(request)})}"
            if getattr(request, "htmx", False):
                # Stay on the page so nothing typed is lost; the browser keeps a draft copy.
                response = render(request, "errors/sign_in_fragment.html", {"sign_in_url": url}, status=401)
                response["HX-Retarget"] = "#problem-area"
                response["HX-Reswap"] = "innerHTML"
                return response
            return HttpResponseRedirect(url)
        context = {"status": exc.status, "title": exc.title, "detail": exc.detail}
        if getattr(request, "htmx", False):
            # Show the refusal beside the form that asked; nothing the user typed is replaced.
            response = render(request, "errors/problem_fragment.html", context, status=exc.status)
            response["HX-Retarget"] = "#problem-area"
            response["HX-Reswap"] = "innerHTML"
        else:
            response = render(request, "errors/problem.html", context, status=exc.status)
        if exc.retry_after:
            response["Retry-After"] = str(exc.retry_after)
        return response
