"""Grounding exercise pages: source and prompt, paste, mark claims, feedback. Views only parse HTTP."""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tutor.errors import NotFound, TutorError
from tutor.forms import cleaned
from tutor.http import SignedInRequest

from . import selectors, services
from .engine import suggest
from .forms import GroupJudgementForm, MarksForm, ReasonForm, SplitForm, StartForm
from .models import Attempt, Exercise, Judgement, Relation, Variant


def _detail_context(request: SignedInRequest, exercise: Exercise, variant: Variant | None) -> dict:
    fixture = variant.fixture if variant else exercise.fixture
    if fixture.current_version is None:
        raise NotFound(_("이 연습의 원문이 아직 준비되지 않았습니다."))
    return {
        "exercise": exercise,
        "variant": variant,
        "variants": list(exercise.variants.all()),
        "lines": fixture.current_version.numbered_lines(),
        "fixture_version": fixture.current_version,
        "questions": list(exercise.questions.values("key", "text")),
        "samples": [s for s in exercise.samples.all() if s.variant_key == (variant.key if variant else "")],
        "attempts": selectors.attempts_of(request.user, exercise),
        "idempotency_key": uuid.uuid4().hex,
        "max_chars": services.MAX_ANSWER_CHARS,
    }


@require_safe
def exercise_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    exercise = selectors.access_exercise(request.user, slug)
    variant = selectors.access_variant(exercise, request.GET.get("variant", ""))
    return render(request, "grounding/exercise_detail.html", _detail_context(request, exercise, variant))


@require_POST
def start_attempt(request: SignedInRequest, slug: str) -> HttpResponse:
    """Start from a paste; a refused paste comes back in the field with the reason beside it."""
    exercise = selectors.access_exercise(request.user, slug)
    data = cleaned(StartForm(request.POST))
    variant = selectors.access_variant(exercise, data["variant"])
    answer = data["answer"]
    try:
        attempt = services.start_attempt(
            user=request.user, exercise=exercise, answer_text=answer,
            variant_key=variant.key if variant else "", idempotency_key=data["idempotency_key"],
        )
    except services.PasteRefused as refused:
        context = {**_detail_context(request, exercise, variant), "answer": answer, "answer_error": refused.detail}
        return render(request, "grounding/exercise_detail.html", context, status=refused.status)
    return redirect("grounding:attempt", attempt_id=attempt.pk)


def _marking_context(attempt: Attempt) -> dict:
    total, judged = selectors.judged_count(attempt)
    return {
        "total": total,
        "judged": judged,
        "attempt": attempt,
        "claims": list(attempt.claims.all()),
        "lines": attempt.fixture_version.numbered_lines(),
        "questions": list(attempt.exercise.questions.values("key", "text")),
        "judgements": Judgement.choices,
    }


@require_safe
def attempt_detail(request: SignedInRequest, attempt_id: int) -> HttpResponse:
    attempt = selectors.access_attempt(request.user, attempt_id)
    if attempt.status == Attempt.Status.SUBMITTED:
        return render(request, "grounding/feedback.html", {"attempt": attempt,
                                                           "feedback": selectors.submitted_feedback(attempt),
                                                           "lines": attempt.fixture_version.numbered_lines()})
    context = _marking_context(attempt)
    context["read_only"] = attempt.user_id != request.user.pk
    return render(request, "grounding/attempt_marking.html", context)


@require_POST
def save_marks(request: SignedInRequest, attempt_id: int) -> HttpResponse:
    attempt = selectors.access_own_draft(request.user, attempt_id)
    form = MarksForm(request.POST, claim_ids=list(attempt.claims.values_list("pk", flat=True)))
    cleaned(form)
    if form.submitting:
        attempt = services.submit_attempt(user=request.user, attempt=attempt, marks=form.marks(),
                                          unjudged_confirmed=form.unjudged_confirmed)
        if attempt.status == Attempt.Status.DRAFT:
            # A real step, not a script's confirm(): the marks are saved and the learner chooses here.
            total, judged = selectors.judged_count(attempt)
            return render(request, "grounding/confirm_submit.html",
                          {"attempt": attempt, "total": total, "judged": judged, "unjudged": total - judged,
                           "unjudged_claims": selectors.unjudged_claims(attempt)})
        return redirect("grounding:attempt", attempt_id=attempt.pk)
    services.mark_claims(user=request.user, attempt=attempt, marks=form.marks())
    if request.htmx:
        return render(request, "grounding/attempt_marking.html#saved", {"attempt": attempt, "saved_at": timezone.now()})
    return redirect("grounding:attempt", attempt_id=attempt.pk)


