"""The ``visible`` filter: a person's text shown to someone else, with hidden characters marked (``tutor.text``).

A builtin of every template (settings ``TEMPLATES``), so no page has to remember to load it.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from tutor.text import visible_html

register = template.Library()


@register.filter(is_safe=True)
def visible(value: object) -> SafeString:
    """Escape ``value`` and show bidi controls, zero-width and other format characters, Hangul fillers and
    variation selectors as marked spans such as ⟨U+202E⟩."""
    return visible_html("" if value is None else value)
