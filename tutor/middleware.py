"""Turn a ``TutorError`` raised under a page into a Korean page (the API has its own handler)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from . import audit
from .errors import NotFound, SignInRequired, TutorError


class TutorErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, TutorError) or request.path.startswith("/api/"):
            return None
        if isinstance(exc, NotFound):
            audit.refused_access(request, exc)
        if isinstance(exc, SignInRequired):
            if getattr(request, "htmx", False):
                target = request.headers.get("HX-Current-URL", "/")
            else:
                target = request.get_full_path() if request.method == "GET" else "/"
            url = f"{reverse(settings.LOGIN_URL)}?{urlencode({'next': target})}"
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
