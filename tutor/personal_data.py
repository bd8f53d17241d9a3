"""What the core app holds about a person (tutor.accounts.registry): cohorts, tokens, sign-in addresses, audit."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import Q

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from . import services
from .models import ApiToken, AuditEntry, Cohort, KnownSignInAddress


def cohort_rows(user: User) -> Sequence[Row]:
    rows: list[Row] = [{"cohort": name, "role": "learner"}
                       for name in Cohort.objects.attended_by(user).values_list("name", flat=True)]
    rows += [{"cohort": name, "role": "instructor"}
             for name in Cohort.objects.taught_by(user).values_list("name", flat=True)]
    return rows


def leave_cohorts(user: User) -> int:
    """Take them out of every cohort, each change audited as the admin's membership changes are."""
    left = 0
    for cohort in Cohort.objects.filter(Q(learners=user) | Q(instructors=user)).distinct():
        before = services.cohort_members(cohort)
        cohort.learners.remove(user)
        cohort.instructors.remove(user)
        services.record_membership_change(actor=None, cohort=cohort, before=before)  # type: ignore[arg-type]
        left += 1
    return left


def token_rows(user: User) -> Sequence[Row]:
    return list(ApiToken.objects.filter(user=user).order_by("created_at").values(
        "name", "prefix", "created_at", "last_used_at", "revoked_at"))


def erase_tokens(user: User) -> int:
    return delete_rows(ApiToken.objects.filter(user=user))


def address_rows(user: User) -> Sequence[Row]:
    return list(KnownSignInAddress.objects.filter(user=user).order_by("last_seen_at").values("address", "last_seen_at"))


def erase_addresses(user: User) -> int:
    return delete_rows(KnownSignInAddress.objects.filter(user=user))


def audit_rows(user: User) -> Sequence[Row]:
    """Entries of what they did, and of what was done to their account (not others' entries about others)."""
    about = Q(actor=user) | Q(target_type="auth.user", target_id=str(user.pk))
    return list(AuditEntry.objects.filter(about).order_by("at", "id").values(
        "at", "action", "target_type", "target_label", "reason", "repeats", "last_at", "seq"))


register(RecordKind(name="cohorts", title="기수 (소속과 역할)", rows=cohort_rows,
                    links=("tutor.Cohort.learners", "tutor.Cohort.instructors"), erase=leave_cohorts, order=50))
register(RecordKind(name="api_tokens", title="API 토큰 (비밀값은 저장하지 않음)", rows=token_rows,
                    links=("tutor.ApiToken.user",), erase=erase_tokens, order=50))
register(RecordKind(name="sign_in_addresses", title="로그인한 주소 (IP)", rows=address_rows,
                    links=("tutor.KnownSignInAddress.user",), erase=erase_addresses, order=50))
register(RecordKind(name="audit", title="감사 기록 (내가 한 일, 내 계정에 한 일)", rows=audit_rows,
                    links=("tutor.AuditEntry.actor",),
                    kept_because="감사 기록은 고치거나 지울 수 없음 (무결성 사슬); 이름 대신 익명 아이디로 남음"))
not_personal("admin.LogEntry.user", "운영진이 관리 화면에서 한 편집의 Django 기록: 편집한 대상의 이력")
