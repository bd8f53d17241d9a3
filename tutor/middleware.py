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



class PrivateResponseMiddleware:
    """``Cache-Control: private, no-store`` on every response that may be personal.

    Personal: the person is signed in (a session or an API token), the request
    carried credentials, or the response sets or varies on the session cookie. No
    shared cache (a proxy, a CDN) and no disk cache then keeps a page, a fragment
    or a CSV export about someone. Public static files are left to whitenoise's
    far-future caching; a view may mark a response ``not_personal`` (the content
    of a published lesson's diagram), and it keeps its own header.

    Placed first after the request id, so it sees the headers the session, CSRF
    and authentication layers add on the way out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.static = "/" + settings.STATIC_URL.lstrip("/")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(self.static) or getattr(response, "not_personal", False):
            return response
        if self.personal(request, response):
            # Replaced, not merged: a "public" or "max-age" a view set must not survive beside "private".
            response["Cache-Control"] = "private, no-store"
        return response

    @staticmethod
    def personal(request: HttpRequest, response: HttpResponse) -> bool:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return True
        if getattr(request, "auth", None) is not None or "HTTP_AUTHORIZATION" in request.META:
            return True
        if settings.SESSION_COOKIE_NAME in response.cookies:
            return True
        return "cookie" in {part.strip().lower() for part in response.get("Vary", "").split(",")}


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
