"""Forms of the grounding pages: a page POST is parsed here and handed to the services as the API's schemas
hand theirs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tutor.forms import LineNumbersField

from .models import Judgement, Relation
from .schemas import MarkIn


class StartForm(forms.Form):
    """A pasted answer, the variant chosen and the page's request key (a retry makes no second attempt)."""

    answer = forms.CharField(required=False, strip=False)
    variant = forms.CharField(required=False)
    idempotency_key = forms.CharField(required=False)


class ClaimMarkForm(forms.Form):
    """One claim's mark as the marking page sends it: ``judgement-<id>``, ``question-<id>`` and ``lines-<id>``.

    Only the fields the page sent are a mark (the autosave sends the claim that changed): a field that was not
    sent leaves that part of the mark as it is, never blanks it. The result is the API's ``MarkIn``, so the page
    and the API hand the service the same thing.
    """

    judgement = forms.ChoiceField(required=False, choices=[("", ""), *Judgement.choices], error_messages={
        "invalid_choice": _("판단은 근거, 자료없음, 보류, 주장 아님 가운데 하나입니다.")})
    question = forms.CharField(required=False, max_length=100)
    lines = LineNumbersField(required=False)

    def __init__(self, data: Any, *, claim_id: int) -> None:
        self.claim_id = claim_id
        super().__init__(data, prefix=str(claim_id))

    def add_prefix(self, field_name: str) -> str:
        """The claim's id goes last ("judgement-12"): the names the page's form and its script share."""
        return f"{field_name}-{self.prefix}"

    def mark(self) -> MarkIn | None:
        """The fields the page sent, as the API's mark (after ``is_valid``); ``None`` when it sent none."""
        sent = {name: self.cleaned_data[name] for name in self.fields if self.add_prefix(name) in self.data}
        return MarkIn(claim=self.claim_id, **sent) if sent else None


class MarksForm(forms.Form):
    """The marking page's POST: one ``ClaimMarkForm`` per claim of the attempt, and the two submit buttons."""

    submit = forms.CharField(required=False)
    confirm_unjudged = forms.CharField(required=False)

    def __init__(self, data: Any, *, claim_ids: list[int]) -> None:
        super().__init__(data)
        self.claim_forms = [ClaimMarkForm(data, claim_id=claim_id) for claim_id in claim_ids]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for claim_form in self.claim_forms:
            if not claim_form.is_valid():
                for errors in claim_form.errors.values():
                    for error in errors:
                        self.add_error(None, error)
        return data

    def marks(self) -> list[MarkIn]:
        """Each claim's sent fields as the API's marks (after ``is_valid``)."""
        return [mark for claim_form in self.claim_forms if (mark := claim_form.mark()) is not None]

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
    lines = LineNumbersField(label=_("기대는 줄 번호"), required=False)
    explanation = forms.CharField(label=_("한 문장 설명 (학습자에게 보임)"), max_length=500)
