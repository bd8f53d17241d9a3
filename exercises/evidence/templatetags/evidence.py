"""Show a lesson's evidence tasks on its page without ``lessons`` importing this app."""

from __future__ import annotations

from django import template
from django.template import Context

from ..models import EvidenceTask
from ..selectors import tasks_of_lesson

register = template.Library()


def _tasks(context: Context, lesson_id: int) -> list[EvidenceTask]:
    """The lesson's tasks, read once per page however many parts ask (only what the lists show)."""
    key = f"evidence_tasks:{lesson_id}"
    if key not in context.render_context:
        context.render_context[key] = list(tasks_of_lesson(lesson_id).only("slug", "title", "kind", "order"))
    tasks: list[EvidenceTask] = context.render_context[key]
    return tasks


@register.inclusion_tag("evidence/_lesson_tasks.html", takes_context=True)
def lesson_evidence_tasks(context: Context, lesson_id: int) -> dict:
    return {"tasks": _tasks(context, lesson_id)}


@register.inclusion_tag("evidence/_part_tasks.html", takes_context=True)
def part_evidence_tasks(context: Context, lesson_id: int, part_key: str) -> dict:
    """The evidence tasks a lesson part asks for (practice, transfer, explain), linked where the part says 남길 증거."""
    return {"tasks": [task for task in _tasks(context, lesson_id) if task.kind == part_key]}


@register.filter
def late_label(late_by: object) -> str:
    """``{{ submission.late_by|late_label }}``: "기한 후 제출 (2시간 5분 늦음)" or nothing."""
    from datetime import timedelta

    from ..schedule import late_label as label

    return label(late_by) if isinstance(late_by, timedelta) else ""
