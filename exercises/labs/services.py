"""Every write of the labs app: loading labs, requesting and executing runs, worker health."""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import os
import socket
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.content import ContentError, folder_digest
from lessons.models import CompletionRecord, Fixture, Lesson
from lessons.services import record_completion
from tutor import audit
from tutor.errors import Conflict, Refused, Throttled, TutorError

from . import conf, records, selectors, wakeup
from .content import read_lab
from .execution import fail_run, refuse_altered
from .models import Lab, LabRun
from .sandbox.runner import sandbox_problem
from .tasks import execute_lab_run

logger = logging.getLogger(__name__)


class CodeTooLarge(TutorError):
    status = 413
    code = "too_large"
    title = "코드가 너무 깁니다"


@transaction.atomic(savepoint=False)
def load_labs(*, lesson: Lesson, folder: Path) -> list[str]:
    """Upsert the labs under ``<lesson folder>/labs``; a lab whose folder is gone is deactivated."""
    seen: set[str] = set()
    lines: list[str] = []
    labs_dir = folder / "labs"
    for lab_dir in sorted(p for p in labs_dir.iterdir() if p.is_dir()) if labs_dir.is_dir() else []:
        seen.add(lab_dir.name)
        line = _upsert_lab(lesson=lesson, folder=lab_dir)
        if line:
            lines.append(line)
    for lab in Lab.objects.filter(lesson=lesson, is_active=True).exclude(slug__in=seen):
        lab.is_active = False
        lab.save(update_fields=["is_active"])
        lines.append(_("실습 비활성화: %(slug)s") % {"slug": lab.slug})
    return lines


def _upsert_lab(*, lesson: Lesson, folder: Path) -> str:
    digest = folder_digest(folder)
    lab = Lab.objects.filter(slug=folder.name).first()
    if lab is not None and lab.digest == digest and lab.is_active and lab.lesson_id == lesson.pk:
        return ""
    fields = read_lab(folder)
    fixture_slugs = fields.pop("fixture_slugs")
    fixtures = list(Fixture.objects.filter(slug__in=fixture_slugs))
    if len(fixtures) != len(set(fixture_slugs)):
        raise ContentError(f"{folder}/lab.yaml: 없는 가상 자료를 가리킵니다: {fixture_slugs}")
    before = {"version": lab.version, "digest": lab.digest, "active": lab.is_active} if lab else None
    if lab is None:
        lab = Lab.objects.create(lesson=lesson, slug=folder.name, digest=digest, **fields)
        line = _("새 실습: %(slug)s") % {"slug": lab.slug}
    else:
        for name, value in fields.items():
            setattr(lab, name, value)
        if lab.digest != digest:
            lab.version += 1
        lab.digest, lab.lesson, lab.is_active = digest, lesson, True
        lab.save()
        line = _("실습 새 판: %(slug)s 판 %(n)d") % {"slug": lab.slug, "n": lab.version}
    lab.fixtures.set(fixtures)
    audit.record(actor=None, action="lab.version", target=lab, reason="레슨 파일에서 읽음", before=before,
                 after={"version": lab.version, "digest": digest, "active": True},
                 detail={"fixtures": sorted(fixture_slugs)})
    return line


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


#: Idempotency keys in this namespace are made by the server only (``server_run_key``); a client's is refused.
SERVER_KEY_PREFIX = "server:"


def server_run_key(*parts: object) -> str:
    """A request key for a run the server asks for itself (a reproduction): keyed with the site's secret, so no
    client can write it first, and the same for the same parts, so a retry finds the same run."""
    message = "\x1f".join(str(part) for part in parts).encode("utf-8")
    mac = hmac.new(settings.SECRET_KEY.encode("utf-8"), b"lab-run-key\x1f" + message, hashlib.sha256)
    return SERVER_KEY_PREFIX + mac.hexdigest()[:48]


