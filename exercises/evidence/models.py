"""Evidence tasks with versioned rubrics, submissions, and reviews as separate records.

A self-review, a peer review and an instructor review are three rows, never
one overwriting another; a learner sees a review of their work only after an
instructor of the review's cohort releases that review. "근거 부족 / 보류" is a
valid outcome of every criterion. A calibration review of an example is a
practice record of its own, never a review of anybody's work.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from exercises.labs.models import LabRun
from lessons.models import Fixture, FixtureVersion, Lesson
from tutor.models import Cohort

INSUFFICIENT = "insufficient"  # the level every criterion has: 근거 부족 / 보류


class EvidenceTaskQuerySet(models.QuerySet["EvidenceTask"]):
    def active(self) -> EvidenceTaskQuerySet:
        return self.filter(is_active=True)


class EvidenceTask(models.Model):
    class Kind(models.TextChoices):
        PRACTICE = "practice", _("독립 실습")
        TRANSFER = "transfer", _("새 맥락에 적용하기")
        EXPLAIN = "explain", _("내 말로 설명하고 가르치기")

    lesson = models.ForeignKey(Lesson, on_delete=models.PROTECT, related_name="evidence_tasks")
    slug = models.SlugField(unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    order = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    instructions_html = models.TextField(blank=True)
    fixture = models.ForeignKey(Fixture, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    attach_runs = models.BooleanField(default=False)
    default_min_peer_reviews = models.PositiveSmallIntegerField(
        default=1, help_text="From evidence.yaml; a cohort's own setting (CohortTaskSetting) wins over it.")
    default_opens_at = models.DateTimeField(null=True, blank=True, help_text="From evidence.yaml (opens_at).")
    default_due_at = models.DateTimeField(null=True, blank=True, help_text="From evidence.yaml (due_at).")
    default_peer_due_at = models.DateTimeField(null=True, blank=True, help_text="From evidence.yaml (peer_due_at).")
    current_rubric = models.ForeignKey("RubricVersion", null=True, on_delete=models.PROTECT, related_name="+")
    digest = models.CharField(max_length=64)
    is_active = models.BooleanField(default=True)

    objects = EvidenceTaskQuerySet.as_manager()

    class Meta:
        verbose_name = _("증거 과제")
        verbose_name_plural = _("증거 과제")
        ordering = ["lesson__order", "order"]

    def __str__(self) -> str:
        return self.title


class RubricVersion(models.Model):
    """One immutable version of a task's rubric; editing a rubric makes a new one."""

    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="rubric_versions")
    number = models.PositiveIntegerField()
    criteria = models.JSONField(help_text="[{key, title, levels: [{key, label, description, points}]}]")
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["task", "-number"]
        constraints = [models.UniqueConstraint(fields=["task", "number"], name="rubric_version_number")]

    def __str__(self) -> str:
        return f"{self.task.slug} 기준표 판 {self.number}"


class SubmissionQuerySet(models.QuerySet["Submission"]):
    def submitted(self) -> SubmissionQuerySet:
        return self.filter(status=Submission.Status.SUBMITTED)


class Submission(models.Model):
    """A version of a learner's evidence for a task. The draft is autosaved; submitting seals it."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("초안")
        SUBMITTED = "submitted", _("제출함")

    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="submissions")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="evidence_submissions")
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    text = models.TextField(blank=True, help_text="Markdown; rendered sanitised.")
    lab_runs = models.ManyToManyField(LabRun, blank=True, related_name="evidence_submissions")
    cited_lines = models.JSONField(default=list)
    cited_fixture_version = models.ForeignKey(
        FixtureVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="The fixture version the cited lines were picked on; a later edit of those lines is warned about.")
    fixture_version = models.ForeignKey(FixtureVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    rubric_version = models.ForeignKey(RubricVersion, on_delete=models.PROTECT, related_name="submissions")
    submit_key = models.CharField(max_length=64, blank=True)
    peer_work_read = models.JSONField(
        default=list, blank=True,
        help_text="Set on submitting: [{submission, similarity}] for each peer's work the author was handed before, "
                  "with rapidfuzz's token-set similarity (0–100) of this text to it. Shown as '동료 작업을 읽은 뒤 제출'.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True,
                                  help_text="The due time that held for the author when they submitted (extension included).")
    disagreement_resolution = models.TextField(blank=True, help_text="The instructor's reason when reviews disagreed.")
    disagreement_resolved_at = models.DateTimeField(null=True, blank=True)
    disagreement_resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                                 on_delete=models.PROTECT, related_name="+")
    disagreement_released_at = models.DateTimeField(
        null=True, blank=True, help_text="The resolution reaches the author only with a release.")

    #: Not stored: what the newest version waits for, set by ``selectors.submissions_of`` for its page.
    waiting: str = ""
    #: Not stored: set by the queue on an older version listed only because a review of it waits for release.
    superseded: bool = False

    objects = SubmissionQuerySet.as_manager()

    class Meta:
        verbose_name = _("제출")
        verbose_name_plural = _("제출")
        ordering = ["task", "author", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["task", "author", "version"], name="submission_version"),
            models.UniqueConstraint(fields=["task", "author"], condition=models.Q(status="draft"), name="one_draft"),
        ]

    def __str__(self) -> str:
        return f"{self.task.slug} v{self.version}"

    @property
    def late_by(self) -> timedelta | None:
        """How late the version was submitted ("기한 후 제출"), or ``None`` when on time or without a due time."""
        if self.submitted_at is None or self.due_at is None or self.submitted_at <= self.due_at:
            return None
        return self.submitted_at - self.due_at


class ReviewQuerySet(models.QuerySet["Review"]):
    def released(self) -> ReviewQuerySet:
        return self.filter(released_at__isnull=False)

    def unreleased(self) -> ReviewQuerySet:
        """Reviews of others that still wait for an instructor's release (self-reviews never wait)."""
        return self.filter(released_at__isnull=True).exclude(kind=Review.Kind.SELF)

    def seen_by_author(self) -> ReviewQuerySet:
        """What the author of the work may see of its reviews: their own self-review, and others' once released.
        ``Review.seen_by_author`` says the same of one review already read."""
        return self.filter(models.Q(kind=Review.Kind.SELF) | models.Q(released_at__isnull=False))


