"""What other apps ask of evidence: a learner's record links and the fixture lines tasks rest on."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _

from lessons.fixture_refs import FixtureUse, lines_referred, named_uses, use
from lessons.models import Fixture
from lessons.selectors import RecordLink

from ..models import (
    EvidenceTask,
    Review,
    Submission,
)
from .minimums import peer_minimums, waiting_for


def record_links_of(user: User) -> dict[int, list[RecordLink]]:
    """Per lesson, the learner's submitted versions (with what each waits for) and the reviews they may read."""
    links: dict[int, list[RecordLink]] = {}
    submissions = list(
        Submission.objects.filter(author=user).submitted().select_related("task")
        .prefetch_related(Prefetch("reviews", queryset=Review.objects.only("id", "submission_id", "kind", "released_at")))
        .order_by("task__order", "-version"))
    minimums = peer_minimums(user, {submission.task for submission in submissions})
    for submission in submissions:
        url = reverse("evidence:submission", args=[submission.pk])
        links.setdefault(submission.task.lesson_id, []).append(RecordLink(
            track="activity",
            label=_("제출 %(title)s · 판 %(n)d") % {"title": submission.task.title, "n": submission.version},
            url=url, at=submission.submitted_at,
            waiting=waiting_for(submission, minimum=minimums[submission.task_id]),
        ))
    reviews = (Review.objects.filter(submission__author=user).seen_by_author()
               .select_related("submission__task").order_by("submission__task__order", "kind", "created_at"))
    for review in reviews:
        links.setdefault(review.submission.task.lesson_id, []).append(RecordLink(
            track="review",
            label=_("%(kind)s · %(title)s 판 %(n)d") % {
                "kind": review.get_kind_display(), "title": review.submission.task.title,
                "n": review.submission.version},
            url=reverse("evidence:submission", args=[review.submission_id]) + f"#review-{review.pk}",
            at=review.released_at or review.created_at,
        ))
    return links


def fixture_uses(fixture: Fixture) -> list[FixtureUse]:
    """Evidence tasks on ``fixture``, by the lines their instructions quote; and each passage of their
    instructions and rubric that names a line by number or restates its values ("2번 줄이 평일만 …")."""
    uses = []
    for task in EvidenceTask.objects.active().filter(fixture=fixture).select_related("current_rubric"):
        uses.append(use("남길 증거 과제", task.title, lines_referred(task.instructions_html, fixture.slug, own=True)))
        uses += named_uses("남길 증거 과제 (줄 번호나 값으로 가리킴)", task.title, task.instructions_html,
                           fixture.current_version)
        criteria = task.current_rubric.criteria if task.current_rubric else []
        for criterion in criteria:
            texts = [criterion.get("title", "")] + [level.get("description", "") for level in criterion.get("levels", [])]
            uses += named_uses("기준표 (줄 번호나 값으로 가리킴)", f"{task.title} · {criterion.get('title', '')}",
                               "\n".join(texts), fixture.current_version)
    return uses
