"""API shapes of the evidence app. Names of peers never appear; unreleased reviews never reach the author."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema


class ReviewOut(Schema):
    id: int
    kind: str
    reviewer: str = Field(..., description="강사 검토만 이름, 동료 검토는 '익명 동료'")
    judgements: dict[str, str]
    citations: dict[str, str]
    comment: str
    created_at: datetime


class SubmissionOut(Schema):
    id: int
    task: str
    version: int
    author: str
    text: str
    cited_lines: list[int]
    lab_runs: list[int]
    rubric_version: int
    fixture_version: int | None
    submitted_at: datetime | None
    released: bool
    reviews: list[ReviewOut]


class ReviewIn(Schema):
    judgements: dict[str, str]
    citations: dict[str, str] = Field(default_factory=dict, description="기준별 근거: 인용한 글, '실행 #12', '3번 줄'")
    comment: str = ""


class FlagIn(Schema):
    criterion: str
    reason: str


class QueueRowOut(Schema):
    submission: int
    learner: str
    task: str
    state: str
    peer_done: int
    peer_min: int
    open_flags: int
    disagreement: bool
