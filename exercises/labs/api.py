"""JSON API of the labs app: the same selectors and services as the pages."""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Header, Router, Status

from tutor.http import ApiRequest

from . import push, records, selectors, services
from .models import Lab, LabRun
from .schemas import LabOut, RunIn, RunOut

router = Router(tags=["실습"])


def run_out(run: LabRun) -> dict:
    """The full record with its seal: the same for the owner, their instructors and an allocated peer."""
    check = records.check_seal(run)
    return {
        "id": run.pk, "lab": run.lab.slug, "step": run.step, "status": run.status,
        "status_label": run.get_status_display(), "exit_code": run.exit_code, "signal": run.signal,
        "stdout": run.stdout, "stderr": run.stderr, "truncated": run.truncated,
        "wall_ms": run.wall_ms, "cpu_ms": run.cpu_ms, "checks": run.check_results, "code": run.code,
        "code_digest": run.code_digest, "lab_version": run.lab_version, "fixture_versions": run.fixture_versions,
        "limits": run.limits, "interpreter": run.interpreter, "failure_reason": run.failure_reason,
        "prediction": run.prediction, "stdin": run.stdin, "files": run.files,
        "record_verifies": check.verified if run.is_finished else None,
        "seal": {
            "algorithm": "HMAC-SHA256", "key_id": run.seal_key_id, "value": run.seal, "state": check.state,
            "verified": check.verified, "message": check.message, "covers": list(records.SEALED_FIELDS),
            "changed": check.changed, "not_covered": list(records.NOT_SEALED),
        },
        "created_at": run.created_at, "finished_at": run.finished_at,
    }


@router.get("/{slug}", response=LabOut, summary="실습 하나 (참고 답안 제외)")
def get_lab(request: ApiRequest, slug: str) -> Lab:
    return selectors.access_lab(request.auth, slug)


@router.post("/{slug}/runs", response={202: RunOut}, summary="실행 요청 (Idempotency-Key 헤더로 한 번만)")
def request_run(request: ApiRequest, slug: str, payload: RunIn,
                idempotency_key: str = Header(..., alias="Idempotency-Key")) -> Status:
    lab = selectors.access_lab(request.auth, slug)
    run = services.request_run(user=request.auth, lab=lab, code=payload.code, step=payload.step,
                               idempotency_key=idempotency_key, prediction=payload.prediction)
    return Status(202, run_out(run))


@router.get("/runs/{run_id}", response=RunOut, summary="실행 기록 (본인과 그 강사만)")
def get_run(request: ApiRequest, response: HttpResponse, run_id: int, wait: bool = False) -> dict:
    """``?wait=true`` holds the answer until the run ends or ``LAB_RUN_HOLD_SECONDS`` pass, as the run's page
    does; ask again at once while ``finished_at`` is null. When the process already holds all it may, the
    unfinished answer comes at once with ``Retry-After: 1``: a client that asked again at once would spin,
    costing the server the CPU the runs need (issue 24 measured 60-80 ms per run of it)."""
    run = selectors.access_run(request.auth, run_id)
    if wait and not run.is_finished:
        held = push.hold_until_finished(run.pk, lambda: selectors.run_has_ended(run.pk))
        run = selectors.access_run(request.auth, run_id)
        if not held and not run.is_finished:
            response["Retry-After"] = "1"
    return run_out(run)
