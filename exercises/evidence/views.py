"""Evidence pages: the task with its autosaved draft, a submission with its reviews. Views only parse HTTP."""

from __future__ import annotations

import csv
import uuid

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from exercises.labs.records import digest_verifies
from lessons.rendering import render_markdown
from lessons.selectors import progress_of_learners, published_lessons
from tutor import access
from tutor.errors import NotFound, TutorError
from tutor.http import SignedInRequest
from tutor.numbers import int_or_none

from . import selectors, services
from .models import INSUFFICIENT, EvidenceTask, Review


def _numbers(raw: str) -> list[int]:
    numbers = [int_or_none(token, low=1, high=100_000) for token in raw.replace(",", " ").split()]
    if None in numbers:
        raise TutorError(_("줄 번호는 숫자(0–9)로 적어 주세요 (예: 2, 5)."))
    return [n for n in numbers if n is not None]


@require_safe
def task_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    draft = selectors.draft_of(request.user, task)
    return render(request, "evidence/task_detail.html", {
        "task": task,
        "draft": draft,
        "attached": {run.pk for run in draft.lab_runs.all()} if draft else set(),
        "runs": selectors.attachable_runs(request.user, task),
        "lines": task.fixture.current_version.numbered_lines() if task.fixture and task.fixture.current_version else [],
        "submissions": selectors.submissions_of(request.user, task),
        "allocations": selectors.open_allocations(request.user, task),
        "submit_key": uuid.uuid4().hex,
        "insufficient": INSUFFICIENT,
    })


