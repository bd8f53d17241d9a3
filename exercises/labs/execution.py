"""The worker side of a lab run: verify its seal, run it in the sandbox, check and seal the record, tell the apps.

Kept apart from ``services`` (the request side) so the task module can import
this without a circle: ``services`` enqueues ``tasks.execute_lab_run``, which
calls ``execute_run`` here, and nothing here imports ``services`` or ``tasks``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import os
import shutil
import socket
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.models import FixtureVersion
from tutor import audit, extensions, keys

from . import conf, push, records, selectors
from .checking import run_checks
from .content import program_for_step
from .hooks import RunListener
from .models import LabRun, SandboxHealth
from .sandbox import RunResult, SandboxConfig, run_python, warm
from .sandbox.runner import enforcement, interpreter
from .sandbox.selftest import run_selftest

logger = logging.getLogger(__name__)
# This worker process's warm sandboxes (``keep_warm``); None: every run starts cold (web processes, tests).
_warm: list[warm.Pool] = []


def keep_warm(size: int) -> warm.Pool | None:
    """Give this process a pool of ``size`` warm sandboxes for runs with the site's limits (the task worker,
    after its self-test passed); its runs take them, and start cold when none is ready."""
    stop_warm()
    if size <= 0:
        return None
    pool = warm.Pool(conf.sandbox_config(), conf.limits(), size=size)
    _warm.append(pool)
    return pool


def stop_warm() -> None:
    """Destroy this process's waiting warm sandboxes (the worker, on its way out)."""
    while _warm:
        _warm.pop().close()


@transaction.atomic(savepoint=False)
def refuse_altered(run: LabRun, check: records.SealCheck, *, by: str) -> None:
    """Leave a row that no longer matches its seal as it is (never run, never re-sealed) and audit it."""
    logger.warning("lab run %s refused by %s: %s", run.pk, by, check.message)
    audit.refusal(actor=None, action="lab_run.refused_altered", target=run, reason=check.message,
                  detail={"by": by, "state": check.state, "changed": check.changed, "why": check.why})


def execute_run(*, run_id: int) -> None:
    """Verify a queued run's request seal, claim it, run it in the sandbox, check it and seal the record.

    A row whose request seal no longer verifies (code or input changed, seal
    stripped, a finished run set back to queued) is refused before it runs and
    left as it is. Safe to call twice.
    """
    queued = LabRun.objects.filter(pk=run_id, status=LabRun.Status.QUEUED).first()
    if queued is None:
        return
    check = records.check_seal(queued)
    if check.state != "pending":
        refuse_altered(queued, check, by="worker")
        return
    # The claim matches the seal verified above, so a row changed in between is not taken.
    claimed = LabRun.objects.filter(pk=run_id, status=LabRun.Status.QUEUED, seal=queued.seal).update(
        status=LabRun.Status.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1,
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
    if not claimed:
        return
    run = LabRun.objects.select_related("lab").get(pk=run_id)
    if records.field_digests(run, records.REQUEST_FIELDS) != records.field_digests(queued, records.REQUEST_FIELDS):
        refuse_altered(run, records.check_seal(run), by="worker")
        return
    try:
        files = _sandbox_files(run)
        run.files = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}
        checks = run.lab.step(run.step) or {}
        result = run_python(program_for_step(checks, run.code), files=files,
                            stdin=run.stdin.encode("utf-8") if run.stdin else None,
                            limits=conf.limits(), config=conf.sandbox_config(),
                            pool=_warm[0] if _warm else None)
        by_id = {check["id"]: check for check in run.lab.checks}
        run.check_results = run_checks([by_id[c] for c in checks.get("checks", [])], result)
        run.interpreter = f"Python {interpreter(conf.sandbox_config().python).version}" if result.status != "refused" else ""
        _finish(run, result)
    except Exception:
        logger.exception("lab run %s failed outside the sandbox", run_id)
        fail_run(run_id=run_id, reason=_("실행을 마무리하지 못했습니다 (서버 오류). 다시 실행해 주세요."))


def _sandbox_files(run: LabRun) -> dict[str, bytes]:
    """The lab's files and the fixture versions recorded when the run was requested (not newer ones)."""
    files = {name: text.encode("utf-8") for name, text in run.lab.files.items()}
    numbers = {slug: version["number"] for slug, version in run.fixture_versions.items()}
    versions = FixtureVersion.objects.filter(fixture__slug__in=numbers).select_related("fixture")
    for version in versions:
        if numbers[version.fixture.slug] == version.number:
            files[f"{version.fixture.slug}.txt"] = version.text.encode("utf-8")
    return files


def _finish(run: LabRun, result: RunResult) -> None:
    run.status = result.status
    run.exit_code, run.signal = result.exit_code, result.signal
    run.stdout, run.stderr, run.truncated = result.stdout, result.stderr, result.truncated
    run.wall_ms, run.cpu_ms = result.wall_ms, result.cpu_ms
    run.peak_memory_bytes, run.accounting = result.peak_memory_bytes, result.accounting
    run.outcome_basis = result.basis[:200]
    if result.status == "refused":
        run.failure_reason = result.stderr
    run.finished_at = timezone.now()
    records.seal(run)
    run.save()
    tell_run_finished(run.pk)


def tell_run_finished(run_id: int) -> None:
    """Tell the apps built on labs that a run has ended, through the ``RunListener`` each registered (``hooks``)
    (evidence settles a peer's reproduction of an attached run). Labs imports none of them; the hook runs in
    the worker when the run ends, so no page has to settle anything on a GET. A hook's fault is logged and
    never undoes the run's record."""
    push.notify_run_finished(run_id)
    for listener in extensions.providers(RunListener):
        try:
            listener.lab_run_finished(run_id)
        except Exception:
            logger.exception("lab_run_finished of %r failed for run %s", listener, run_id)


