"""Evidence pages: the task with its autosaved draft and calibration, a submission with its reviews, the
instructor's queue and exports. Views only parse HTTP; the selectors and services decide."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from exercises.labs.models import LabRun
from exercises.labs.records import check_seal
from lessons.selectors import progress_of
from tutor import access
from tutor.errors import NotFound
from tutor.forms import cleaned
from tutor.http import SignedInRequest
from tutor.numbers import int_or_none
from tutor.rendering import render_user_markdown
from tutor.spreadsheet import to_csv
from tutor.text import visible

from . import exports, peer, progress, schedule, selectors, services
from .forms import (
    AssignForm,
    DraftForm,
    FlagForm,
    HelpfulForm,
    MinimumForm,
    PreviewForm,
    ReasonForm,
    ResolutionForm,
    ReviewForm,
    ScheduleForm,
    SubmitForm,
)
from .models import INSUFFICIENT, PeerAllocation, Reproduction, Review, Submission


@require_safe
@never_cache
def task_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    draft = selectors.draft_of(request.user, task)
    examples = selectors.calibration_examples(task)
    practice = [(example, selectors.practice_review_of(request.user, example)) for example in examples]
    citations = selectors.citations_of(draft) if draft else None
    dates, now = schedule.dates_for(request.user, task), timezone.now()
    return render(request, "evidence/task_detail.html", {
        "task": task, "dates": dates, "is_open": dates.is_open(now), "now": now,
        "instructions": selectors.instructions_of(task),
        "draft": draft,
        "attached": {run.pk for run in draft.lab_runs.all()} if draft else set(),
        "runs": selectors.attachable_runs(request.user, task),
        "lines": selectors.source_lines(task, citations),
        "citations": citations,
        "submissions": selectors.submissions_of(request.user, task),
        "allocations": selectors.allocations_of(request.user, task),
        "peer_refusal": peer.peer_refusal(request.user, task),
        "no_peer_work": request.GET.get("peer") == "none",
        "practice": practice,
        "submit_key": uuid.uuid4().hex,
        "writing_version": selectors.writing_version(request.user, task, draft),
        "min_chars": settings.EVIDENCE_MIN_SUBMISSION_CHARS,
        "insufficient": INSUFFICIENT,
    })


@require_POST
def preview(request: SignedInRequest) -> HttpResponse:
    """A fragment showing how the typed Markdown will look once saved; reads only, writes nothing."""
    access.require_sign_in(request.user)
    form = PreviewForm(request.POST)
    target = "comment-preview" if "comment" in request.POST else "evidence-preview"
    if not form.is_valid():
        return render(request, "evidence/_preview.html", {
            "target": target, "problem": _("글이 너무 길어 미리 볼 수 없습니다. 줄여서 다시 눌러 주세요."),
        })
    text = form.cleaned_data["comment"] if target == "comment-preview" else form.cleaned_data["text"]
    html = render_user_markdown(visible(text)) if text.strip() else ""
    return render(request, "evidence/_preview.html", {"target": target, "html": html})


@require_POST
def save_draft(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    form = DraftForm(request.POST)
    cleaned(form)
    draft = services.save_draft(author=request.user, task=task, **form.draft_fields())
    if request.htmx:
        return render(request, "evidence/task_detail.html#saved", {"draft": draft})
    messages.success(request, _("초안을 저장했습니다."))
    return redirect("evidence:task", slug=task.slug)


@require_POST
def submit(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    form = SubmitForm(request.POST)
    data = cleaned(form)
    submission = services.submit(author=request.user, task=task, submit_key=data["submit_key"],
                                 draft_fields=form.submitted_draft())
    if request.htmx:  # a refusal stays beside the button (tutor.middleware); success moves to the record
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("evidence:submission", args=[submission.pk])
        return response
    return redirect("evidence:submission", submission_id=submission.pk)


@require_safe
def calibration(request: SignedInRequest, slug: str, example_id: int) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    example = selectors.access_calibration_example(request.user, task, example_id)
    practice = selectors.practice_review_of(request.user, example)
    return render(request, "evidence/calibration.html", {
        "task": task, "example": example, "text_html": render_user_markdown(visible(example.text)),
        "criteria": example.rubric_version.criteria, "practice": practice, "insufficient": INSUFFICIENT,
        "comparison": selectors.calibration_comparison(practice) if practice else [],
    })


@require_POST
def practise(request: SignedInRequest, slug: str, example_id: int) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    example = selectors.access_calibration_example(request.user, task, example_id)
    form = ReviewForm(request.POST, criteria=example.rubric_version.criteria)
    cleaned(form)
    services.record_practice_review(reviewer=request.user, example=example, judgements=form.judgements())
    messages.success(request, _("연습 검토를 기록했습니다. 아래에서 참고 검토와 비교해 보세요."))
    return redirect("evidence:calibration", slug=task.slug, example_id=example.pk)


@require_safe
def attached_run(request: SignedInRequest, submission_id: int, run_id: int) -> HttpResponse:
    """The full record of an attached run, with its seal; read-only, without the author's name."""
    run = selectors.access_attached_run(request.user, submission_id, run_id)
    return render(request, "labs/run_detail.html", {
        "run": run, "seal": check_seal(run), "back_url": reverse("evidence:submission", args=[submission_id]),
    })


