"""Labs and their runs. A ``LabRun`` is a record a reviewer can trust: it keeps
what ran, under which limits and fixture versions, what came out, and a keyed
seal over all of it (``records.py``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.models import Fixture, Lesson


class LabQuerySet(models.QuerySet["Lab"]):
    def active(self) -> LabQuerySet:
        return self.filter(is_active=True)


class Lab(models.Model):
    class StepKind(models.TextChoices):
        PREDICT = "predict", _("예측하기")
        RUN = "run", _("실행하기")
        INJECT = "inject", _("실패 주입하기")
        OBSERVE = "observe", _("관찰하기")
        RESTORE = "restore", _("되돌리기")
        EXTEND = "extend", _("사례 늘리기")

    RUNNABLE_STEPS = (StepKind.RUN, StepKind.INJECT, StepKind.RESTORE, StepKind.EXTEND)

    lesson = models.ForeignKey(Lesson, on_delete=models.PROTECT, related_name="labs")
    slug = models.SlugField(unique=True)
    order = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    instructions_html = models.TextField(blank=True)
    steps = models.JSONField(default=list, help_text="[{kind, title, html, checks, inject, cases}]")
    checks = models.JSONField(default=list, help_text="[{id, kind, value, label}]")
    starter_code = models.TextField()
    solution_code = models.TextField(help_text=_("참고 답안: 학습자에게 보내지 않습니다."))
    files = models.JSONField(default=dict, help_text="{name: text}, bound read-only beside main.py")
    fixtures = models.ManyToManyField(Fixture, blank=True, related_name="labs")
    digest = models.CharField(max_length=64)
    version = models.PositiveIntegerField(default=1)
    is_active = models.BooleanField(default=True)

    objects = LabQuerySet.as_manager()

    class Meta:
        verbose_name = _("실습")
        verbose_name_plural = _("실습")
        ordering = ["lesson__order", "order", "slug"]

    def __str__(self) -> str:
        return self.title

    def step(self, kind: str) -> dict | None:
        return next((step for step in self.steps if step["kind"] == kind), None)


class LabRunQuerySet(models.QuerySet["LabRun"]):
    def in_flight(self) -> LabRunQuerySet:
        return self.filter(status__in=[LabRun.Status.QUEUED, LabRun.Status.RUNNING])

    def of(self, user: User) -> LabRunQuerySet:
        return self.filter(user=user)

    def own_work(self) -> LabRunQuerySet:
        """Runs that are the learner's own practice: a peer reviewer's reproduction runs are not."""
        return self.filter(purpose=LabRun.Purpose.PRACTICE)


class LabRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("대기")
        RUNNING = "running", _("실행 중")
        OK = "ok", _("완료")
        ERROR = "error", _("오류로 끝남")
        TIMEOUT = "timeout", _("시간 초과")
        MEMORY = "memory", _("메모리 초과")
        OUTPUT_LIMIT = "output_limit", _("출력 한도 초과")
        KILLED = "killed", _("강제 종료")
        REFUSED = "refused", _("실행 거부")
        FAILED = "failed", _("실패 (워커 중단)")

    class Purpose(models.TextChoices):
        PRACTICE = "practice", _("내 실습")
        REPRODUCTION = "reproduction", _("동료 제출 재현")

    FINISHED = {Status.OK, Status.ERROR, Status.TIMEOUT, Status.MEMORY, Status.OUTPUT_LIMIT,
                Status.KILLED, Status.REFUSED, Status.FAILED}

    lab = models.ForeignKey(Lab, on_delete=models.PROTECT, related_name="runs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="lab_runs")
    idempotency_key = models.CharField(max_length=64)
    step = models.CharField(max_length=10, choices=Lab.StepKind.choices, default=Lab.StepKind.RUN)
    purpose = models.CharField(
        max_length=12, choices=Purpose.choices, default=Purpose.PRACTICE,
        help_text="A reproduction re-runs a peer's attached run: the reviewer's act, never their own work.",
    )
    prediction = models.TextField(blank=True)
    code = models.TextField()
    stdin = models.TextField(blank=True, help_text="standard input given to the program (empty: none)")
    files = models.JSONField(default=dict, help_text="{name: sha256} of every file bound beside main.py")
    code_digest = models.CharField(max_length=64)
    lab_version = models.PositiveIntegerField()
    fixture_versions = models.JSONField(default=dict, help_text="{slug: {number, digest}}")
    limits = models.JSONField(default=dict)
    interpreter = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED, db_index=True)
    exit_code = models.IntegerField(null=True, blank=True)
    signal = models.IntegerField(null=True, blank=True)
    stdout = models.TextField(blank=True)
    stderr = models.TextField(blank=True)
    truncated = models.BooleanField(default=False)
    wall_ms = models.FloatField(null=True, blank=True)
    cpu_ms = models.FloatField(null=True, blank=True)
    peak_memory_bytes = models.BigIntegerField(null=True, blank=True, help_text="the run's cgroup peak")
    accounting = models.CharField(max_length=80, blank=True, help_text="cgroup v1/v2 (whole run) or rlimit")
    outcome_basis = models.CharField(max_length=200, blank=True, help_text="what decided the status")
    check_results = models.JSONField(default=list, help_text="[{id, label, passed, detail}]")
    failure_reason = models.TextField(blank=True)
    seal = models.CharField(max_length=64, blank=True, help_text="HMAC-SHA256 over seal_digests (records.py)")
    seal_key_id = models.CharField(max_length=32, blank=True)
    seal_digests = models.JSONField(default=dict, blank=True, help_text="{field: sha256} of each sealed field")
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=100, blank=True, help_text="host:pid of the worker that ran it")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = LabRunQuerySet.as_manager()

    class Meta:
        verbose_name = _("실행 기록")
        verbose_name_plural = _("실행 기록")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "idempotency_key"], name="lab_run_idempotent"),
        ]

    def __str__(self) -> str:
        return f"{self.lab.slug} #{self.pk} ({self.get_status_display()})"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def checks_passed(self) -> int:
        return sum(1 for check in self.check_results if check["passed"])


class SealEpoch(models.Model):
    """When keyed seals began: the highest run id recorded before them (one row, sealed with HMAC).

    Runs up to this id may carry no seal ("키 봉인 이전 형식"); every later run
    must, or it reads "altered". A missing or edited row counts as 0 (records.py).
    """

    last_unkeyed_run_id = models.BigIntegerField(default=0)
    key_id = models.CharField(max_length=32)
    seal = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("키 봉인 시작점")
        verbose_name_plural = _("키 봉인 시작점")

    def __str__(self) -> str:
        return f"run ≤ {self.last_unkeyed_run_id}"


class SandboxHealth(models.Model):
    """The result of the sandbox self-test a worker ran at start, kept per host.

    A worker takes runs only while its own check passed, and marks ``seen_at``
    while it runs; the site refuses runs only when no live worker's check passed.
    """

    checked_at = models.DateTimeField(auto_now_add=True, db_index=True)
    ok = models.BooleanField()
    host = models.CharField(max_length=100, db_index=True, default="", help_text="the worker's host name")
    seen_at = models.DateTimeField(default=timezone.now, db_index=True,
                                   help_text="last sign of life of the worker that ran this check")
    worker = models.CharField(max_length=100)
    interpreter = models.CharField(max_length=40, blank=True)
    enforcement = models.TextField(blank=True, help_text="how runs are bounded: per-run cgroup or rlimit only")
    detail = models.JSONField(default=list, help_text="[{name, contained, status, note, accepted_risk}]")
    reused_from = models.DateTimeField(
        null=True, blank=True,
        help_text="when this host's pass was run, if this worker started on it instead of running the test again")

    class Meta:
        ordering = ["-checked_at", "-id"]
        get_latest_by = "checked_at"

    def __str__(self) -> str:
        return f"{self.host} {'통과' if self.ok else '실패'} ({self.checked_at:%Y-%m-%d %H:%M})"
