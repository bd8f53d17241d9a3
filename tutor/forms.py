"""The sign-in form: Django's, with throttling checked before the password is."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import services
from .errors import Throttled


def client_address(request: Any) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


class SignInForm(AuthenticationForm):
    error_messages = {
        "invalid_login": _("아이디 또는 비밀번호가 맞지 않습니다. 대소문자를 확인하세요."),
        "inactive": _("사용이 중지된 계정입니다."),
    }

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = gettext("아이디")
        self.fields["password"].label = gettext("비밀번호")
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request)
        try:
            services.ensure_sign_in_allowed(username=username, address=address)
        except Throttled as exc:
            raise forms.ValidationError(exc.detail, code="throttled") from exc
        try:
            return super().clean()
        except forms.ValidationError:
            services.record_sign_in_failure(username=username, address=address)
            raise

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        services.clear_sign_in_failures(username=user.get_username())


class TokenForm(forms.Form):
    name = forms.CharField(label=_("토큰 이름"), max_length=80, help_text=_("예: 내 노트북 스크립트"))
