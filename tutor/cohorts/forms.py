"""Forms of the cohort pages: they parse input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tutor import throttle
from tutor.errors import Throttled
from tutor.forms import cleaned
from tutor.roles import CohortRole


class JoinCodeForm(forms.Form):
    """참여 코드: a new code (or turning it on) or turning it off, by the button pressed."""

    action = forms.ChoiceField(choices=[("new", _("새 코드 만들기")), ("off", _("코드 끄기"))], required=False,
                               error_messages={"invalid_choice": _("새 코드를 만들거나 코드를 끄는 것만 할 수 있습니다.")})

    def enabled(self) -> bool:
        """Whether the cohort has a join code afterwards (a form without the field, as before, makes a new one)."""
        return cleaned(self)["action"] != "off"


class CohortForm(forms.Form):
    name = forms.CharField(label=_("기수 이름"), max_length=100, help_text=_("예: 2027 봄 1기"))


class MemberForm(forms.Form):
    identifier = forms.CharField(label=_("아이디 또는 이메일"), max_length=254,
                                 help_text=_("이미 계정이 있는 사람만 더할 수 있습니다."))
    role = forms.ChoiceField(label=_("역할"), choices=CohortRole.choices, initial=CohortRole.ASSISTANT)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("역할"), choices=CohortRole.choices)


class MoveForm(forms.Form):
    to = forms.TypedChoiceField(label=_("옮길 기수"), coerce=int, choices=[])

    def __init__(self, *args: object, targets: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["to"].choices = targets  # type: ignore[attr-defined]


class RosterUploadForm(forms.Form):
    file = forms.FileField(label=_("명단 CSV 파일"),
                           help_text=_("UTF-8 CSV. 첫 줄: name,email 또는 name,email,student_id"))


class RosterConfirmForm(forms.Form):
    text = forms.CharField(widget=forms.HiddenInput, strip=False)


class InvitationForm(SetPasswordForm):
    """Django's set-password form (the site's password validators), labelled in Korean."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].label = _("새 비밀번호")
        self.fields["new_password2"].label = _("새 비밀번호 확인")


class SignUpForm(forms.Form):
    """A visitor's sign-up with a join code; counted under the sign-in throttle (per address and client)."""

    code = forms.CharField(label=_("참여 코드"), max_length=16)
    name = forms.CharField(label=_("이름"), max_length=150)
    email = forms.EmailField(label=_("이메일"), max_length=254,
                             help_text=_("이 주소로 확인 링크를 보냅니다. 링크를 열어 비밀번호를 정하면 가입이 끝납니다."))

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if cleaned.get("email"):
            try:
                throttle.begin_attempt(username=f"sign-up:{cleaned['email']}",
                                       address=throttle.client_address(self.request))
            except Throttled as exc:
                raise forms.ValidationError(
                    gettext("요청이 너무 잦습니다. %(seconds)d초 뒤에 다시 시도하세요.") % {"seconds": exc.retry_after or 1},
                    code="throttled") from exc
        return cleaned


class JoinForm(forms.Form):
    code = forms.CharField(label=_("참여 코드"), max_length=16)