@require_POST
def merge_claim(request: SignedInRequest, attempt_id: int, claim_id: int) -> HttpResponse:
    attempt = selectors.access_own_draft(request.user, attempt_id)
    services.merge_with_next(user=request.user, attempt=attempt, claim_id=claim_id)
    return _claims_or_redirect(request, attempt)


@require_POST
def split_claim(request: SignedInRequest, attempt_id: int, claim_id: int) -> HttpResponse:
    attempt = selectors.access_own_draft(request.user, attempt_id)
    form = SplitForm(request.POST, claim_id=claim_id)
    cleaned(form)
    services.split_claim(user=request.user, attempt=attempt, claim_id=claim_id, before=form.before())
    return _claims_or_redirect(request, attempt)


def _claims_or_redirect(request: SignedInRequest, attempt: Attempt) -> HttpResponse:
    if request.htmx:
        return render(request, "grounding/attempt_marking.html#claims", _marking_context(attempt))
    return redirect("grounding:attempt", attempt_id=attempt.pk)


@require_safe
def claim_suggestions(request: SignedInRequest, attempt_id: int, claim_id: int) -> HttpResponse:
    """Evidence candidates for one claim, only when the learner asks ("근거 후보 보기")."""
    attempt = selectors.access_own_draft(request.user, attempt_id)
    claim = attempt.claims.filter(pk=claim_id).first()
    if claim is None:
        return redirect("grounding:attempt", attempt_id=attempt.pk)
    suggestion = suggest(attempt.fixture_version.text, [claim.text])[0]
    lines = dict(attempt.fixture_version.numbered_lines())
    context = {"claim": claim, "suggestion": suggestion,
               "candidates": [(s.line, s.score, lines.get(s.line, "")) for s in suggestion.lines]}
    if request.htmx:
        return render(request, "grounding/attempt_marking.html#suggestions", context)
    return render(request, "grounding/suggestions_page.html", {**context, "attempt": attempt})


@require_safe
def learner_attempts(request: SignedInRequest, slug: str, username: str) -> HttpResponse:
    """An instructor's view of one learner's attempts at an exercise."""
    exercise = selectors.access_exercise(request.user, slug)
    learner, attempts = selectors.learner_attempts_for(request.user, exercise, username)
    return render(request, "grounding/learner_attempts.html",
                  {"exercise": exercise, "learner": learner, "attempts": attempts})


@require_safe
def groups_index(request: SignedInRequest) -> HttpResponse:
    """The instructor's list of exercises whose answer groups they may judge."""
    return render(request, "grounding/groups_index.html", {"exercises": selectors.exercises_with_groups(request.user)})


def _groups_page(request: SignedInRequest, slug: str, *, failed: int | None = None,
                 form: GroupJudgementForm | None = None, status: int = 200, **extra: str) -> HttpResponse:
    exercise, rows = selectors.answer_groups(request.user, slug)
    return render(request, "grounding/groups.html", {
        "exercise": exercise, "rows": rows, "relations": Relation.choices, "failed": failed, "form": form,
        "stale_keys": selectors.stale_keys(exercise), **extra,
    }, status=status)


@require_safe
def answer_groups(request: SignedInRequest, slug: str) -> HttpResponse:
    return _groups_page(request, slug)


@require_POST
def judge_group(request: SignedInRequest, slug: str, group_id: int) -> HttpResponse:
    """Judge one group; a refused judgement comes back beside its form with what was typed kept."""
    group = selectors.access_group(request.user, slug, group_id)
    form = GroupJudgementForm(request.POST)
    if not form.is_valid():
        return _groups_page(request, slug, failed=group.pk, form=form, status=400)
    try:
        services.judge_group(actor=request.user, group=group, relation=form.cleaned_data["relation"],
                             lines=form.cleaned_data["lines"], explanation=form.cleaned_data["explanation"])
    except TutorError as refused:
        form.add_error(None, refused.detail)
        return _groups_page(request, slug, failed=group.pk, form=form, status=refused.status)
    return redirect(reverse("grounding:groups", args=[slug]) + f"#group-{group.pk}")


@require_POST
def confirm_keys(request: SignedInRequest, slug: str) -> HttpResponse:
    """An instructor confirms the exercise's keys still hold on the fixture versions in use (audited)."""
    exercise, _taught = selectors.access_group_exercise(request.user, slug)
    reason = cleaned(ReasonForm(request.POST))["reason"]
    try:
        services.confirm_keys(actor=request.user, exercise=exercise, reason=reason)
    except TutorError as refused:
        return _groups_page(request, slug, status=refused.status, confirm_error=refused.detail, reason=reason)
    return redirect(reverse("grounding:groups", args=[slug]) + "#stale-keys")
