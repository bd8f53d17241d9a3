"""Show a lesson's grounding exercises on its page without ``lessons`` importing this app."""

from __future__ import annotations

from django import template

from ..selectors import exercises_of_lesson

register = template.Library()


@register.inclusion_tag("grounding/_lesson_exercises.html")
def lesson_exercises(lesson_id: int) -> dict:
    # Only what the list shows, not the exercise's keyed claims and samples.
    return {"exercises": list(exercises_of_lesson(lesson_id).only("slug", "title", "summary"))}
