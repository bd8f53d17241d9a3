"""Forms of the account pages; every one that checks a password or sends mail counts the attempt first."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tutor import throttle
from tutor.errors import Throttled


def count_attempt(request: HttpRequest | None, name: str) -> None:
    """Count one attempt under the sign-in throttle's keys, or refuse with the wait (a ``ValidationError``)."""
    try:
        throttle.begin_attempt(username=name, address=throttle.client_address(request))
    except Throttled as exc:
        raise forms.ValidationError(
            gettext("요청이 너무 잦습니다. %(seconds)d초 뒤에 다시 시도하세요.") % {"seconds": exc.retry_after or 1},
            code="throttled") from exc


class PasswordResetRequestForm(forms.Form):
    """An address to send a reset link to; throttled per address and client like sign-in, before any lookup."""

    email = forms.EmailField(label=_("이메일 주소"), max_length=254,
                             widget=forms.EmailInput(attrs={"autocomplete": "email", "autocapitalize": "none"}))

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("email"):
            count_attempt(self.request, f"reset:{cleaned['email']}")
        return cleaned


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's, with the current password's check under the sign-in throttle."""

    def __init__(self, user: User, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        count_attempt(self.request, self.user.get_username())
        old: str = super().clean_old_password()
        throttle.attempt_succeeded(user=self.user, username=self.user.get_username(),
                                   address=throttle.client_address(self.request))
        return old


class DeleteAccountForm(forms.Form):
    """The owner confirms deleting their account by typing their password (throttled like sign-in)."""

    password = forms.CharField(label=_("비밀번호"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args: Any, user: User, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        count_attempt(self.request, self.user.get_username())
        if not self.user.check_password(password):
            raise forms.ValidationError(gettext("비밀번호가 맞지 않습니다."), code="password_incorrect")
        throttle.attempt_succeeded(user=self.user, username=self.user.get_username(),
                                   address=throttle.client_address(self.request))
        return password
