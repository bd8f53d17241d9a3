"""Reads of the labs app that depend on who asks."""

from __future__ import annotations

import math
import socket
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.db.models import Max, QuerySet, Subquery
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.content import SLUG
from lessons.fixture_refs import FixtureUse, lines_referred, resolve, use, versions_for
from lessons.models import Fixture
from lessons.selectors import RecordLink, readable_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import NotFound

from .checking import raised_exception
from .models import Lab, LabRun, SandboxHealth


def instructions_of(lab: Lab) -> str:
    """The lab's instructions (safe markup) with fixture lines quoted from the versions in use."""
    return resolve(lab.instructions_html, versions_for(lab.instructions_html), html=True)


def labs_of_lesson(lesson_id: int) -> QuerySet[Lab]:
    return Lab.objects.active().filter(lesson_id=lesson_id).order_by("order", "slug")


def access_lab(user: AnyUser, slug: str) -> Lab:
    """Return an active lab of a lesson ``user`` may read; labs need sign-in."""
    access.require_sign_in(user)
    lab = None
    if SLUG.match(slug):
        lab = (Lab.objects.active().select_related("lesson__current_version", "lesson__course")
               .filter(slug=slug).first())
    if lab is None:
        raise NotFound(_("그런 실습은 없습니다."))
    readable_lesson(user, lab.lesson)  # one query for both: the lab page and every run request start here
    return lab


def access_run(user: AnyUser, run_id: int) -> LabRun:
    """Return a run to its owner or an instructor of the owner; 404 to everybody else."""
    access.require_sign_in(user)
    run = LabRun.objects.select_related("lab__lesson", "user").filter(pk=run_id).first()
    if run is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    if not access.may_see_records_of(user, run.user):
        raise NotFound(_("그런 실행 기록은 없습니다."), target=run, reason="남의 실행 기록")
    return run


def run_has_ended(run_id: int) -> bool:
    """One indexed read: whether the run has finished (a held status request asks this when woken)."""
    return LabRun.objects.filter(pk=run_id, status__in=LabRun.FINISHED).exists()


