"""Forms of the evidence pages: a task's schedule or one learner's extension, and the text to preview.

Times are typed in Seoul time (``datetime-local`` has no offset): the site's time zone makes them aware.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tutor.forms import IdListField, LineNumbersField
from tutor.numbers import int_or_none

from .models import EvidenceTask

LOCAL = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]


class LocalTime(forms.DateTimeField):
    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(input_formats=LOCAL, required=False, **kwargs)


class ScheduleForm(forms.Form):
    task = forms.ModelChoiceField(queryset=EvidenceTask.objects.none(), to_field_name="slug", label=_("과제"),
                                  error_messages={"invalid_choice": _("그런 과제는 없습니다.")})
    opens_at = LocalTime(label=_("여는 시각 (서울)"))
    due_at = LocalTime(label=_("제출 마감 (서울)"))
    peer_due_at = LocalTime(label=_("동료 검토 마감 (서울)"))
    username = forms.CharField(required=False, max_length=150, label=_("연장할 학습자 아이디"))
    reason = forms.CharField(required=False, max_length=1000, label=_("연장 이유"))

    def __init__(self, *args: Any, tasks: list[EvidenceTask], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["task"].queryset = EvidenceTask.objects.filter(pk__in=[t.pk for t in tasks])  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("username") and not data.get("due_at"):
            self.add_error("due_at", _("연장할 마감 시각을 적어 주세요."))
        return data


class PreviewForm(forms.Form):
    """The text of the evidence box (``text``) or of a review comment (``comment``), to preview (nothing is saved)."""

    text = forms.CharField(required=False, strip=False, max_length=20000)
    comment = forms.CharField(required=False, strip=False, max_length=5000)


class DraftForm(forms.Form):
    """The autosaved draft: text as typed, attached runs, cited line numbers, and moving citations to the
    current fixture version (the author's checkbox)."""

    text = forms.CharField(required=False, strip=False)
    runs = IdListField(required=False)
    lines = LineNumbersField(required=False)
    move_citations = forms.BooleanField(required=False)
    version = forms.IntegerField(required=False, min_value=1)

    def draft_fields(self) -> dict[str, Any]:
        """``services.save_draft``'s keyword arguments (after ``is_valid``)."""
        data = self.cleaned_data
        return {"text": data["text"], "run_ids": data["runs"], "lines": data["lines"],
                "move_citations": data["move_citations"], "version": data["version"]}


class SubmitForm(DraftForm):
    """제출: the key that makes it once, and the draft as the page shows it (absent from older pages)."""

    submit_key = forms.CharField(required=False)

    def submitted_draft(self) -> dict[str, Any] | None:
        return self.draft_fields() if "text" in self.data else None


class ReasonForm(forms.Form):
    """A reason, optional or required as the service decides (release, give back, resolve a disagreement)."""

    reason = forms.CharField(required=False, strip=False)


class HelpfulForm(forms.Form):
    """The author's answer to "도움이 됐나요?": ``yes`` is helpful, anything else is not."""

    helpful = forms.CharField(required=False)

    def clean_helpful(self) -> bool:
        return self.cleaned_data.get("helpful") == "yes"


class FlagForm(forms.Form):
    criterion = forms.CharField(required=False)
    reason = forms.CharField(required=False, strip=False)


class ResolutionForm(forms.Form):
    resolution = forms.CharField(required=False, strip=False)


class AssignForm(forms.Form):
    """A reviewer by the name typed in the search field, or by the id a list gave (without JavaScript)."""

    reviewer_name = forms.CharField(required=False)
    reviewer = forms.CharField(required=False)

    def clean_reviewer(self) -> int | None:
        return int_or_none(self.cleaned_data.get("reviewer"), low=1)


class MinimumForm(forms.Form):
    """A cohort's peer minimum; an unreadable number is passed on as -1 so the service refuses it by its rule."""

    minimum = forms.CharField(required=False)
    reason = forms.CharField(required=False, strip=False)

    def clean_minimum(self) -> int:
        minimum = int_or_none(self.cleaned_data.get("minimum"), high=1000)
        return -1 if minimum is None else minimum


class ReviewForm(forms.Form):
    """A review: one level and one citation per criterion of the rubric version reviewed, and a comment."""

    comment = forms.CharField(required=False, strip=False)

    def __init__(self, *args: Any, criteria: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keys = [criterion["key"] for criterion in criteria]
        for key in self.keys:
            self.fields[f"criterion-{key}"] = forms.CharField(required=False)
            self.fields[f"citation-{key}"] = forms.CharField(required=False, strip=False)

    def judgements(self) -> dict[str, str]:
        return {key: self.cleaned_data[f"criterion-{key}"] for key in self.keys}

    def citations(self) -> dict[str, str]:
        return {key: self.cleaned_data[f"citation-{key}"] for key in self.keys}
