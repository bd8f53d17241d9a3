"""People around the course: cohorts, personal API tokens, sign-in throttling and the audit log."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .roles import CohortRole


class CohortQuerySet(models.QuerySet["Cohort"]):
    def with_role(self, user: User | AnonymousUser, role: str) -> CohortQuerySet:
        """Cohorts where ``user`` holds ``role`` in an active membership."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=Membership.objects.active().filter(user=user, role=role).values("cohort_id"))

    def taught_by(self, user: User | AnonymousUser) -> CohortQuerySet:
        return self.with_role(user, CohortRole.INSTRUCTOR)

    def attended_by(self, user: User | AnonymousUser) -> CohortQuerySet:
        return self.with_role(user, CohortRole.LEARNER)


class Cohort(models.Model):
    """A group of learners taught together by one or more instructors; who is in it is ``Membership``."""

    name = models.CharField(_("이름"), max_length=100, unique=True)
    join_code = models.CharField(_("참여 코드"), max_length=16, blank=True, db_index=True,
                                 help_text="self sign-up code; empty when turned off")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CohortQuerySet.as_manager()

    class Meta:
        verbose_name = _("기수")
        verbose_name_plural = _("기수")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class MembershipQuerySet(models.QuerySet["Membership"]):
    def active(self) -> MembershipQuerySet:
        return self.filter(status=Membership.Status.ACTIVE, user__is_active=True)


class Membership(models.Model):
    """A person's role in one cohort, with how far they are in (invited, active, removed).

    One row per person and cohort; removing someone keeps the row (and all their
    records) with status ``removed``.
    """

    class Status(models.TextChoices):
        INVITED = "invited", _("초대됨")
        ACTIVE = "active", _("참여 중")
        REMOVED = "removed", _("제외됨")

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("기수"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("역할"), max_length=20, choices=CohortRole.choices, default=CohortRole.LEARNER)
    status = models.CharField(_("상태"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    student_id = models.CharField(_("학번"), max_length=40, blank=True)
    invited_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        verbose_name = _("기수 구성원")
        verbose_name_plural = _("기수 구성원")
        ordering = ["cohort", "role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["cohort", "user"], name="membership_once_per_cohort")]
        indexes = [models.Index(fields=["user", "status"]), models.Index(fields=["cohort", "role", "status"])]

    def __str__(self) -> str:
        return f"{self.cohort} · {self.user} ({self.get_role_display()}, {self.get_status_display()})"


def members_of(cohorts: Cohort | models.QuerySet[Cohort], role: str = CohortRole.LEARNER) -> models.QuerySet[User]:
    """The people holding ``role`` actively in ``cohorts`` (one cohort or a queryset of them)."""
    memberships = Membership.objects.active().filter(role=role)
    if isinstance(cohorts, Cohort):
        memberships = memberships.filter(cohort=cohorts)
    else:
        memberships = memberships.filter(cohort__in=cohorts)
    return User.objects.filter(pk__in=memberships.values("user_id"))


class Invitation(models.Model):
    """A one-time link that lets a person set their password (and join a cohort, when it names a membership).

    Only the SHA-256 digest of its token is kept. Sending again revokes the
    earlier link; accepting sets ``used_at``.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    membership = models.ForeignKey(Membership, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="invitations", help_text="the cohort it joins (none for an account)")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    sent_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")

    class Meta:
        verbose_name = _("초대")
        verbose_name_plural = _("초대")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"초대 #{self.pk} ({self.created_at:%Y-%m-%d})"


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True, user__is_active=True)


class ApiToken(models.Model):
    """A personal token for API clients. Only its SHA-256 digest is stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("이름"), max_length=80)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("API 토큰")
        verbose_name_plural = _("API 토큰")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class SignInThrottle(models.Model):
    """Recent sign-in failures under one key (account and address, account, or address).

    ``next_attempt_at`` is when the next attempt under this key may have its
    password checked: back-off, never a lock without end.
    """

    key = models.CharField(max_length=300, unique=True)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField(null=True, db_index=True)
    next_attempt_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"로그인 제한 {self.key[:12]}… (실패 {self.failures})"


class KnownSignInAddress(models.Model):
    """An address from which an account signed in: the owner there skips the account-wide back-off."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.GenericIPAddressField()
    last_seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "address"], name="known_sign_in_address_once")]

    def __str__(self) -> str:
        return f"알려진 로그인 주소 (사용자 #{self.user_id})"


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: object) -> int:
        raise TypeError("감사 기록은 고칠 수 없습니다.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError("감사 기록은 지울 수 없습니다.")

    def about(self, target: models.Model) -> AuditEntryQuerySet:
        return self.filter(target_type=target._meta.label_lower, target_id=str(target.pk))

    def chained(self) -> AuditEntryQuerySet:
        return self.filter(seq__isnull=False).order_by("seq")

    def count_repeat(self, *, at: object) -> int:
        """Add one to a gathered refusal's count: the only change the database lets through."""
        return models.QuerySet.update(self.filter(hour__isnull=False), repeats=F("repeats") + 1, last_at=at)


class AuditEntry(models.Model):
    """Append-only record of who did what, when, to what and why.

    Separate from debug logs: an entry is written in the same transaction as
    the change it describes. Database triggers refuse UPDATE and DELETE (only a
    gathered refusal's ``repeats``/``last_at`` may grow), and each entry carries
    an HMAC chained to the one before (``seq``, ``chain``), so an entry inserted
    or removed behind the site's back is found by ``manage.py verify_audit``.
    """

    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=60, db_index=True)
    target_type = models.CharField(max_length=100)
    target_id = models.CharField(max_length=64)
    target_label = models.CharField(max_length=200, blank=True)
    reason = models.TextField(blank=True)
    before_digest = models.CharField(max_length=64, blank=True)
    after_digest = models.CharField(max_length=64, blank=True)
    before = models.JSONField(null=True, blank=True, help_text="the state before, as a reviewer reads it")
    after = models.JSONField(null=True, blank=True, help_text="the state after")
    detail = models.JSONField(default=dict, blank=True)
    hour = models.DateTimeField(null=True, blank=True, help_text="set on gathered refusals: the hour they fall in")
    repeats = models.PositiveIntegerField(default=1, help_text="identical refusals gathered into this entry")
    last_at = models.DateTimeField(null=True, blank=True)
    seq = models.PositiveBigIntegerField(null=True, unique=True, help_text="position in the chain")
    key_id = models.CharField(max_length=32, blank=True)
    chain = models.CharField(max_length=64, blank=True, help_text="HMAC-SHA256 of this entry and the chain before it")

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("감사 기록")
        verbose_name_plural = _("감사 기록")
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["target_type", "target_id"]),
            models.Index(fields=["hour", "action", "target_type", "target_id"], name="audit_gathered"),
        ]
        constraints = [models.CheckConstraint(condition=~Q(action=""), name="audit_action_present")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.target_type}#{self.target_id}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise TypeError("감사 기록은 고칠 수 없습니다.")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise TypeError("감사 기록은 지울 수 없습니다.")


