"""API shapes of cohorts, rosters and members."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema


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


class RoleIn(Schema):
    role: str = Field(..., max_length=20, description="learner | assistant | instructor")
