"""What the core app holds about a person (tutor.accounts.registry): cohorts, tokens, sign-in addresses, audit."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import F, Q
from django.utils import timezone

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from . import services
from .models import ApiToken, AuditEntry, Invitation, KnownSignInAddress, Membership


def cohort_rows(user: User) -> Sequence[Row]:
    """Their memberships: cohort, role, status and dates (no other member's)."""
    return list(Membership.objects.filter(user=user).order_by("created_at").values(
        "role", "status", "student_id", "invited_at", "joined_at", "removed_at", cohort_name=F("cohort__name")))


def leave_cohorts(user: User) -> int:
    """Take them out of every cohort (the membership stays, removed), each change audited."""
    left = 0
    for membership in Membership.objects.filter(user=user).exclude(status=Membership.Status.REMOVED) \
            .select_related("cohort"):
        before = services.cohort_members(membership.cohort)
        membership.status, membership.removed_at = Membership.Status.REMOVED, timezone.now()
        membership.save(update_fields=["status", "removed_at"])
        services.record_membership_change(actor=None, cohort=membership.cohort, before=before)  # type: ignore[arg-type]
        left += 1
    return left


def invitation_rows(user: User) -> Sequence[Row]:
    """Invitations sent to them (never the token: only its digest is stored, and that is not exported)."""
    return list(Invitation.objects.filter(user=user).order_by("created_at").values(
        "created_at", "expires_at", "used_at", "revoked_at"))


def erase_invitations(user: User) -> int:
    return delete_rows(Invitation.objects.filter(user=user))


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
                    links=("tutor.Membership.user",), erase=leave_cohorts, order=50,
                    kept_because="기수 구성원 기록은 '제외됨'으로 남음 (그 기수의 기록)"))
register(RecordKind(name="invitations", title="받은 초대 (토큰은 저장하지 않음)", rows=invitation_rows,
                    links=("tutor.Invitation.user",), erase=erase_invitations, order=45))
not_personal("tutor.Invitation.sent_by", "초대를 보낸 강사: 초대받은 사람의 기록으로 내보냄")
register(RecordKind(name="api_tokens", title="API 토큰 (비밀값은 저장하지 않음)", rows=token_rows,
                    links=("tutor.ApiToken.user",), erase=erase_tokens, order=50))
register(RecordKind(name="sign_in_addresses", title="로그인한 주소 (IP)", rows=address_rows,
                    links=("tutor.KnownSignInAddress.user",), erase=erase_addresses, order=50))
register(RecordKind(name="audit", title="감사 기록 (내가 한 일, 내 계정에 한 일)", rows=audit_rows,
                    links=("tutor.AuditEntry.actor",),
                    kept_because="감사 기록은 고치거나 지울 수 없음 (무결성 사슬); 이름 대신 익명 아이디로 남음"))
not_personal("admin.LogEntry.user", "운영진이 관리 화면에서 한 편집의 Django 기록: 편집한 대상의 이력")
