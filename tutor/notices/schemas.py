"""API shapes of notices and the to-do."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema
from pydantic import ConfigDict

ModeIn = Literal["immediate", "daily", "off"]


class TodoOut(Schema):
    kind: str = Field(..., description="peer_review, due, overdue, review_released, resubmission, claim_judged; "
                                       "강사·조교: waiting_review, disagreement, flag, peer_closed, stuck_learner, answer_group")
    title: str
    url: str
    due_at: datetime | None = Field(..., description="동료 검토는 배정 기한, 마감 항목은 (연장을 반영한) 마감 시각")
    count: int = 1


class NoticeOut(Schema):
    id: int
    kind: str
    title: str
    body: str
    url: str
    created_at: datetime
    read: bool


class ReadIn(Schema):
    ids: list[int]


class NoticeSettingsIn(Schema):
    """Any subset of the kinds; an unknown kind is refused (422)."""

    model_config = ConfigDict(extra="forbid")

    peer_review: ModeIn | None = None
    review_released: ModeIn | None = None
    due: ModeIn | None = None
    digest: ModeIn | None = None
    peer_closed: ModeIn | None = None
