"""The lab page's POST forms: the same keyword arguments as the API's ``RunIn`` (the service decides)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

# Django refuses NUL in any text field; Python would refuse it in source too. Said in the editor's terms.
NUL_IN_CODE = _("코드에 NUL 문자(\\x00)가 있어 실행하지 않았습니다. 그 문자를 지우고 다시 실행하세요. 코드는 편집기에 그대로 있습니다.")


class RunForm(forms.Form):
    """The editor's 실행 (and the step buttons): code, step, prediction and the page's idempotency key.

    Only a NUL character is refused here (Django's text fields refuse it, and Python's source would): an
    empty key, an unknown step or code over the size limit are the service's refusals, worded once for the
    page and the API alike.
    """

    code = forms.CharField(required=False, strip=False, error_messages={"null_characters_not_allowed": NUL_IN_CODE})
    step = forms.CharField(required=False, empty_value="run")
    idempotency_key = forms.CharField(required=False)
    prediction = forms.CharField(required=False, strip=False)


class DownloadForm(forms.Form):
    """내려받기: the editor's code, sent back as a file (so it works without JavaScript)."""

    code = forms.CharField(required=False, strip=False, error_messages={"null_characters_not_allowed": NUL_IN_CODE})
