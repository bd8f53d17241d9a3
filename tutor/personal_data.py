"""What the core app holds about a person (tutor.accounts.registry): cohorts, tokens, sign-in addresses, audit."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import Q

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from . import services
from .models import (
    ApiToken,
    AuditEntry,
    Cohort,
    Invitation,
    KnownSignInAddress,
    Membership,
    SignInThrottle,
)


def cohort_rows(user: User) -> Sequence[Row]:
    """Every membership: cohort, role, status, student id and dates."""
    return [{"cohort": m.cohort.name, "role": m.role, "status": m.status, "student_id": m.student_id,
             "invited_at": m.invited_at, "joined_at": m.joined_at, "removed_at": m.removed_at}
            for m in Membership.objects.filter(user=user).select_related("cohort").order_by("created_at", "pk")]


def leave_cohorts(user: User) -> int:
    """Take them out of every cohort (their memberships go), each change audited as the admin's are."""
    left = 0
    for cohort in Cohort.objects.filter(memberships__user=user).distinct():
        before = services.cohort_members(cohort)
        Membership.objects.filter(cohort=cohort, user=user).delete()
        services.record_membership_change(actor=None, cohort=cohort, before=before)  # type: ignore[arg-type]
        left += 1
    return left


def invitation_rows(user: User) -> Sequence[Row]:
    """Invitations sent to them (never the link: only its digest is stored, and that is not shown)."""
    return [{"cohort": i.membership.cohort.name if i.membership else "", "created_at": i.created_at,
             "expires_at": i.expires_at, "used_at": i.used_at, "revoked_at": i.revoked_at}
            for i in Invitation.objects.filter(user=user).select_related("membership__cohort").order_by("created_at")]


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
    """Their known addresses, and the sign-in throttle's keys that name their username or address."""
    names = {user.get_username().casefold()[:150]} | ({user.email.casefold()[:150]} if user.email else set())
    keys = Q()
    for name in names:
        keys |= (Q(key=f"account:{name}") | Q(key__startswith=f"pair:{name}|")
                 | Q(key=f"account:reset:{name}") | Q(key__startswith=f"pair:reset:{name}|")
                 | Q(key=f"account:sign-up:{name}") | Q(key__startswith=f"pair:sign-up:{name}|"))
    SignInThrottle.objects.filter(keys).delete()
    return delete_rows(KnownSignInAddress.objects.filter(user=user))


def audit_rows(user: User) -> Sequence[Row]:
    """Entries of what they did, and of what was done to their account (not others' entries about others)."""
    about = Q(actor=user) | Q(target_type="auth.user", target_id=str(user.pk))
    return list(AuditEntry.objects.filter(about).order_by("at", "id").values(
        "at", "action", "target_type", "target_label", "reason", "repeats", "last_at", "seq"))


register(RecordKind(name="cohorts", title="기수 (소속과 역할)", rows=cohort_rows,
                    links=("tutor.Membership.user",), erase=leave_cohorts, order=50))
register(RecordKind(name="invitations", title="받은 초대 (링크는 저장하지 않음)", rows=invitation_rows,
                    links=("tutor.Invitation.user",), erase=erase_invitations, order=40))
not_personal("tutor.Invitation.sent_by", "초대를 보낸 강사: 초대받은 사람의 기록 (강사가 탈퇴하면 비워짐)")
register(RecordKind(name="api_tokens", title="API 토큰 (비밀값은 저장하지 않음)", rows=token_rows,
                    links=("tutor.ApiToken.user",), erase=erase_tokens, order=50))
register(RecordKind(name="sign_in_addresses", title="로그인한 주소 (IP)", rows=address_rows,
                    links=("tutor.KnownSignInAddress.user",), erase=erase_addresses, order=50))
register(RecordKind(name="audit", title="감사 기록 (내가 한 일, 내 계정에 한 일)", rows=audit_rows,
                    links=("tutor.AuditEntry.actor",),
                    kept_because="감사 기록은 고치거나 지울 수 없음 (무결성 사슬); 이름 대신 익명 아이디로 남음"))
not_personal("admin.LogEntry.user", "운영진이 관리 화면에서 한 편집의 Django 기록: 편집한 대상의 이력")
