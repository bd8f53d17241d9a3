"""The 내 계정 form: a mode per notice kind."""

from __future__ import annotations

from typing import Any

from django import forms

from tutor.forms import IdListField

from .models import Kind, Mode


class MarkReadForm(forms.Form):
    """읽음 표시: the ids of the notices ticked (only the reader's own are marked: ``services.mark_read``)."""

    ids = IdListField(required=False)


class PreferencesForm(forms.Form):
    def __init__(self, *args: Any, initial_modes: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in Kind:
            self.fields[kind.value] = forms.ChoiceField(
                label=str(kind.label), choices=Mode.choices, initial=initial_modes.get(kind.value),
                widget=forms.RadioSelect)
