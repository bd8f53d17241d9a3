"""API shapes of cohorts, rosters and members."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ninja import Field, Schema

if TYPE_CHECKING:
    from tutor.models import Membership


class CohortIn(Schema):
    name: str = Field(..., min_length=1, max_length=100, description="기수 이름")


class CohortOut(Schema):
    id: int
    name: str
    join_code: str = Field(..., description="참여 코드 (꺼져 있으면 빈 문자열)")


class MyCohortOut(Schema):
    id: int
    name: str
    role: str = Field(..., description="learner | assistant | instructor (관리자는 admin)")


class JoinIn(Schema):
    code: str = Field(..., max_length=40)


class RosterError(Schema):
    row: int = Field(..., description="CSV의 줄 번호 (머리글이 1)")
    message: str


class RosterOut(Schema):
    invited: int = Field(..., description="초대한 사람 수 (dry_run이면 초대할 사람 수)")
    already_member: int
    errors: list[RosterError]


class MemberOut(Schema):
    username: str
    name: str
    email: str
    role: str
    status: str = Field(..., description="invited | active | removed")
    last_active_at: datetime | None

    # Read from a ``Membership``: the person's fields come from its user.
    @staticmethod
    def resolve_username(membership: Membership) -> str:
        return membership.user.get_username()

    @staticmethod
    def resolve_name(membership: Membership) -> str:
        return membership.user.first_name

    @staticmethod
    def resolve_email(membership: Membership) -> str:
        return membership.user.email

    @staticmethod
    def resolve_last_active_at(membership: Membership) -> datetime | None:
        return membership.user.last_login


class RoleIn(Schema):
    role: str = Field(..., max_length=20, description="learner | assistant | instructor")