def request_run(
    *, user: User, lab: Lab, code: str, step: str, idempotency_key: str, prediction: str = "",
    purpose: str = LabRun.Purpose.PRACTICE, made_by_server: bool = False,
) -> LabRun:
    """Queue one run of ``code``. The same key returns the same run, so a double click makes one run.

    Refuses (with a reason) while the sandbox is unhealthy, and answers 429 when
    the learner already has runs in flight or the queue is too deep. A
    reproduction run writes no completion fact: re-running a peer's code is
    not the reviewer's own practice. Keys starting with ``SERVER_KEY_PREFIX`` are
    the server's own (``made_by_server``); a client's key there is refused.
    """
    if len(code.encode("utf-8")) > settings.LAB_CODE_MAX_BYTES:
        raise CodeTooLarge(_("코드는 %(kb)d KiB까지 실행할 수 있습니다. 코드는 편집기에 그대로 있습니다.")
                           % {"kb": settings.LAB_CODE_MAX_BYTES // 1024})
    if step not in Lab.StepKind.values:
        raise TutorError(_("알 수 없는 단계입니다."))
    key = idempotency_key.strip()[:64]
    if not key:
        raise TutorError(_("요청 키가 없습니다. 페이지를 새로 고친 뒤 다시 실행하세요."))
    if key.lower().startswith(SERVER_KEY_PREFIX) != made_by_server:
        raise TutorError(_("이 요청 키는 쓸 수 없습니다. 페이지를 새로 고친 뒤 다시 실행하세요."))
    existing = LabRun.objects.filter(user=user, idempotency_key=key).first()
    if existing is not None:
        return _same_request(existing, lab)
    ensure_sandbox_healthy()
    try:
        with transaction.atomic():
            # Serialise this learner's requests so the in-flight limit holds under concurrency.
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            _ensure_capacity(user)
            run = LabRun.objects.create(
                lab=lab, user=user, idempotency_key=key, step=step, prediction=prediction[:4000],
                code=code, code_digest=code_digest(code), lab_version=lab.version, purpose=purpose,
                fixture_versions=_fixture_versions(lab), limits=conf.limits().as_json(),
            )
            records.seal_request(run)
            run.save(update_fields=["seal", "seal_key_id", "seal_digests"])
            if purpose == LabRun.Purpose.PRACTICE:
                record_completion(user=user, lesson=lab.lesson, kind=CompletionRecord.Kind.LAB_RUN, item=lab.slug)
            transaction.on_commit(lambda: _enqueue(run.pk))
    except IntegrityError:  # the same key raced in from a second request
        return _same_request(LabRun.objects.get(user=user, idempotency_key=key), lab)
    return run


def _same_request(run: LabRun, lab: Lab) -> LabRun:
    if run.lab_id != lab.pk:
        raise Conflict(_("같은 요청 키가 다른 실습에 이미 쓰였습니다."))
    return run


def _ensure_capacity(user: User) -> None:
    """The learner's own runs in flight, then the queue against what the live workers start in time (one read)."""
    counts = LabRun.objects.in_flight().aggregate(
        mine=Count("id", filter=Q(user=user)), queued=Count("id", filter=Q(status=LabRun.Status.QUEUED)))
    if counts["mine"] >= settings.LAB_MAX_IN_FLIGHT_PER_LEARNER:
        raise Throttled(
            _("이미 실행 중인 실습이 %(n)d개 있습니다. 하나가 끝나면 다시 실행하세요. 코드는 그대로 있습니다.")
            % {"n": settings.LAB_MAX_IN_FLIGHT_PER_LEARNER},
            retry_after=2,
        )
    capacity = selectors.run_queue_capacity()
    if counts["queued"] >= capacity.max_queued:
        retry = capacity.retry_after(counts["queued"])
        raise Throttled(_("지금은 실행 요청이 많아 %(promise)d초 안에 시작할 수 없습니다. %(retry)d초 뒤 다시 "
                          "실행하세요. 코드는 그대로 있습니다.")
                        % {"promise": settings.LAB_QUEUE_PROMISE_SECONDS, "retry": retry}, retry_after=retry)


def _fixture_versions(lab: Lab) -> dict[str, dict[str, Any]]:
    return {
        fixture.slug: {"number": fixture.current_version.number, "digest": fixture.current_version.digest}
        for fixture in lab.fixtures.select_related("current_version")
        if fixture.current_version is not None
    }


def _enqueue(run_id: int) -> None:
    execute_lab_run.enqueue(run_id=run_id)
    wakeup.notify_workers()


def ensure_sandbox_healthy() -> None:
    """Refuse new runs while no host's latest self-test passed.

    Before any worker has checked, the web host itself must be able to isolate; after
    that only the workers' hosts matter (a web-only host needs no bubblewrap).
    """
    latest = selectors.sandbox_health()
    if latest is None:
        if problem := sandbox_problem(conf.sandbox_config()):
            raise Refused(problem)
        return
    if not latest.ok:
        failed = ", ".join(item["name"] for item in latest.detail
                           if not item["contained"] and not item.get("accepted_risk"))
        raise Refused(_("실습 실행 환경(샌드박스) 점검에 실패해 지금은 실행하지 않습니다 (%(failed)s). "
                        "관리자가 고칠 때까지 기다려 주세요.") % {"failed": failed or _("준비 안 됨")})


def _worker_is_gone(worker: str) -> bool:
    """Say whether ``host:pid`` names a worker process on this host that no longer exists."""
    host, _, pid = worker.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def settle_stale_runs(*, now: datetime | None = None) -> list[int]:
    """End runs whose worker died: retry once (a sandboxed run has no effect outside), then fail with a reason.

    A run is stale when its worker process on this host is gone, or when it has
    been running longer than ``LAB_STALE_AFTER_SECONDS`` (a worker elsewhere).
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.LAB_STALE_AFTER_SECONDS)
    running = LabRun.objects.filter(status=LabRun.Status.RUNNING).values_list("pk", "attempts", "worker", "started_at")
    stale = [(pk, attempts) for pk, attempts, worker, started_at in running
             if _worker_is_gone(worker) or (started_at is not None and started_at < cutoff)]
    for run_id, attempts in stale:
        run = LabRun.objects.filter(pk=run_id, status=LabRun.Status.RUNNING).first()
        check = records.check_seal(run) if run is not None else None
        if run is None or check is None or check.state != "pending":
            # A finished run set back to "running" (or a changed one) is not re-run nor sealed again.
            if run is not None and check is not None:
                refuse_altered(run, check, by="settle_stale_runs")
            continue
        if attempts < 2:
            requeued = LabRun.objects.filter(pk=run_id, status=LabRun.Status.RUNNING).update(
                status=LabRun.Status.QUEUED, worker="", started_at=None)
            if requeued:
                transaction.on_commit(functools.partial(_enqueue, run_id))
        else:
            fail_run(run_id=run_id, reason=_("실행하던 워커가 멈췄습니다. 한 번 다시 시도했지만 끝나지 않았습니다."))
    return [run_id for run_id, _attempts in stale]


