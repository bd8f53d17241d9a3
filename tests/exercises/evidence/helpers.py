"""Shared helpers for the evidence tests: a sealed submission, a rubric's judgements."""

from __future__ import annotations

from django.contrib.auth.models import User

from exercises.evidence import services
from exercises.evidence.models import INSUFFICIENT, EvidenceTask, Submission


def submitted(author: User, task: EvidenceTask, text: str = "증거 글", *, run_ids: list[int] | None = None,
              key: str | None = None) -> Submission:
    """Save `text` (with `run_ids` attached) as `author`'s draft and submit it. The submit key defaults to one per
    author and text, so the same call twice is the same submission and a new text is a new version."""
    services.save_draft(author=author, task=task, text=text, run_ids=run_ids or [], lines=[])
    return services.submit(author=author, task=task, submit_key=key if key is not None else f"{author.pk}-{text}")


def levels(submission: Submission, pick: int) -> dict[str, str]:
    """Judgements on every criterion of the submission's rubric: level `pick` of each, or 부족 when `pick` < 0."""
    return {c["key"]: (c["levels"][pick]["key"] if pick >= 0 else INSUFFICIENT)
            for c in submission.rubric_version.criteria}


def insufficient(task: EvidenceTask) -> dict[str, str]:
    """Judgements of 부족 on every criterion of the task's current rubric."""
    return {c["key"]: INSUFFICIENT for c in task.current_rubric.criteria}
