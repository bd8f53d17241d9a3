"""The one error type of the site.

Services and selectors raise a ``TutorError``; ``tutor.middleware`` turns it
into a Korean page and ``tutor.api`` into a problem+json body, so the pages
and the API refuse in the same words.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class TutorError(Exception):
    """A refusal that the person asking should read, in Korean."""

    status: int = 400
    code: str = "bad_request"
    title: str | Promise = _("요청을 처리할 수 없습니다")

    def __init__(self, detail: str | None = None, *, retry_after: int | None = None) -> None:
        # The class-level title is lazy; this instance gets plain strings in the
        # language active when it is raised, so JSON bodies never hold a proxy.
        self.title: str = str(self.title)
        self.detail = str(detail or self.title)
        self.retry_after = retry_after
        super().__init__(self.detail)


class NotFound(TutorError):
    """Missing, or not the asker's to see: both answer the same, so nothing leaks.

    An access check that refuses something that exists passes it as ``target``
    (and why as ``reason``); the audit log names it, the person asking never
    learns it.
    """

    status = 404
    code = "not_found"
    title = _("찾을 수 없습니다")

    def __init__(self, detail: str | None = None, *, target: Any = None, reason: str = "") -> None:
        super().__init__(detail)
        self.target = target
        self.reason = reason


class SignInRequired(TutorError):
    status = 401
    code = "sign_in_required"
    title = _("로그인이 필요합니다")


class Refused(TutorError):
    """Seen but not allowed, with a reason (for example a role the user lacks)."""

    status = 403
    code = "refused"
    title = _("허용되지 않은 요청입니다")


class Conflict(TutorError):
    status = 409
    code = "conflict"
    title = _("현재 상태에서는 할 수 없습니다")


class Throttled(TutorError):
    status = 429
    code = "throttled"
    title = _("요청이 너무 많습니다")