@require_POST
def reviews_opened(request: SignedInRequest, submission_id: int) -> HttpResponse:
    """Sent by the author's page once it shows released reviews: they leave the author's to-do."""
    submission = selectors.access_submission(request.user, submission_id)
    services.mark_reviews_opened(author=request.user, submission=submission)
    return HttpResponse(status=204)


@require_safe
@never_cache
def submission_detail(request: SignedInRequest, submission_id: int) -> HttpResponse:
    page = selectors.submission_page(request.user, submission_id)
    return render(request, "evidence/submission_detail.html", {
        **page.context(), "text_html": render_user_markdown(visible(page.submission.text)),
    })


@require_POST
def add_review(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    kind = selectors.review_kind_for(request.user, submission) or Review.Kind.PEER
    form = ReviewForm(request.POST, criteria=submission.rubric_version.criteria)
    data = cleaned(form)
    services.record_review(reviewer=request.user, submission=submission, kind=kind, judgements=form.judgements(),
                           comment=data["comment"], citations=form.citations())
    messages.success(request, _("검토를 기록했습니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def release(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    count = services.release_reviews(instructor=request.user, submission=submission,
                                     reason=cleaned(ReasonForm(request.POST))["reason"])
    messages.success(request, _("검토 %(n)d개와 강사 메모를 공개했습니다. 학습자가 이제 볼 수 있습니다.") % {"n": count})
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def release_review(request: SignedInRequest, review_id: int) -> HttpResponse:
    review = selectors.access_review_to_release(request.user, review_id)
    services.release_review(instructor=request.user, review=review, reason=cleaned(ReasonForm(request.POST))["reason"])
    messages.success(request, _("검토를 공개했습니다. 학습자가 이제 볼 수 있습니다."))
    return redirect("evidence:submission", submission_id=review.submission_id)


@require_POST
def request_peer_work(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    try:
        allocation = peer.allocate_peer_work(reviewer=request.user, task=task)
    except peer.NoPeerWork:
        return redirect(reverse("evidence:task", args=[task.slug]) + "?peer=none#peer-title")
    return redirect("evidence:submission", submission_id=allocation.submission_id)


@require_POST
def give_back(request: SignedInRequest, allocation_id: int) -> HttpResponse:
    allocation = selectors.access_allocation(request.user, allocation_id)
    peer.give_back(reviewer=request.user, allocation=allocation, reason=cleaned(ReasonForm(request.POST))["reason"])
    messages.success(request, _("동료 작업을 돌려주었습니다."))
    return redirect("evidence:task", slug=allocation.submission.task.slug)


@require_POST
def reproduce(request: SignedInRequest, submission_id: int, run_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    allocation = selectors.allocation_for(request.user, submission)
    run = submission.lab_runs.filter(pk=run_id).first() if allocation else None
    if run is None or allocation is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    reproduction = peer.reproduce_run(reviewer=request.user, allocation=allocation, run=run)
    if request.htmx:  # the result replaces the button in place and appears there when the re-run ends
        return _reproduction_fragment(request, submission, allocation, run, reproduction)
    messages.success(request, _("재현 실행을 요청했습니다. 결과가 나오면 그 실행 기록 아래에 보입니다."))
    # Back to the same run, not the top of the page, so the reviewer keeps their place.
    return redirect(reverse("evidence:submission", args=[submission.pk]) + f"#attached-run-{run.pk}")


@require_safe
@never_cache
def reproduction_status(request: SignedInRequest, submission_id: int, run_id: int) -> HttpResponse:
    """The reviewer's reproduction of one attached run, polled by the page until the re-run has finished."""
    submission = selectors.access_submission(request.user, submission_id)
    allocation = selectors.allocation_for(request.user, submission)
    run = submission.lab_runs.filter(pk=run_id).first() if allocation else None
    if run is None or allocation is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    reproduction = allocation.reproductions.select_related("rerun").filter(original=run).first()
    return _reproduction_fragment(request, submission, allocation, run, reproduction)


def _reproduction_fragment(request: SignedInRequest, submission: Submission, allocation: PeerAllocation, run: LabRun,
                           reproduction: Reproduction | None) -> HttpResponse:
    return render(request, "evidence/submission_detail.html#reproduction", {
        "submission": submission, "run": run, "reproduction": reproduction, "allocation": allocation,
        "lease_live": allocation.is_live(timezone.now()),
    })


@require_POST
def rate_review(request: SignedInRequest, review_id: int) -> HttpResponse:
    review = selectors.access_review_of_own_work(request.user, review_id)
    services.rate_helpful(author=request.user, review=review, helpful=cleaned(HelpfulForm(request.POST))["helpful"])
    return redirect("evidence:submission", submission_id=review.submission_id)


@require_POST
def flag_review(request: SignedInRequest, review_id: int) -> HttpResponse:
    review = selectors.access_review_of_own_work(request.user, review_id)
    data = cleaned(FlagForm(request.POST))
    services.flag_criterion(author=request.user, review=review, criterion=data["criterion"], reason=data["reason"])
    messages.success(request, _("이의를 제기했습니다. 강사가 확인합니다."))
    return redirect("evidence:submission", submission_id=review.submission_id)


@require_POST
def resolve_flag(request: SignedInRequest, flag_id: int) -> HttpResponse:
    flag = selectors.access_flag(request.user, flag_id)
    services.resolve_flag(instructor=request.user, flag=flag, resolution=cleaned(ResolutionForm(request.POST))["resolution"])
    messages.success(request, _("이의 제기에 답했습니다. 답은 공개해야 학습자에게 보입니다."))
    return redirect("evidence:submission", submission_id=flag.review.submission_id)


QUEUE_PAGE_SIZE = 30  # rows per page, and waiting rows per cohort: the page costs about the same for 5 or 200


@require_safe
def queue(request: SignedInRequest) -> HttpResponse:
    """The instructor's review queue, filtered by cohort, task, state, flags and disagreement."""
    cohort = request.GET.get("cohort", "")
    rows = selectors.instructor_queue(
        request.user, cohort_id=int_or_none(cohort), task_slug=request.GET.get("task", ""),
        state=request.GET.get("state", ""), flagged="flagged" in request.GET,
        disagreement="disagreement" in request.GET, sort=request.GET.get("sort", "oldest"),
    )
    page = Paginator(rows, QUEUE_PAGE_SIZE).get_page(request.GET.get("page"))
    kept = request.GET.copy()
    kept.pop("page", None)
    return render(request, "evidence/queue.html", {
        "rows": page.object_list, "page": page, "total": len(rows), "query": kept.urlencode(),
        "cohorts": selectors.cohorts_of(request.user), "may_export": selectors.may_export(request.user),
        "waiting": selectors.waiting_list(request.user, shown=QUEUE_PAGE_SIZE),
        "tasks": selectors.active_tasks(),
        "filters": request.GET,
    })


@require_POST
def assign(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    data = cleaned(AssignForm(request.POST))
    if data["reviewer_name"]:
        reviewer = selectors.access_reviewer_named(request.user, data["reviewer_name"])
    else:
        reviewer = selectors.access_reviewer(request.user, data["reviewer"])
    peer.assign_peer(instructor=request.user, submission=submission, reviewer=reviewer)
    messages.success(request, _("동료 검토를 배정했습니다."))
    return redirect("evidence:queue")


@require_http_methods(["GET", "HEAD", "POST"])
def cohort_minimum(request: SignedInRequest, cohort_id: int, slug: str) -> HttpResponse:
    """A cohort-wide setting changes only after a page that names the task, the cohort, the change and how many
    submissions it affects; after the change the same page offers to put the old number back."""
    cohort = selectors.access_cohort(request.user, cohort_id)
    task = selectors.access_task(request.user, slug)
    current = selectors.cohort_peer_minimum(cohort, task)
    if request.method == "POST":
        data = cleaned(MinimumForm(request.POST))
        minimum = data["minimum"]
        services.set_min_peer_reviews(instructor=request.user, task=task, cohort=cohort, minimum=minimum,
                                      reason=data["reason"])
        messages.success(request, _("「%(task)s」: %(cohort)s의 최소 동료 검토를 %(before)d개에서 %(after)d개로 바꿨습니다.") % {
            "task": task.title, "cohort": cohort.name, "before": current, "after": minimum})
        too_small = schedule.too_small(cohort, task)
        if too_small:
            messages.warning(request, too_small)
        return redirect(reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug]) + f"?changed_from={current}")
    proposed = int_or_none(request.GET.get("minimum"), high=1000)
    changed_from = int_or_none(request.GET.get("changed_from"), high=1000)
    return render(request, "evidence/cohort_minimum.html", {
        "cohort": cohort, "task": task, "current": current,
        "proposed": proposed if proposed is not None and proposed != current else None,
        "changed_from": changed_from if changed_from is not None and changed_from != current else None,
        "waiting": selectors.waiting_in_cohort(request.user, cohort, task),
    })


def _csv_response(body: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def export_csv(request: SignedInRequest) -> HttpResponse:
    """Every version and every review of the instructor's cohorts, one column per criterion."""
    return _csv_response(exports.to_csv(exports.review_rows(request.user)), "evidence-reviews.csv")


@require_safe
def gradebook_csv(request: SignedInRequest) -> HttpResponse:
    """Completion, self-report and review levels in their own columns; no total."""
    return _csv_response(exports.to_csv(exports.gradebook_rows(request.user)), "gradebook.csv")


PROGRESS_PAGE_SIZE = 30  # cards per page: the page costs the same for a class of 30 or 200


@require_safe
def cohort_progress(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """One row (a card at 360 px) per learner: activity facts and each task's evidence state, side by side."""
    show, sort = request.GET.get("show", ""), request.GET.get("sort", "username")
    cohort, tasks, rows = progress.cohort_table(request.user, cohort_id, show=show, sort=sort)
    page = Paginator(rows, PROGRESS_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "evidence/cohort_progress.html", {
        "cohort": cohort, "tasks": tasks, "rows": page.object_list, "page": page, "total": len(rows),
        "show": show, "sort": sort,
        "filters": [("", _("모두")), ("not_started", _("시작 안 함")), ("behind", _("마감 지난 과제 미제출")),
                    ("waiting_for_me", _("내 검토 대기"))],
        "sorts": [("username", _("아이디")), ("last_activity", _("마지막 활동 (오래된 순)")),
                  ("behind", _("미제출 많은 순"))],
        "may_schedule": access.may(request.user, access.Perm.CHANGE_SETTINGS, cohort),
    })


@require_safe
def cohort_progress_csv(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """The same table as a spreadsheet-safe CSV (formulas neutralised, UTF-8 with a BOM)."""
    cohort, tasks, rows = progress.cohort_table(request.user, cohort_id, show=request.GET.get("show", ""),
                                                sort=request.GET.get("sort", "username"))
    response = HttpResponse(to_csv(progress.csv_rows(tasks, rows)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cohort-{cohort.pk}-progress.csv"'
    return response


@require_http_methods(["GET", "POST"])
def cohort_schedule(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """The cohort's instructors set each task's times (Seoul time) and grant extensions."""
    cohort = selectors.access_cohort(request.user, cohort_id, access.Perm.CHANGE_SETTINGS)
    tasks = list(selectors.active_tasks())
    if request.method == "POST":
        form = ScheduleForm(request.POST, tasks=tasks)
        if form.is_valid():
            data = form.cleaned_data
            if data.get("username"):
                schedule.grant_extension(instructor=request.user, cohort=cohort, task=data["task"],
                                         username=data["username"], due_at=data["due_at"], reason=data["reason"])
                messages.success(request, _("마감을 연장했습니다."))
            else:
                result = schedule.set_schedule(instructor=request.user, cohort=cohort, task=data["task"],
                                               opens_at=data["opens_at"], due_at=data["due_at"],
                                               peer_due_at=data["peer_due_at"])
                messages.success(request, _("일정을 저장했습니다."))
                for warning in result.warnings:
                    messages.warning(request, warning)
            return redirect("evidence:cohort-schedule", cohort_id=cohort.pk)
        messages.error(request, _("입력을 확인해 주세요: ") + " ".join(str(e) for errs in form.errors.values() for e in errs))
    table = schedule.dates_table([cohort.pk], tasks)
    return render(request, "evidence/cohort_schedule.html", {
        "cohort": cohort, "learners": selectors.learners_of(cohort),
        "tasks": [(task, table[(cohort.pk, task.pk)], schedule.too_small(cohort, task)) for task in tasks],
    })


@require_safe
def cohort_learner(request: SignedInRequest, cohort_id: int, username: str) -> HttpResponse:
    """One learner of the instructor's cohort: each lesson's three tracks and a link to every record."""
    cohort, learner = selectors.access_cohort_learner(request.user, cohort_id, username)
    return render(request, "evidence/cohort_learner.html", {
        "cohort": cohort, "learner": learner, "progress": progress_of(learner),
    })


@require_POST
def resolve_disagreement(request: SignedInRequest, submission_id: int) -> HttpResponse:
    submission = selectors.access_submission(request.user, submission_id)
    services.resolve_disagreement(instructor=request.user, submission=submission,
                                  reason=cleaned(ReasonForm(request.POST))["reason"])
    messages.success(request, _("불일치를 해결했습니다. 해결 이유는 공개해야 학습자에게 보입니다."))
    return redirect("evidence:submission", submission_id=submission.pk)


@require_POST
def release_task(request: SignedInRequest, slug: str) -> HttpResponse:
    task = selectors.access_task(request.user, slug)
    count = services.release_task(instructor=request.user, task=task)
    messages.success(request, _("%(n)d개 제출의 검토를 공개했습니다.") % {"n": count})
    return redirect(f"{reverse('evidence:queue')}?task={task.slug}")

