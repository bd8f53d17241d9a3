"""Forms of the evidence pages: a task's schedule or one learner's extension, and the text to preview.

Times are typed in Seoul time (``datetime-local`` has no offset): the site's time zone makes them aware.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

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
