"""Forms of the grounding pages: a page POST is parsed here and handed to the services as the API's schemas
hand theirs."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Relation

_FIELD = re.compile(r"^(judgement|question|lines)-([0-9]{1,19})$")


class StartForm(forms.Form):
    """A pasted answer, the variant chosen and the page's request key (a retry makes no second attempt)."""

    answer = forms.CharField(required=False, strip=False)
    variant = forms.CharField(required=False)
    idempotency_key = forms.CharField(required=False)


class MarksForm(forms.Form):
    """Marks of the attempt's claims: ``judgement-<id>``, ``question-<id>`` and ``lines-<id>`` for each claim.

    Only the fields the page sent are marks (the autosave sends the claim that changed): a field that was not
    sent leaves that mark as it is, never blanks it.
    """

    submit = forms.CharField(required=False)
    confirm_unjudged = forms.CharField(required=False)

    def __init__(self, *args: Any, claim_ids: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for claim_id in claim_ids:
            for part in ("judgement", "question", "lines"):
                self.fields[f"{part}-{claim_id}"] = forms.CharField(required=False)

    def marks(self) -> dict[int, dict[str, str | list[int]]]:
        marks: dict[int, dict[str, str | list[int]]] = {}
        for name, value in self.cleaned_data.items():
            match = _FIELD.match(name)
            if match and name in self.data:
                marks.setdefault(int(match[2]), {})[match[1]] = value
        return marks

    @property
    def submitting(self) -> bool:
        return "submit" in self.data

    @property
    def unjudged_confirmed(self) -> bool:
        return self.cleaned_data.get("confirm_unjudged") == "1"


class SplitForm(forms.Form):
    """Where to split a claim: the text that stays before the cut (``before-<id>``)."""

    def __init__(self, *args: Any, claim_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name = f"before-{claim_id}"
        self.fields[self.name] = forms.CharField(required=False, strip=False)

    def before(self) -> str:
        return str(self.cleaned_data[self.name])


class ReasonForm(forms.Form):
    reason = forms.CharField(required=False, strip=False)


class GroupJudgementForm(forms.Form):
    relation = forms.ChoiceField(label=_("이 주장과 원문의 관계"), choices=Relation.choices, widget=forms.RadioSelect)
    lines = forms.CharField(label=_("기대는 줄 번호"), required=False, max_length=200)
    explanation = forms.CharField(label=_("한 문장 설명 (학습자에게 보임)"), max_length=500)
