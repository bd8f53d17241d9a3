"""The NinjaAPI root: authentication, the one problem+json error shape, and the app routers.

Token auth is tried first, so a token client is never caught by the CSRF
check that session auth applies to unsafe methods.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.renderers import JSONRenderer
from ninja.security import HttpBearer, SessionAuth
from ninja.security.base import AuthBase

from . import audit, services
from .errors import SignInRequired, TutorError
from .selectors import user_for_token

logger = logging.getLogger(__name__)


class KoreanJSONRenderer(JSONRenderer):
    """Keep Korean readable in responses instead of ``\\uXXXX`` escapes."""

    json_dumps_params = {"ensure_ascii": False}


class TokenAuth(HttpBearer):
    """``Authorization: Bearer gt_…``: a personal API token. A wrong token is refused, not ignored."""

    openapi_description = "개인 API 토큰 (내 계정 > API 토큰에서 발급)"

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = user_for_token(token)
        if user is None:
            services.record_bad_token(raw=token, path=request.path)
            raise SignInRequired("API 토큰이 올바르지 않거나 폐기되었습니다.")
        request.user = user
        return user


class Visitor(AuthBase):
    """Let a visitor through as ``AnonymousUser`` where the page is public too."""

    openapi_type = "http"

    def __init__(self) -> None:
        self.openapi_scheme = "anonymous"
        super().__init__()

    def __call__(self, request: HttpRequest) -> Any:
        return AnonymousUser()


SIGNED_IN = [TokenAuth(), SessionAuth()]
ANYONE = [TokenAuth(), SessionAuth(), Visitor()]

api = NinjaAPI(
    title="근거 튜터 API",
    version="1",
    description="레슨, 확인 문제, 내 학습 기록. 모든 오류는 application/problem+json 형식입니다.",
    auth=SIGNED_IN,
    urls_namespace="api",
    renderer=KoreanJSONRenderer(),
)


def problem(
    request: HttpRequest,
    *,
    status: int,
    code: str,
    title: str,
    detail: str,
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> HttpResponse:
    body: dict[str, Any] = {"type": f"/api/problems/{code}", "title": title, "status": status, "detail": detail, "code": code}
    if errors:
        body["errors"] = errors
    response = api.create_response(request, body, status=status)
    response["Content-Type"] = "application/problem+json; charset=utf-8"
    for name, value in (headers or {}).items():
        response[name] = value
    return response


@api.exception_handler(TutorError)
def tutor_error(request: HttpRequest, exc: TutorError) -> HttpResponse:
    audit.refused_access(request, exc)  # 403, 404, 409 and 429 met by a signed-in person
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return problem(request, status=exc.status, code=exc.code, title=str(exc.title), detail=exc.detail, headers=headers)


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [
        {"loc": [str(part) for part in error.get("loc", [])], "message": error.get("msg", ""), "type": error.get("type", "")}
        for error in exc.errors
    ]
    return problem(
        request, status=422, code="invalid_input", title="입력이 올바르지 않습니다",
        detail="요청 본문이나 값의 형식을 확인하세요.", errors=errors,
    )


@api.exception_handler(AuthenticationError)
def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return problem(request, status=401, code="sign_in_required", title="로그인이 필요합니다",
                   detail="로그인하거나 API 토큰을 보내세요.")


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if exc.status_code == 400:
        return problem(request, status=400, code="invalid_input", title="입력이 올바르지 않습니다",
                       detail="요청 본문을 JSON으로 읽을 수 없습니다.")
    if exc.status_code == 403 and "CSRF" in str(exc):
        audit.refused_request(request, status=403, action="access.csrf", reason="CSRF 확인 실패")
        return problem(request, status=403, code="csrf_failed", title="CSRF 확인에 실패했습니다",
                       detail="페이지를 새로 고친 뒤 다시 시도하거나, API 토큰을 쓰세요.")
    return problem(request, status=exc.status_code, code="http_error", title="요청을 처리할 수 없습니다", detail=str(exc))


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    audit.refused_request(request, status=404)
    return problem(request, status=404, code="not_found", title="찾을 수 없습니다", detail="찾을 수 없습니다.")


@api.exception_handler(Exception)
def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("API error on %s", request.path)
    return problem(request, status=500, code="server_error", title="서버에서 문제가 생겼습니다",
                   detail="잠시 뒤 다시 시도하세요. 문제가 계속되면 강사에게 알려 주세요.")


api.add_router("/", "lessons.api.router")
api.add_router("/labs/", "exercises.labs.api.router")
api.add_router("/grounding/", "exercises.grounding.api.router")
api.add_router("/evidence/", "exercises.evidence.api.router")
api.add_router("/cohorts", "tutor.cohorts.api.router")
api.add_router("/me/", "tutor.notices.api.router")
api.add_router("/cohorts/", "exercises.evidence.api.cohort_router")
