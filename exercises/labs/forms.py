"""The lab page's POST forms: the same keyword arguments as the API's ``RunIn`` (the service decides)."""

from __future__ import annotations

from django import forms


class RunForm(forms.Form):
    """The editor's 실행 (and the step buttons): code, step, prediction and the page's idempotency key.

    Nothing is refused here: an empty key, an unknown step or code over the size limit are the
    service's refusals, worded once for the page and the API alike.
    """

    code = forms.CharField(required=False, strip=False)
    step = forms.CharField(required=False, empty_value="run")
    idempotency_key = forms.CharField(required=False)
    prediction = forms.CharField(required=False, strip=False)


class DownloadForm(forms.Form):
    """내려받기: the editor's code, sent back as a file (so it works without JavaScript)."""

    code = forms.CharField(required=False, strip=False)
