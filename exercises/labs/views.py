"""Lab pages: the editor, the run request, the run record. Views only parse HTTP."""

from __future__ import annotations

import uuid

from django import forms
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from tutor.forms import cleaned
from tutor.http import SignedInRequest

from . import push, records, selectors, services
from .forms import DownloadForm, RunForm
from .models import Lab


def _lab_context(request: SignedInRequest, lab: Lab, *, code: str) -> dict:
    done = selectors.step_states(request.user, lab)
    steps = [{**step, "done": done.get(step["kind"], False)} for step in lab.steps]
    return {
        "lab": lab,
        "instructions": selectors.instructions_of(lab),
        "steps": steps,
        "steps_done": sum(1 for step in steps if step["done"]),
        "inject": next((step["inject"] for step in lab.steps if step.get("inject")), None),
        "files": selectors.readable_files(lab),
        "code": code,
        "prediction": selectors.latest_prediction(request.user, lab),
        "runs": selectors.runs_of(request.user, lab),
        "idempotency_key": uuid.uuid4().hex,
        "health": selectors.sandbox_health(),
        "run_steps": [step for step in lab.steps if step["kind"] in Lab.RUNNABLE_STEPS],
    }


@require_safe
def lab_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    lab = selectors.access_lab(request.user, slug)
    code = lab.starter_code if "reset" in request.GET else selectors.latest_code(request.user, lab)
    return render(request, "labs/lab_detail.html", _lab_context(request, lab, code=code))


@require_POST
def request_run(request: SignedInRequest, slug: str) -> HttpResponse:
    lab = selectors.access_lab(request.user, slug)
    run = services.request_run(user=request.user, lab=lab, **cleaned(RunForm(request.POST)))
    if request.htmx:
        return render(request, "labs/lab_detail.html#run-started",
                      {"run": run, "lab": lab, "idempotency_key": uuid.uuid4().hex})
    return redirect("labs:run", run_id=run.pk)


class RunStatusQuery(forms.Form):
    """``?wait=1``: the page's status request, held until the run ends (``push``)."""

    wait = forms.BooleanField(required=False)


@require_safe
def run_detail(request: SignedInRequest, run_id: int) -> HttpResponse:
    run = selectors.access_run(request.user, run_id)
    query = RunStatusQuery(request.GET)
    poll_later = False
    if request.htmx and query.is_valid() and query.cleaned_data["wait"] and not run.is_finished:
        poll_later = not push.hold_until_finished(run.pk, lambda: selectors.run_has_ended(run.pk))
        run = selectors.access_run(request.user, run_id)
    context = {"run": run, "seal": records.check_seal(run), "own": run.user_id == request.user.pk,
               "poll_later": poll_later}
    # The run page's own status box (and its polled updates) must not link to the page itself.
    context["on_run_page"] = not request.htmx or request.htmx.current_url_abs_path == reverse("labs:run", args=[run.pk])
    if request.htmx:
        return render(request, "labs/lab_detail.html#run-status", context)
    return render(request, "labs/run_detail.html", context)


@require_POST
def download_code(request: SignedInRequest, slug: str) -> HttpResponse:
    """Send back the editor's code as a file, so downloading works without JavaScript too."""
    lab = selectors.access_lab(request.user, slug)
    code = cleaned(DownloadForm(request.POST))["code"]
    response = HttpResponse(code, content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{lab.slug}.py"'
    return response

