"""Show a lesson's evidence tasks on its page without ``lessons`` importing this app."""

from __future__ import annotations

from django import template

from ..selectors import tasks_of_lesson

register = template.Library()


@register.inclusion_tag("evidence/_lesson_tasks.html")
def lesson_evidence_tasks(lesson_id: int) -> dict:
    # Only what the list shows, not the task's rubric.
    return {"tasks": list(tasks_of_lesson(lesson_id).only("slug", "title", "kind"))}
