"""CSV exports for instructors: the review record of every version, and a gradebook of three tracks.

Cells go through ``tutor.spreadsheet`` (formulas neutralised, a UTF-8 BOM), the
rule every CSV of the site shares.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.selectors import progress_of_learners, published_lessons
from tutor import access
from tutor.access import AnyUser
from tutor.accounts.selectors import display_name
from tutor.models import Cohort, Membership, members_of
from tutor.roles import CohortRole
from tutor.spreadsheet import BOM, FORMULA_STARTS, neutralise, to_csv  # noqa: F401  (the shared rule)

from .models import Review, Submission
from .selectors import disagreeing_criteria, instructor_cohorts, level_label, peer_minimums_of


def local_time(value: datetime | None) -> str:
    """A time in the site's time zone, as the pages show it; the header names the zone."""
    return timezone.localtime(value).isoformat(timespec="seconds") if value else ""


def _submissions_of_cohorts(instructor: AnyUser) -> list[Submission]:
    learners = members_of(instructor_cohorts(instructor, access.Perm.EXPORT))
    return list(Submission.objects.submitted().filter(author__in=learners)
                .select_related("task", "author", "rubric_version", "fixture_version")
                .prefetch_related("reviews__reviewer", "reviews__flags", "reviews__rubric_version",
                                  "allocations__reproductions")
                .order_by("task__lesson__order", "task__order", "author__username", "version"))


def review_rows(instructor: AnyUser) -> list[list[object]]:
    """One row per review (or per unreviewed version), every version, one column per task/criterion."""
    submissions = _submissions_of_cohorts(instructor)
    minimums = peer_minimums_of(submissions)
    columns: list[tuple[str, str]] = []
    for submission in submissions:
        for criterion in submission.rubric_version.criteria:
            if (submission.task.slug, criterion["key"]) not in columns:
                columns.append((submission.task.slug, criterion["key"]))
    zone = timezone.get_current_timezone_name()
    header: list[object] = ["task", "learner", "version", f"submitted_at ({zone})", "rubric_version", "fixture_version",
              "peer_minimum", "review_kind", "reviewer", f"review_released ({zone})", *[f"{t}:{c}" for t, c in columns],
              "citations", "comment", "flags", "disagreement", "disagreement_resolution", "reproduction"]
    rows: list[list[object]] = [header]
    for submission in submissions:
        reviews: list[Review | None] = list(submission.reviews.all()) or [None]
        disagreement = "; ".join(disagreeing_criteria([r for r in reviews if r]))
        base = [submission.task.slug, submission.author.get_username(), submission.version,
                local_time(submission.submitted_at), submission.rubric_version.number,
                submission.fixture_version.number if submission.fixture_version else "", minimums[submission.pk]]
        by_key = {c["key"]: c for c in submission.rubric_version.criteria}
        for review in reviews:
            levels = [level_label(by_key[c], review.judgements.get(c, "")) if review and t == submission.task.slug
                      and c in by_key else "" for t, c in columns]
            if review is None:
                rows.append([*base, "", "", "", *levels, "", "", "", disagreement,
                             submission.disagreement_resolution, ""])
                continue
            reproductions = [f"#{r.original_id}: {r.get_status_display()}"
                             + (f" ({', '.join(r.differences)})" if r.differences else "")
                             + (f" [{_('바뀜')}: {', '.join(r.changed_since)}]" if r.changed_since else "")
                             for a in submission.allocations.all() if a.reviewer_id == review.reviewer_id
                             for r in a.reproductions.all()] if review.kind == Review.Kind.PEER else []
            flags = [f"{f.criterion}: {f.reason}" + (f" -> {f.resolution}" if f.resolved_at else "")
                     for f in review.flags.all()]
            rows.append([*base, review.kind, display_name(review.reviewer),
                         local_time(review.released_at), *levels,
                         "; ".join(f"{k}: {v}" for k, v in review.citations.items()), review.comment,
                         " | ".join(flags), disagreement, submission.disagreement_resolution,
                         " | ".join(reproductions)])
    return rows


def gradebook_rows(instructor: AnyUser) -> list[list[object]]:
    """One row per learner and lesson: completion, self-report and review levels side by side; never a total.

    Read for the whole class at once (memberships, progress, reviews), so the
    file costs the same few queries for 5 learners or 50.
    """
    cohorts = list(instructor_cohorts(instructor, access.Perm.EXPORT))
    learners = list(members_of(Cohort.objects.filter(pk__in=[c.pk for c in cohorts])).order_by("username")
                    .prefetch_related(Prefetch("memberships", to_attr="memberships_in_export",
                                               queryset=Membership.objects.active().filter(
                                                   role=CohortRole.LEARNER, cohort__in=[c.pk for c in cohorts])
                                               .select_related("cohort").order_by("cohort__name"))))
    progress = progress_of_learners(learners, lessons=published_lessons())
    reviews_of: dict[int, list[Review]] = {}
    for review in (Review.objects.filter(submission__author__in=learners)
                   .select_related("submission__task", "rubric_version")
                   .order_by("submission__task__order", "submission__version", "created_at")):
        reviews_of.setdefault(review.submission.author_id, []).append(review)
    rows: list[list[object]] = [["learner", "cohorts", "lesson", "completion", "self_report", "review_levels"]]
    for learner in learners:
        names = ", ".join(m.cohort.name for m in learner.memberships_in_export)
        for entry in progress[learner.pk]:
            completion = (f"{entry.parts_reached}/{entry.parts_total}" + (f"; labs {entry.labs_run}"
                          if entry.labs_run else "")) if entry.opened_at else ""
            levels = []
            for review in reviews_of.get(learner.pk, []):
                if review.submission.task.lesson_id != entry.lesson.pk:
                    continue
                judged = ", ".join(f"{c['key']}={level_label(c, review.judgements.get(c['key'], ''))}"
                                   for c in review.rubric_version.criteria)
                state = "" if review.seen_by_author else " (공개 전)"
                levels.append(f"{review.submission.task.slug} v{review.submission.version} "
                              f"{review.kind}{state}: {judged}")
            rows.append([learner.get_username(), names, entry.lesson.slug, completion,
                         f"{len(entry.understood)}/{entry.self_checks_total}", " | ".join(levels)])
    return rows