def runs_of(user: User, lab: Lab, *, limit: int = 20) -> list[LabRun]:
    return list(LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id")[:limit])


def latest_code(user: User, lab: Lab) -> str:
    """What the editor opens with: the learner's last run of this lab, else the starter code."""
    last = LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id").values_list("code", flat=True).first()
    return last if last is not None else lab.starter_code


def latest_prediction(user: User, lab: Lab) -> str:
    return (LabRun.objects.of(user).own_work().filter(lab=lab).exclude(prediction="")
            .order_by("-created_at", "-id").values_list("prediction", flat=True).first() or "")


def this_host() -> str:
    return socket.gethostname()


def _latest_by(field: str, rows: QuerySet[SandboxHealth]) -> list[SandboxHealth]:
    latest_ids = rows.values(field).annotate(last=Max("id")).values("last")
    return list(SandboxHealth.objects.filter(pk__in=Subquery(latest_ids)).order_by("-checked_at", "-id"))


def _verdict(rows: QuerySet[SandboxHealth]) -> SandboxHealth | None:
    """A passing check of a live worker if there is one; else the newest live failure; else,
    when no worker is alive, the latest check of each host (a passing one first)."""
    cutoff = timezone.now() - timedelta(seconds=settings.LAB_WORKER_SILENT_AFTER_SECONDS)
    live = _latest_by("worker", rows.filter(seen_at__gte=cutoff))
    candidates = live or _latest_by("host", rows)
    return next((health for health in candidates if health.ok), candidates[0] if candidates else None)


def host_health(host: str) -> SandboxHealth | None:
    """This host's sandbox as its workers found it: passing while any live worker's check passed."""
    return _verdict(SandboxHealth.objects.filter(host=host))


def sandbox_health() -> SandboxHealth | None:
    """What decides whether the site accepts runs (``None`` when no worker has checked yet).

    One failing worker or host must not block runs that a healthy one can take.
    """
    return _verdict(SandboxHealth.objects.all())


@dataclass(frozen=True)
class RunQueueCapacity:
    """What the live workers can take: runs executed at once, and how long one recently took on a worker.

    The queue cap is what they start within ``LAB_QUEUE_PROMISE_SECONDS``: a
    learner is turned away (429) only when a run accepted now would wait longer
    than that promise, so two workers of three threads each admit far more than
    one worker of one thread, and a slow lab admits fewer than a quick one.
    """

    runners: int
    run_seconds: float

    @property
    def max_queued(self) -> int:
        if self.runners <= 0:  # no live worker: a small queue waits for the first one back (healthz says so)
            return settings.LAB_QUEUE_FLOOR
        started = math.floor(settings.LAB_QUEUE_PROMISE_SECONDS * self.runners / self.run_seconds)
        return max(settings.LAB_QUEUE_FLOOR, min(settings.LAB_MAX_QUEUE_DEPTH, started))

    def retry_after(self, queued: int) -> int:
        """Seconds until the queue is back under the cap, rounded up, 1 to 60."""
        if self.runners <= 0:
            return 10
        excess = queued - self.max_queued + 1
        return max(1, min(60, math.ceil(excess * self.run_seconds / self.runners)))


# Recent finished runs the run time is the mean of, and the time a run is assumed to take before any finished.
RUN_TIME_SAMPLE = 50
RUN_SECONDS_UNKNOWN = 0.5
_capacity_memo: tuple[float, RunQueueCapacity] | None = None
_capacity_lock = threading.Lock()


def run_queue_capacity() -> RunQueueCapacity:
    """The live workers' capacity, read at most every ``LAB_QUEUE_CAPACITY_CACHE_SECONDS`` per process.

    Two small reads (live workers; the last runs' start and end) shared by every
    run request of those seconds, so the cap costs a run request nothing.
    """
    global _capacity_memo
    now = time.monotonic()
    with _capacity_lock:
        if _capacity_memo is not None and now - _capacity_memo[0] < settings.LAB_QUEUE_CAPACITY_CACHE_SECONDS:
            return _capacity_memo[1]
    cutoff = timezone.now() - timedelta(seconds=settings.LAB_WORKER_SILENT_AFTER_SECONDS)
    workers = SandboxHealth.objects.filter(seen_at__gte=cutoff, ok=True).values("worker").distinct().count()
    recent = (LabRun.objects.filter(status__in=LabRun.FINISHED, started_at__isnull=False, finished_at__isnull=False)
              .order_by("-created_at", "-id").values_list("started_at", "finished_at")[:RUN_TIME_SAMPLE])
    spans = [(finished - started).total_seconds() for started, finished in recent if started and finished]
    run_seconds = max(0.01, sum(spans) / len(spans)) if spans else RUN_SECONDS_UNKNOWN
    capacity = RunQueueCapacity(runners=workers * settings.LAB_WORKER_THREADS, run_seconds=run_seconds)
    with _capacity_lock:
        _capacity_memo = (now, capacity)
    return capacity


@dataclass(frozen=True)
class Outcome:
    """How a finished run reads to a beginner: a tone for the badge, a short label, one plain sentence."""

    tone: str  # ok | warn | error
    label: str
    sentence: str


def describe_outcome(run: LabRun) -> Outcome:
    """Say in plain Korean how a run ended, judged against what its step expected.

    The inject step is meant to fail: when its own checks pass, the intended
    failure happened, so the run reads as a success of that step, not as 오류.
    """
    ending = _ending(run)
    results = run.check_results
    if run.status in {LabRun.Status.REFUSED, LabRun.Status.FAILED} or not results:
        tone = "ok" if run.status == LabRun.Status.OK else "error"
        return Outcome(tone, run.get_status_display(), ending)
    all_passed = all(check["passed"] for check in results)
    if run.step == Lab.StepKind.INJECT:
        if all_passed:
            return Outcome("ok", _("의도한 실패 확인됨"),
                           _("이 단계는 실패해야 맞습니다. %(ending)s 검사가 모두 그 실패를 확인했습니다.")
                           % {"ending": ending})
        return Outcome("warn", _("의도한 실패가 아님"),
                       _("이 단계가 기대한 실패가 일어나지 않았습니다. %(ending)s") % {"ending": ending})
    if all_passed:
        return Outcome("ok", _("검사 모두 통과"), ending)
    return Outcome("warn" if run.status == LabRun.Status.OK else "error",
                   _("검사 %(passed)d / %(total)d 통과") % {"passed": run.checks_passed, "total": len(results)},
                   ending)


def _ending(run: LabRun) -> str:
    limits = run.limits or {}
    status = run.status
    if status == LabRun.Status.OK:
        return _("프로그램이 정상으로 끝났습니다.")
    if status == LabRun.Status.ERROR:
        raised = raised_exception(run.stderr)
        if raised:
            return _("프로그램이 %(name)s 예외로 멈췄습니다 (종료 코드 %(code)s).") % {
                "name": raised, "code": run.exit_code}
        return _("프로그램이 오류로 끝났습니다 (종료 코드 %(code)s).") % {"code": run.exit_code}
    if status == LabRun.Status.TIMEOUT:
        cpu = limits.get("cpu_seconds")
        if cpu and run.cpu_ms is not None and run.cpu_ms >= cpu * 1000:
            return _("CPU %(n)s초 제한에 걸려 멈췄습니다.") % {"n": _number(cpu)}
        return _("%(n)s초 제한에 걸려 멈췄습니다.") % {"n": _number(limits.get("wall_seconds", "?"))}
    if status == LabRun.Status.MEMORY:
        return _("메모리 제한(%(size)s)을 넘어 멈췄습니다.") % {"size": _size(limits.get("memory_bytes"))}
    if status == LabRun.Status.OUTPUT_LIMIT:
        return _("출력이 한도(%(size)s)를 넘어 멈췄습니다. 앞부분만 보여 줍니다.") % {
            "size": _size(limits.get("output_bytes"))}
    if status == LabRun.Status.KILLED:
        return _("샌드박스가 프로그램을 강제로 멈췄습니다.")
    if status == LabRun.Status.REFUSED:
        return run.failure_reason or _("샌드박스가 이 실행을 거부했습니다.")
    if status == LabRun.Status.FAILED:
        return run.failure_reason or _("실행을 마치지 못했습니다. 다시 실행해 주세요.")
    return run.get_status_display()


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _size(value: object) -> str:
    return filesizeformat(value) if isinstance(value, int) else _("정해진 크기")


def step_states(user: User, lab: Lab) -> dict[str, bool]:
    """Which steps this learner has done: a runnable step when a run of it met its checks.

    The predict step counts once a run carried a prediction; the observe step
    follows the inject step, since what is observed is that run.
    """
    runs = list(LabRun.objects.of(user).own_work().filter(lab=lab, status__in=LabRun.FINISHED)
                .exclude(status__in=[LabRun.Status.REFUSED, LabRun.Status.FAILED])
                .values("step", "prediction", "check_results"))
    done = {
        kind: any(run["step"] == kind and run["check_results"] and all(c["passed"] for c in run["check_results"])
                  for run in runs)
        for kind in Lab.RUNNABLE_STEPS
    }
    done[Lab.StepKind.PREDICT] = any(run["prediction"].strip() for run in runs)
    done[Lab.StepKind.OBSERVE] = done[Lab.StepKind.INJECT]
    return {str(kind): value for kind, value in done.items()}


def readable_files(lab: Lab) -> list[tuple[str, list[str]]]:
    """The read-only files a run gets beside main.py, as the sandbox will see them, split into lines."""
    files = dict(lab.files)
    for fixture in lab.fixtures.select_related("current_version"):
        if fixture.current_version is not None:
            files[f"{fixture.slug}.txt"] = fixture.current_version.text
    return [(name, text.splitlines()) for name, text in sorted(files.items())]


def record_links_of(user: User, *, per_lab: int = 5) -> dict[int, list[RecordLink]]:
    """Per lesson, links to the learner's own latest runs of each lab (for 내 학습 기록)."""
    links: dict[int, list[RecordLink]] = {}
    shown: dict[int, int] = {}
    runs = LabRun.objects.of(user).own_work().select_related("lab").order_by("-created_at", "-id")
    for run in runs:
        shown[run.lab_id] = shown.get(run.lab_id, 0) + 1
        if shown[run.lab_id] > per_lab:
            continue
        state = describe_outcome(run).label if run.is_finished else run.get_status_display()
        links.setdefault(run.lab.lesson_id, []).append(RecordLink(
            track="activity",
            label=_("실습 %(title)s · 실행 #%(n)d %(step)s (%(state)s)") % {
                "title": run.lab.title, "n": run.pk, "step": run.get_step_display(), "state": state},
            url=reverse("labs:run", args=[run.pk]), at=run.created_at,
        ))
    return links


def fixture_uses(fixture: Fixture) -> list[FixtureUse]:
    """Labs that read ``fixture`` (all of it, from /sandbox) and labs whose instructions quote its lines."""
    uses = [use("실습", lab.title, None) for lab in Lab.objects.active().filter(fixtures=fixture)]
    for lab in Lab.objects.active().filter(instructions_html__contains=f"[[{fixture.slug}"):
        uses.append(use("실습 설명", lab.title, lines_referred(lab.instructions_html, fixture.slug)))
    return uses


def sandbox_health_check() -> dict[str, Any]:
    """``/healthz``'s sandbox check: this host's latest worker self-test (not checked on a web-only host)."""
    try:
        health = host_health(this_host())
    except DatabaseError:
        return {"ok": False, "detail": "database unavailable"}
    if health is None:
        return {"ok": None, "host": this_host(), "detail": "no worker has checked this host"}
    failed = [item["name"] for item in health.detail if not item["contained"]]
    return {"ok": health.ok, "host": health.host, "checked_at": health.checked_at.isoformat(),
            "failed": failed}