class IntegrityCheck(models.Model):
    """The outcome of one ``verify_audit`` or ``verify_records`` run, shown in the admin.

    A check is the audit chain's end anchor, so it is itself sealed (HMAC) and
    chained to the check before it, and the database refuses UPDATE and DELETE:
    moving the anchor back to hide removed entries is found (tutor.audit).
    """

    class Kind(models.TextChoices):
        AUDIT = "audit", _("감사 기록 사슬")
        RECORDS = "records", _("실행 기록 봉인")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    checked_at = models.DateTimeField(default=timezone.now, db_index=True)
    ok = models.BooleanField()
    checked = models.PositiveIntegerField(help_text="entries or runs checked")
    problems = models.JSONField(default=list, help_text="one line per break, as the command printed it")
    head_seq = models.PositiveBigIntegerField(null=True, blank=True, help_text="last chained entry seen (audit)")
    head_chain = models.CharField(max_length=64, blank=True)
    seq = models.PositiveBigIntegerField(null=True, unique=True, help_text="position among the checks")
    key_id = models.CharField(max_length=32, blank=True)
    seal = models.CharField(max_length=64, blank=True,
                            help_text="HMAC-SHA256 of this check and the seal of the check before it")

    class Meta:
        verbose_name = _("무결성 점검")
        verbose_name_plural = _("무결성 점검")
        ordering = ["-checked_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.checked_at:%Y-%m-%d %H:%M} {'OK' if self.ok else 'FAIL'}"
