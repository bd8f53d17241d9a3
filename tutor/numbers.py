"""Numbers typed by people: ASCII digits within a range, or a Korean refusal, never a 500.

``str.isdigit`` accepts "²" and "٣", which ``int`` then rejects, and ``int``
refuses strings over 4,300 digits; a number past 64 bits overflows the
database. Every numeric input goes through one of these instead: the URL
converter (``<id:…>``), the form field, the pydantic type, or ``parse_int``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pydantic import Field

from .errors import TutorError

MAX_ID = 2**63 - 1  # the database's BigAutoField
_DIGITS = re.compile(r"[0-9]{1,19}")

# A database id in a django-ninja schema or path: a JSON integer in range (422 otherwise).
Id = Annotated[int, Field(ge=1, le=MAX_ID, strict=False)]


def int_or_none(text: str | None, *, low: int = 0, high: int = MAX_ID) -> int | None:
    """The number ``text`` spells in ASCII digits if it lies in ``[low, high]``, else ``None``."""
    text = (text or "").strip()
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def parse_int(text: str | None, *, low: int = 0, high: int = MAX_ID, what: str = "") -> int:
    """Like ``int_or_none`` but refuse in Korean (400) instead of returning ``None``."""
    value = int_or_none(text, low=low, high=high)
    if value is None:
        raise TutorError(gettext("%(what)s %(low)d부터 %(high)d까지의 숫자(0–9)로 적어 주세요.")
                         % {"what": what or gettext("값은"), "low": low, "high": high})
    return value


class IdConverter:
    """``<id:name>`` in URLs: 1 to 19 ASCII digits within the database's range; anything else is 404."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_ID:
            raise ValueError(value)
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


class BoundedIntegerField(forms.IntegerField):
    """An integer form field that accepts only ASCII digits (no "²", no full-width digits)."""

    default_error_messages = {
        "invalid": _("숫자(0–9)로 적어 주세요."),
        "min_value": _("%(limit_value)s 이상이어야 합니다."),
        "max_value": _("%(limit_value)s 이하여야 합니다."),
    }

    def __init__(self, *, min_value: int = 0, max_value: int = MAX_ID, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not _DIGITS.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)