class Review(models.Model):
    """One person's judgement of one submission. Each review waits for its own release."""

    class Kind(models.TextChoices):
        SELF = "self", _("본인 검토")
        PEER = "peer", _("동료 검토")
        INSTRUCTOR = "instructor", _("강사 검토")

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="reviews")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="evidence_reviews")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    rubric_version = models.ForeignKey(RubricVersion, on_delete=models.PROTECT, related_name="reviews")
    judgements = models.JSONField(default=dict, help_text="{criterion key: level key or 'insufficient'}")
    citations = models.JSONField(default=dict, help_text="{criterion key: what in the submission supports the judgement}")
    comment = models.TextField(blank=True)
    helpful = models.BooleanField(null=True, blank=True, help_text="The author's rating of a peer review.")
    cohort = models.ForeignKey(Cohort, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               help_text="Whose instructors may release it: the cohort it was written in.")
    created_at = models.DateTimeField(auto_now_add=True)
    released_at = models.DateTimeField(null=True, blank=True, help_text="The author sees it from then.")
    released_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    opened_at = models.DateTimeField(null=True, blank=True, help_text="When the author first opened it after release.")

    objects = ReviewQuerySet.as_manager()

    class Meta:
        verbose_name = _("검토")
        verbose_name_plural = _("검토")
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "reviewer", "kind"], name="one_review_per_reviewer_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.submission}"

    @property
    def seen_by_author(self) -> bool:
        """The rule of ``ReviewQuerySet.seen_by_author`` for one review: a self-review, or a released one."""
        return self.kind == Review.Kind.SELF or self.released_at is not None


class PeerAllocationQuerySet(models.QuerySet["PeerAllocation"]):
    def live(self, now: datetime) -> PeerAllocationQuerySet:
        """Leases still running: not reviewed, not given back, not expired."""
        return self.filter(completed_at__isnull=True, ended_at__isnull=True, expires_at__gt=now)

    def counting(self, now: datetime) -> PeerAllocationQuerySet:
        """Allocations that stand for a review: done or still being done (for balancing the workload)."""
        return self.filter(Q(completed_at__isnull=False) | Q(ended_at__isnull=True, expires_at__gt=now))


class PeerAllocation(models.Model):
    """A lease on a submission for a peer reviewer, given just in time; never their own, never the same
    author twice for a task. It ends by a review, by being given back once (with a reason), or by expiring."""

    class End(models.TextChoices):
        RETURNED = "returned", _("돌려줌")
        EXPIRED = "expired", _("기한 지남")

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="allocations")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="peer_allocations")
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+", help_text="An instructor who assigned it by hand.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end = models.CharField(max_length=10, choices=End.choices, blank=True)
    return_reason = models.TextField(blank=True)

    objects = PeerAllocationQuerySet.as_manager()

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["submission", "reviewer"], name="allocation_once")]

    def __str__(self) -> str:
        return f"동료 검토 배정 #{self.pk} (제출 #{self.submission_id} → 검토자 #{self.reviewer_id})"

    def is_live(self, now: datetime) -> bool:
        return self.completed_at is None and self.ended_at is None and self.expires_at > now


