"""Forms for evidence pages that only read what was typed (nothing here is saved)."""

from __future__ import annotations

from django import forms


class PreviewForm(forms.Form):
    """The text of the evidence box (``text``) or of a review comment (``comment``), to preview."""

    text = forms.CharField(required=False, strip=False, max_length=20000)
    comment = forms.CharField(required=False, strip=False, max_length=5000)
