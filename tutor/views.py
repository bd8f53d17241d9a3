"""Pages of the core app: sign-in, sign-out, API tokens, and the Korean error pages."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tutor.http import SignedInRequest

from . import audit, selectors, services
from .forms import SignInForm, TokenForm


class SignInView(auth_views.LoginView):
    template_name = "tutor/sign_in.html"
    authentication_form = SignInForm
    redirect_authenticated_user = True


class SignOutView(auth_views.LogoutView):
    template_name = "tutor/signed_out.html"


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: SignedInRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    new_secret = None
    if request.method == "POST" and form.is_valid():
        _, new_secret = services.issue_api_token(user=request.user, name=form.cleaned_data["name"])
        form = TokenForm()
    return render(
        request, "tutor/api_tokens.html",
        {"form": form, "tokens": selectors.tokens_of(request.user), "new_secret": new_secret},
    )


@login_required
@require_POST
def revoke_api_token(request: SignedInRequest, token_id: int) -> HttpResponse:
    services.revoke_api_token(user=request.user, token_id=token_id)
    messages.success(request, gettext("토큰을 폐기했습니다. 이 토큰을 쓰던 클라이언트는 더 이상 접속할 수 없습니다."))
    return redirect("tutor:api-tokens")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    audit.refused_request(request, status=403, action="access.csrf", reason="CSRF 확인 실패")
    return render(
        request, "errors/problem.html",
        {"status": 403, "title": gettext("보안 확인(CSRF)에 실패했습니다"),
         "detail": gettext("페이지를 새로 고친 뒤 다시 보내 주세요. 쓰던 내용은 뒤로 가기로 되찾을 수 있습니다.")},
        status=403,
    )


def _error_page(status: int, code: str, title_text: str | Promise, detail_text: str | Promise) -> Callable[..., HttpResponse]:
    """Build a handler that answers in Korean: a page, or problem+json under ``/api/``."""

    def view(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
        if status in audit.REFUSAL_ACTIONS:  # Django's own 403 and 404 (PermissionDenied, Http404)
            audit.refused_request(request, status=status)
        title, detail = str(title_text), str(detail_text)  # lazy until now: the request's language
        if request.path.startswith("/api/"):
            body = {"type": f"/api/problems/{code}", "title": title, "status": status, "detail": detail, "code": code}
            return JsonResponse(body, status=status, content_type="application/problem+json; charset=utf-8",
                                json_dumps_params={"ensure_ascii": False})
        return render(request, "errors/problem.html", {"status": status, "title": title, "detail": detail}, status=status)

    return view


too_large = _error_page(
    413, "too_large", gettext_lazy("보낸 내용이 너무 큽니다"),
    gettext_lazy("요청 본문은 %(mib)s MiB까지 받습니다. 내용을 줄여 다시 보내 주세요.")
    % {"mib": round(settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 1024 / 1024, 1)},
)
_bad_request = _error_page(400, "bad_request", gettext_lazy("잘못된 요청입니다"), gettext_lazy("주소나 보낸 내용을 확인하세요."))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer 400, or 413 when the body was over the limit (Django reports both as bad requests)."""
    if isinstance(exception, RequestDataTooBig):
        return too_large(request, exception)
    return _bad_request(request, exception)
permission_denied = _error_page(403, "refused", gettext_lazy("허용되지 않은 요청입니다"), gettext_lazy("이 작업을 할 권한이 없습니다."))
page_not_found = _error_page(404, "not_found", gettext_lazy("찾을 수 없습니다"), gettext_lazy("주소가 바뀌었거나, 볼 수 없는 페이지입니다."))
server_error = _error_page(
    500, "server_error", gettext_lazy("서버에서 문제가 생겼습니다"),
    gettext_lazy("잠시 뒤 다시 시도하세요. 쓰던 내용은 지워지지 않았습니다."),
)


@login_required
@require_http_methods(["GET", "HEAD"])
def audit_log(request: SignedInRequest) -> HttpResponse:
    """Read-only: nobody can change or delete an entry through the site."""
    return render(request, "tutor/audit_log.html", {"entries": selectors.audit_entries_for(request.user)})

