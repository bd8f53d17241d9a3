"""The ``visible`` filter: a person's text shown to someone else, with hidden characters marked (``tutor.text``).

A builtin of every template (settings ``TEMPLATES``), so no page has to remember to load it.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from tutor.rendering import render_inline_markdown, render_user_markdown
from tutor.text import visible as visible_text
from tutor.text import visible_html

register = template.Library()


@register.filter(is_safe=True)
def visible(value: object) -> SafeString:
    """Escape ``value`` and show bidi controls, zero-width and other format characters, Hangul fillers and
    variation selectors as marked spans such as ⟨U+202E⟩."""
    return visible_html("" if value is None else value)


@register.filter(is_safe=True)
def user_markdown(value: object) -> SafeString:
    """A person's Markdown, hidden characters marked first, rendered and sanitised (``tutor.rendering``)."""
    return mark_safe(render_user_markdown(visible_text("" if value is None else str(value))))  # noqa: S308 - nh3 output


@register.filter(is_safe=True)
def inline_markdown(value: object) -> SafeString:
    """One line of authored Markdown (rubric descriptions) rendered inline and sanitised."""
    return mark_safe(render_inline_markdown("" if value is None else str(value)))  # noqa: S308 - nh3 output
