"""Forms every app shares: the sign-in form (Django's, with throttling checked before the password is), the
first-problem helper, and the fields for ids and cited line numbers."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import throttle
from .auth_backends import username_for_login
from .errors import Throttled, TutorError


class ThrottledSignInMixin:
    """Count the attempt before the password is checked; refuse with the wait while backing off.

    Used by every form that checks a password (the site's and the admin's), so
    no entry point escapes the throttle.
    """

    request: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        login = self.cleaned_data.get("username") or ""
        if not login or not self.cleaned_data.get("password"):
            return super().clean()  # type: ignore[misc]
        # An account's e-mail address counts under its username, so the two logins share one allowance.
        username = username_for_login(login)
        address = throttle.client_address(self.request)
        try:
            throttle.begin_attempt(username=username, address=address)
        except Throttled as exc:
            raise forms.ValidationError(exc.detail, code="throttled") from exc
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        throttle.attempt_succeeded(user=self.get_user(), username=username, address=address)  # type: ignore[attr-defined]
        return cleaned


class SignInForm(ThrottledSignInMixin, AuthenticationForm):
    error_messages = {
        "invalid_login": _("아이디 또는 비밀번호가 맞지 않습니다. 대소문자를 확인하세요."),
        "inactive": _("사용이 중지된 계정입니다."),
    }

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = gettext("아이디 또는 이메일")
        self.fields["password"].label = gettext("비밀번호")
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})


class AdminSignInForm(ThrottledSignInMixin, AdminAuthenticationForm):
    """The admin's sign-in, under the same throttle as the site's."""


class TokenForm(forms.Form):
    name = forms.CharField(label=_("토큰 이름"), max_length=80, help_text=_("예: 내 노트북 스크립트"))


def cleaned(form: forms.Form) -> dict[str, Any]:
    """The form's cleaned data, or a ``TutorError`` (400) with its first problem in Korean.

    A page POST is parsed by a form and an API body by a schema; both hand the same keyword arguments to the
    service, which decides. The error is rendered by ``tutor.middleware`` beside what the person typed.
    """
    if form.is_valid():
        return form.cleaned_data
    first = next(str(error) for errors in form.errors.values() for error in errors)
    raise TutorError(first)


class IdListField(forms.Field):
    """Every value of a repeated field (``runs=3&runs=7``) that is a positive whole number; others are ignored,
    as a checkbox list of the page's own ids never holds anything else unless someone typed it."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[int]:
        from .numbers import int_or_none

        numbers = [int_or_none(item, low=1) for item in (value or [])]
        return [n for n in numbers if n is not None]


class LineNumbersField(forms.CharField):
    """Cited line numbers as a person types them ("2, 5 7", "3번"): the one reading of them, for every page.

    Each number is ASCII digits (a superscript or a full-width digit is refused, as everywhere on the site);
    the list comes back sorted without repeats. Whether each line exists is the service's question: only it
    knows the source (and the API hands it a list of numbers the same way).
    """

    HIGHEST = 100_000
    # As many as the API's schemas take (``max_length=50``): a source of a few dozen lines never needs more.
    MOST = 50

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        from .numbers import int_or_none

        text = str(super().to_python(value))
        numbers: set[int] = set()
        for token in text.replace(",", " ").replace("번", " ").split():
            number = int_or_none(token, high=self.HIGHEST)
            if number is None:
                raise forms.ValidationError(
                    gettext("인용한 줄 번호는 숫자(0–9)로 적어 주세요 (예: 2, 5). 읽을 수 없는 값: '%(t)s'")
                    % {"t": token[:20]}, code="invalid")
            numbers.add(number)
        if len(numbers) > self.MOST:
            raise forms.ValidationError(gettext("인용한 줄은 %(n)d개까지 적을 수 있습니다 (지금 %(m)d개).")
                                        % {"n": self.MOST, "m": len(numbers)}, code="too_many")
        return sorted(numbers)
