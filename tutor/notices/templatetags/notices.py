"""``{% todo_section %}``: what the signed-in person owes, on their home page (lessons/home.html)."""

from __future__ import annotations

from typing import Any

from django import template

from tutor import access

from ..registry import LEARNER_KINDS, todo_for

register = template.Library()


@register.inclusion_tag("notices/_todo.html", takes_context=True)
def todo_section(context: template.Context) -> dict[str, Any]:
    user = context["request"].user
    items = todo_for(user) if user.is_authenticated else []
    teaching: dict[str, list[Any]] = {}
    for item in items:
        if item.kind not in LEARNER_KINDS:
            teaching.setdefault(item.cohort, []).append(item)
    return {"mine": [item for item in items if item.kind in LEARNER_KINDS], "teaching": teaching,
            "is_teacher": access.is_instructor(user)}
