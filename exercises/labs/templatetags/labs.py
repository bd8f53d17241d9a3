"""Show a lesson's labs on its page without ``lessons`` importing this app."""

from __future__ import annotations

from django import template

from ..models import LabRun
from ..sandbox.output import visible as _visible
from ..selectors import Outcome, describe_outcome, labs_of_lesson

register = template.Library()


@register.inclusion_tag("labs/_lesson_labs.html")
def lesson_labs(lesson_id: int) -> dict:
    # Only what the list shows: a lab's files, steps and checks are JSON that every lesson page
    # would otherwise decode.
    return {"labs": list(labs_of_lesson(lesson_id).only("slug", "title", "summary"))}


@register.simple_tag
def run_outcome(run: LabRun) -> Outcome:
    return describe_outcome(run)


@register.filter
def visible(text: object) -> str:
    """Code or a person's text shown to someone else: bidi, invisible and control characters as visible marks.

    (A run's output is stored that way already; code and predictions are stored as written.)
    """
    return _visible("" if text is None else str(text))
