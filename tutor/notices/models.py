"""A notice per event and person, each person's choice per kind, and the claim on a day's scheduled job."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """The kinds a person chooses immediate / daily / off for."""

    PEER_REVIEW = "peer_review", _("동료 검토 배정")
    REVIEW_RELEASED = "review_released", _("검토 공개")
    DUE = "due", _("내일 마감")
    DIGEST = "digest", _("강사 하루 요약")
    PEER_CLOSED = "peer_closed", _("동료 검토 마감 뒤 기다리는 제출 (강사·조교)")


class Mode(models.TextChoices):
    IMMEDIATE = "immediate", _("바로 메일")
    DAILY = "daily", _("하루 한 번 모아서")
    OFF = "off", _("메일 받지 않음")


class Notice(models.Model):
    """One thing a person was told. ``key`` names the event and the person, so a retried task makes no second."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=200, unique=True)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mailed_in_digest_at = models.DateTimeField(null=True, blank=True,
                                               help_text="When a daily mail carried it (kinds set to 'daily').")

    class Meta:
        verbose_name = _("알림")
        verbose_name_plural = _("알림")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"알림 #{self.pk} ({self.kind})"


class NoticeSetting(models.Model):
    """A person's choice for one kind; without a row the kind is mailed immediately."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    mode = models.CharField(max_length=10, choices=Mode.choices)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_notice_setting_per_kind")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.mode} (사용자 #{self.user_id})"


class DailyRun(models.Model):
    """A daily job claimed for one date: the unique (job, date) lets exactly one worker host run it."""

    job = models.CharField(max_length=40)
    date = models.DateField()
    claimed_by = models.CharField(max_length=64)
    claimed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "date"], name="daily_run_once")]

    def __str__(self) -> str:
        return f"{self.job} {self.date}"
