"""Show a lesson's evidence tasks on its page without ``lessons`` importing this app."""

from __future__ import annotations

from django import template

from ..selectors import tasks_of_lesson

register = template.Library()


@register.inclusion_tag("evidence/_lesson_tasks.html")
def lesson_evidence_tasks(lesson_id: int) -> dict:
    # Only what the list shows, not the task's rubric.
    return {"tasks": list(tasks_of_lesson(lesson_id).only("slug", "title", "kind"))}


@register.inclusion_tag("evidence/_part_tasks.html")
def part_evidence_tasks(lesson_id: int, part_key: str) -> dict:
    """The evidence tasks a lesson part asks for (practice, transfer, explain), linked where the part says 남길 증거."""
    return {"tasks": [task for task in tasks_of_lesson(lesson_id) if task.kind == part_key]}