@require_POST
def save_draft(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    draft = services.save_draft(
        author=request.user, task=task, text=request.POST.get("text", ""),
        run_ids=[n for n in map(int_or_none, request.POST.getlist("runs")) if n is not None],
        lines=_numbers(request.POST.get("lines", "")),
    )
    if request.htmx:
        return render(request, "evidence/task_detail.html#saved", {"draft": draft})
    messages.success(request, _("초안을 저장했습니다."))
    return redirect("evidence:task", slug=task.slug)


@require_POST
def submit(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    submission = services.submit(author=request.user, task=task, submit_key=request.POST.get("submit_key", ""))
    return redirect("evidence:submission", submission_id=submission.pk)


def _review_lines(review: Review) -> list[tuple[str, str, str]]:
    """(criterion, chosen level's label, citation) for display, in the rubric's order."""
    lines = []
    for criterion in review.rubric_version.criteria:
        level = review.judgements.get(criterion["key"], "")
        labels = {lv["key"]: lv["label"] for lv in criterion["levels"]} | {INSUFFICIENT: _("근거 부족 / 보류")}
        lines.append((criterion["title"], labels.get(level, "-"), review.citations.get(criterion["key"], "")))
    return lines


@require_safe
def submission_detail(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    reviews = selectors.reviews_visible_to(request.user, submission)  # flags are prefetched below
    is_author = submission.author_id == request.user.pk
    is_instructor = access.instructs(request.user, submission.author)
    allocation = selectors.allocation_for(request.user, submission)
    reproductions = {r.original_id: services.settle_reproduction(reproduction=r)
                     for r in allocation.reproductions.select_related("rerun", "original")} if allocation else {}
    lines = dict(submission.fixture_version.numbered_lines()) if submission.fixture_version else {}
    return render(request, "evidence/submission_detail.html", {
        "submission": submission,
        "text_html": render_markdown(submission.text),
        "runs": [(run, digest_verifies(run), reproductions.get(run.pk))
                 for run in submission.lab_runs.select_related("lab")],
        "allocation": allocation,
        "cited": [(n, lines.get(n, "")) for n in submission.cited_lines],
        "reviews": [(review, _review_lines(review)) for review in reviews],
        "criteria": submission.rubric_version.criteria,
        "standard_changed": selectors.standard_changed(submission),
        "review_kind": selectors.review_kind_for(request.user, submission),
        "is_author": is_author,
        "already_reviewed": any(r.reviewer_id == request.user.pk for r in reviews),
        "can_release": is_instructor and submission.released_at is None,
        "can_resolve": is_instructor,
        "disagreement": is_instructor and selectors.reviews_disagree(reviews) and submission.disagreement_resolved_at is None,
        "insufficient": INSUFFICIENT,
        # Peers never learn the author's name: not in the page, not in an attribute.
        "author_label": _("나") if is_author else submission.author.get_username() if is_instructor else _("익명 동료"),
    })


@require_POST
def add_review(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    kind = selectors.review_kind_for(request.user, submission) or Review.Kind.PEER
    judgements = {c["key"]: request.POST.get(f"criterion-{c['key']}", "") for c in submission.rubric_version.criteria}
    citations = {c["key"]: request.POST.get(f"citation-{c['key']}", "") for c in submission.rubric_version.criteria}
    services.record_review(reviewer=request.user, submission=submission, kind=kind, judgements=judgements,
                           comment=request.POST.get("comment", ""), citations=citations)
    messages.success(request, _("검토를 기록했습니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def release(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    services.release_reviews(instructor=request.user, submission=submission, reason=request.POST.get("reason", ""))
    messages.success(request, _("검토를 공개했습니다. 학습자가 이제 볼 수 있습니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def request_peer_work(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    allocation = services.allocate_peer_work(reviewer=request.user, task=task)
    return redirect("evidence:submission", submission_id=allocation.submission_id)


@require_POST
def reproduce(request: SignedInRequest, submission_id: int, run_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    allocation = selectors.allocation_for(request.user, submission)
    run = submission.lab_runs.filter(pk=run_id).first() if allocation else None
    if run is None or allocation is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    services.reproduce_run(reviewer=request.user, allocation=allocation, run=run)
    messages.success(request, _("재현 실행을 요청했습니다. 잠시 뒤 새로 고치면 결과가 보입니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def rate_review(request: SignedInRequest, review_id: int) -> HttpResponse:
    review = selectors.access_review_of_own_work(request.user, review_id)
    services.rate_helpful(author=request.user, review=review, helpful=request.POST.get("helpful") == "yes")
    return redirect("evidence:submission", submission_id=review.submission_id)


@require_POST
def flag_review(request: SignedInRequest, review_id: int) -> HttpResponse:
    review = selectors.access_review_of_own_work(request.user, review_id)
    services.flag_criterion(author=request.user, review=review, criterion=request.POST.get("criterion", ""),
                            reason=request.POST.get("reason", ""))
    messages.success(request, _("이의를 제기했습니다. 강사가 확인합니다."))
    return redirect("evidence:submission", submission_id=review.submission_id)


@require_POST
def resolve_flag(request: SignedInRequest, flag_id: int) -> HttpResponse:
    flag = selectors.access_flag(request.user, flag_id)
    services.resolve_flag(instructor=request.user, flag=flag, resolution=request.POST.get("resolution", ""))
    return redirect("evidence:submission", submission_id=flag.review.submission_id)


@require_safe
def queue(request: SignedInRequest) -> HttpResponse:
    """The instructor's review queue, filtered by cohort, task, state, flags and disagreement."""
    cohort = request.GET.get("cohort", "")
    rows = selectors.instructor_queue(
        request.user, cohort_id=int_or_none(cohort), task_slug=request.GET.get("task", ""),
        state=request.GET.get("state", ""), flagged="flagged" in request.GET, disagreement="disagreement" in request.GET,
    )
    return render(request, "evidence/queue.html", {
        "rows": rows, "cohorts": selectors.cohorts_of(request.user),
        "tasks": EvidenceTask.objects.active().order_by("lesson__order", "order"),
        "learners": get_user_model().objects.filter(cohorts__in=selectors.cohorts_of(request.user)).distinct(),
        "filters": request.GET,
    })


@require_POST
def assign(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    reviewer_id = int_or_none(request.POST.get("reviewer"), low=1)
    reviewer = get_user_model().objects.filter(pk=reviewer_id).first() if reviewer_id else None
    if reviewer is None:
        raise NotFound(_("그런 학습자는 없습니다."))
    services.assign_peer(instructor=request.user, submission=submission, reviewer=reviewer)
    messages.success(request, _("동료 검토를 배정했습니다."))
    return redirect("evidence:queue")


@require_POST
def lower_minimum(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    minimum = int_or_none(request.POST.get("minimum"), high=1000)
    services.set_min_peer_reviews(instructor=request.user, task=task, minimum=-1 if minimum is None else minimum,
                                  reason=request.POST.get("reason", ""))
    messages.success(request, _("최소 동료 검토 수를 바꿨습니다."))
    return redirect("evidence:queue")


@require_safe
def export_csv(request: SignedInRequest) -> HttpResponse:
    """Submissions and reviews of the instructor's cohorts, one review (or unreviewed submission) per row."""
    rows = selectors.instructor_queue(request.user)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="evidence-reviews.csv"'
    writer = csv.writer(response)
    writer.writerow(["task", "learner", "version", "submitted_at", "rubric_version", "released",
                     "review_kind", "reviewer", "judgements", "comment"])
    for row in rows:
        s = row.submission
        base = [s.task.slug, s.author.get_username(), s.version, s.submitted_at.isoformat() if s.submitted_at else "", s.rubric_version_id,
                "yes" if s.released_at else "no"]
        reviews: list[Review | None] = [*s.reviews.all()] or [None]
        for review in reviews:
            if review is None:
                writer.writerow([*base, "", "", "", ""])
            else:
                writer.writerow([*base, review.kind, review.reviewer.get_username(),
                                 ";".join(f"{k}={v}" for k, v in review.judgements.items()), review.comment])
    return response


@require_safe
def cohort_progress(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """Completion, self-report and review side by side, per learner and lesson; never merged."""
    cohort = selectors.access_cohort(request.user, cohort_id)
    learners = list(cohort.learners.order_by("username"))
    progress = progress_of_learners(learners, lessons=published_lessons())
    return render(request, "evidence/cohort_progress.html", {
        "cohort": cohort, "table": [(learner, progress[learner.pk]) for learner in learners],
    })


@require_POST
def resolve_disagreement(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    services.resolve_disagreement(instructor=request.user, submission=submission, reason=request.POST.get("reason", ""))
    messages.success(request, _("불일치를 해결했습니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def release_task(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    count = services.release_task(instructor=request.user, task=task)
    messages.success(request, _("%(n)d개 제출의 검토를 공개했습니다.") % {"n": count})
    return redirect(f"{reverse('evidence:queue')}?task={task.slug}")
