"""The lesson page's POST forms: the same keyword arguments as the API's schemas."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import SelfReport


class UnderstoodForm(forms.Form):
    """이해했어요, with an optional confidence (1-3) as ``UnderstoodIn`` has it: a self-report, never a grade."""

    confidence = forms.TypedChoiceField(
        choices=SelfReport.Confidence.choices, coerce=int, required=False, empty_value=None,
        error_messages={"invalid_choice": _("확신 정도는 1, 2, 3 가운데 하나를 고르세요.")},
    )
