"""Pages of a person's own account: 내 계정, passwords (Django's auth views), their data, deleting the account."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from tutor.http import SignedInRequest

from . import registry, selectors, services
from .forms import DeleteAccountForm, PasswordChangeForm, PasswordResetRequestForm


def private(response: HttpResponse) -> HttpResponse:
    """A page about one person: no shared cache keeps it, no browser stores it."""
    add_never_cache_headers(response)
    patch_cache_control(response, private=True, no_store=True)
    return response


@login_required
@require_safe
def account(request: SignedInRequest) -> HttpResponse:
    return private(render(request, "tutor/account/account.html", {
        "kinds": registry.kinds(),
        "retention_days": settings.INACTIVE_ACCOUNT_DELETE_DAYS,
    }))


@login_required
@require_safe
def export_data(request: SignedInRequest) -> HttpResponse:
    """The signed-in person's own data as a ZIP (JSON and a CSV per kind); nobody can ask for another's."""
    response = HttpResponse(selectors.export_zip(request.user), content_type="application/zip")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="geungeo-tutor-my-data-{stamp}.zip"'
    return private(response)


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: SignedInRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None, user=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        services.delete_account(user=request.user, actor=request.user, reason="본인 요청")
        logout(request)
        return redirect("tutor:account-deleted")
    return private(render(request, "tutor/account/delete.html", {"form": form}))


@require_safe
def account_deleted(request: Any) -> HttpResponse:
    return render(request, "tutor/account/deleted.html")


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a link by address. The next page is the same whether or not an account has it."""

    template_name = "tutor/account/password_reset_form.html"
    form_class = PasswordResetRequestForm  # type: ignore[assignment]
    success_url = reverse_lazy("tutor:password-reset-done")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: Form) -> HttpResponse:
        services.request_password_reset(email=form.cleaned_data["email"], request=self.request)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "tutor/account/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "tutor/account/password_reset_confirm.html"
    success_url = reverse_lazy("tutor:password-reset-complete")

    def form_valid(self, form: Any) -> HttpResponse:
        services.set_password(user=form.user, password=form.cleaned_data["new_password1"], actor=None, how="reset")
        self.request.session.pop(auth_views.INTERNAL_RESET_SESSION_TOKEN, None)
        return HttpResponseRedirect(self.get_success_url())

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = super().dispatch(*args, **kwargs)
        add_never_cache_headers(response)
        patch_cache_control(response, private=True, no_store=True)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "tutor/account/password_reset_complete.html"


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "tutor/account/password_change_form.html"
    form_class = PasswordChangeForm
    success_url = reverse_lazy("tutor:password-change-done")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: Any) -> HttpResponse:
        user = services.set_password(user=form.user, password=form.cleaned_data["new_password1"],
                                     actor=self.request.user, how="change")
        update_session_auth_hash(self.request, user)
        messages.success(self.request, gettext("비밀번호를 바꿨습니다. 다른 기기의 로그인은 끝났습니다."))
        return HttpResponseRedirect(self.get_success_url())


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "tutor/account/password_change_done.html"