def tell_runs_finished_while_away() -> None:
    """At a worker's start: a worker that died between a run's record and ``tell_run_finished`` left the news
    untold. Each ``RunListener``'s ``lab_runs_catch_up()`` looks for what it still waits on (evidence: pending
    reproductions whose re-run has ended), so nothing stays pending forever."""
    for listener in extensions.providers(RunListener):
        try:
            listener.lab_runs_catch_up()
        except Exception:
            logger.exception("lab_runs_catch_up of %r failed", listener)


@transaction.atomic(savepoint=False)
def fail_run(*, run_id: int, reason: str) -> None:
    run = LabRun.objects.select_for_update().select_related("lab").get(pk=run_id)
    if run.is_finished:
        return
    check = records.check_seal(run)
    if check.state != "pending":  # never seal over a row that no longer matches what was requested
        refuse_altered(run, check, by="fail_run")
        return
    run.status, run.failure_reason, run.finished_at = LabRun.Status.FAILED, reason, timezone.now()
    records.seal(run)
    run.save()
    transaction.on_commit(functools.partial(tell_run_finished, run.pk))


def record_sandbox_health(*, warm: int = 0, reuse: bool = False) -> SandboxHealth:
    """Run the hostile-program self-test and store the verdict the web process consults.

    ``warm``: run the catalogue in warm sandboxes too (a pool of that size), as the worker's runs will be.
    ``reuse`` (a worker starting): a pass this host recorded in the last ``LAB_SELFTEST_REUSE_SECONDS``, under the
    same boot, sandbox configuration, interpreter and pool size, is stored again as this worker's verdict
    (``reused_from``) instead of running the catalogue again (4 s and as many CPU-seconds, by design: it burns
    CPU to its limits). Anything else, a missing, stale, unsealed or altered record included, runs the test.
    """
    config = conf.sandbox_config()
    basis = _selftest_basis(config, warm)
    recent = _recent_pass(basis) if reuse else None
    if recent is not None:
        return SandboxHealth.objects.create(
            ok=True, host=selectors.this_host(), worker=f"{socket.gethostname()}:{os.getpid()}",
            interpreter=recent["interpreter"], enforcement=recent["enforcement"], detail=recent["detail"],
            reused_from=datetime.fromisoformat(recent["passed_at"]))
    verdicts = run_selftest(config, warm=warm)
    _backend, bounded_by = enforcement(config)
    try:
        version = f"Python {interpreter(config.python).version}"
    except Exception:  # the self-test already reports an unusable interpreter
        version = ""
    health = SandboxHealth.objects.create(
        ok=bool(verdicts) and all(v.passed for v in verdicts),
        host=selectors.this_host(),
        worker=f"{socket.gethostname()}:{os.getpid()}",
        interpreter=version,
        enforcement=bounded_by,
        detail=[{"name": v.name, "contained": v.contained, "status": v.status, "note": v.note,
                 "accepted_risk": v.accepted_risk} for v in verdicts],
    )
    _keep_pass(basis, health)
    return health


def _selftest_record() -> Path:
    return Path(settings.VAR_DIR) / "sandbox-selftest.json"


def _selftest_basis(config: SandboxConfig, warm: int) -> str:
    """What a pass holds for: this boot of this host, this sandbox configuration and pool size, these binaries."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        boot = ""
    tools = []
    for tool in (config.bwrap, config.python):  # an upgraded binary is another test
        found = shutil.which(tool) or tool
        try:
            stat = os.stat(found)
            tools.append(f"{found}:{stat.st_size}:{stat.st_mtime_ns}")
        except OSError:
            tools.append(f"{found}:-")
    text = "\x1f".join([boot, socket.gethostname(), repr(config), str(warm), *tools])
    return hashlib.sha256(text.encode()).hexdigest()


def _keep_pass(basis: str, health: SandboxHealth) -> None:
    """Write this host's latest pass, sealed, for the next worker to start on; a failure removes it."""
    path = _selftest_record()
    if not health.ok:
        path.unlink(missing_ok=True)
        return
    body = {"basis": basis, "passed_at": health.checked_at.isoformat(), "interpreter": health.interpreter,
            "enforcement": health.enforcement, "detail": health.detail}
    key = keys.current_key()
    record = {**body, "key": key.key_id, "mac": key.mac(keys.canonical(body))}
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False)
        os.replace(partial, path)
    except OSError as error:  # nothing to start on next time: the next worker runs the test, as without this
        logger.warning("sandbox self-test pass not kept for reuse: %s", error)


def _recent_pass(basis: str) -> dict | None:
    """The kept pass when it is sealed by a configured key, for this basis and recent enough; else None."""
    window = settings.LAB_SELFTEST_REUSE_SECONDS
    if window <= 0:
        return None
    try:
        record = json.loads(_selftest_record().read_text(encoding="utf-8"))
        body = {name: record[name] for name in ("basis", "passed_at", "interpreter", "enforcement", "detail")}
        key = keys.key_for(str(record["key"]))
        passed_at = datetime.fromisoformat(body["passed_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if key is None or not hmac.compare_digest(str(record.get("mac", "")), key.mac(keys.canonical(body))):
        return None
    age = (timezone.now() - passed_at).total_seconds()
    if body["basis"] != basis or not 0 <= age <= window or not isinstance(body["detail"], list):
        return None
    if not body["detail"] or not all(isinstance(item, dict) and (item.get("contained") or item.get("accepted_risk"))
                                     for item in body["detail"]):
        return None
    return body
