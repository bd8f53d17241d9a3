"""Request types that the middleware and the access checks guarantee, so views type-check.

Each is only a promise to the type checker about attributes Django adds at run
time; none changes behaviour.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class Request(HttpRequest):
    """A page request: django-htmx's middleware attaches ``htmx`` to every one."""

    htmx: HtmxDetails


class SignedInRequest(Request):
    """A page that refuses visitors first (``login_required`` or an ``access_*`` selector)."""

    user: User


class ApiRequest(HttpRequest):
    """A django-ninja request on a route that needs sign-in: ``auth`` is the person."""

    auth: User


class VisitorApiRequest(HttpRequest):
    """A django-ninja route open to visitors too (``auth=ANYONE``)."""

    auth: User | AnonymousUser