class Reproduction(models.Model):
    """A peer reviewer's attempt to re-run an attached lab run. No row means "not attempted" was never recorded;
    ``not_attempted`` is written when the review is submitted without trying."""

    class Status(models.TextChoices):
        PENDING = "pending", _("재현 실행 중")
        REPRODUCED = "reproduced", _("재현됨 (출력 일치)")
        DIFFERED = "differed", _("재현 안 됨 (출력 다름)")
        COULD_NOT_RUN = "could_not_run", _("재현 실행 못 함")
        NOT_ATTEMPTED = "not_attempted", _("재현 시도 안 함")

    allocation = models.ForeignKey(PeerAllocation, on_delete=models.PROTECT, related_name="reproductions")
    original = models.ForeignKey(LabRun, on_delete=models.PROTECT, related_name="+")
    rerun = models.ForeignKey(LabRun, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=15, choices=Status.choices)
    differences = models.JSONField(default=list, help_text="Which of status, exit_code, stdout, stderr, checks differ")
    changed_since = models.JSONField(default=list, help_text="'lab' and fixture slugs whose version changed since the original")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["allocation", "original"], name="reproduce_once")]

    def __str__(self) -> str:
        return f"재현 #{self.pk} (실행 #{self.original_id}, {self.status})"


class Flag(models.Model):
    """The author disputes one criterion of a review, with a reason; an instructor resolves it with a reason."""

    review = models.ForeignKey(Review, on_delete=models.PROTECT, related_name="flags")
    criterion = models.CharField(max_length=60)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    resolution = models.TextField(blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_released_at = models.DateTimeField(null=True, blank=True,
                                                  help_text="The answer reaches the author only with a release.")

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["review", "criterion"], name="flag_once_per_criterion")]

    def __str__(self) -> str:
        return f"이의 제기 #{self.pk} (검토 #{self.review_id}, {self.criterion})"


class CohortTaskSetting(models.Model):
    """An instructor setting of one task for one cohort. ``load_course`` never touches it: the file only
    gives the default, and only that cohort's instructors change it."""

    cohort = models.ForeignKey(Cohort, on_delete=models.PROTECT, related_name="evidence_settings")
    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="cohort_settings")
    min_peer_reviews = models.PositiveSmallIntegerField()
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("기수별 과제 설정")
        verbose_name_plural = _("기수별 과제 설정")
        constraints = [models.UniqueConstraint(fields=["cohort", "task"], name="one_setting_per_cohort_task")]

    def __str__(self) -> str:
        return f"{self.cohort} · {self.task.slug}"


class CalibrationExample(models.Model):
    """An example submission with a reference review, from evidence.yaml. A changed example is a new row,
    so a learner's practice review always points at the text they judged."""

    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="calibration_examples")
    key = models.SlugField()
    order = models.PositiveIntegerField(default=0)
    text = models.TextField(help_text="Markdown; rendered sanitised.")
    reference = models.JSONField(help_text="{criterion key: level key or 'insufficient'}")
    reasons = models.JSONField(help_text="{criterion key: why the reference judges so}")
    rubric_version = models.ForeignKey(RubricVersion, on_delete=models.PROTECT, related_name="+")
    digest = models.CharField(max_length=64)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["task", "order"]
        constraints = [models.UniqueConstraint(fields=["task", "key", "digest"], name="calibration_example_version")]

    def __str__(self) -> str:
        return f"{self.task.slug} 연습 예시 {self.key}"


class CalibrationReview(models.Model):
    """A learner's practice review of an example: their own record, compared with the reference."""

    example = models.ForeignKey(CalibrationExample, on_delete=models.PROTECT, related_name="practice_reviews")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    judgements = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("연습 검토")
        verbose_name_plural = _("연습 검토")
        constraints = [models.UniqueConstraint(fields=["example", "reviewer"], name="one_practice_review")]

    def __str__(self) -> str:
        return f"연습 검토 #{self.pk} (예시 #{self.example_id}, 검토자 #{self.reviewer_id})"


class TaskSchedule(models.Model):
    """When one task opens, is due and its peer step closes for one cohort, set by that cohort's instructors.

    Without a row the task's defaults from ``evidence.yaml`` hold; an empty time means no limit.
    """

    cohort = models.ForeignKey(Cohort, on_delete=models.PROTECT, related_name="task_schedules")
    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="schedules")
    opens_at = models.DateTimeField(_("여는 시각"), null=True, blank=True)
    due_at = models.DateTimeField(_("제출 마감"), null=True, blank=True)
    peer_due_at = models.DateTimeField(_("동료 검토 마감"), null=True, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("과제 일정")
        verbose_name_plural = _("과제 일정")
        constraints = [models.UniqueConstraint(fields=["cohort", "task"], name="one_schedule_per_cohort_task")]

    def __str__(self) -> str:
        return f"{self.cohort} · {self.task.slug} 일정"


class Extension(models.Model):
    """One learner's own due time for a task in a cohort (연장), with the instructor's reason."""

    cohort = models.ForeignKey(Cohort, on_delete=models.PROTECT, related_name="extensions")
    task = models.ForeignKey(EvidenceTask, on_delete=models.PROTECT, related_name="extensions")
    learner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="evidence_extensions")
    due_at = models.DateTimeField(_("연장한 마감"))
    reason = models.TextField(_("이유"))
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("마감 연장")
        verbose_name_plural = _("마감 연장")
        constraints = [models.UniqueConstraint(fields=["cohort", "task", "learner"], name="one_extension_per_learner")]

    def __str__(self) -> str:
        return f"{self.cohort} · {self.task.slug} 연장"
