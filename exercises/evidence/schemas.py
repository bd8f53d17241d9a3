"""API shapes of the evidence app. Names of peers never appear to peers; unreleased reviews never reach the author.
Both carry the version numbers people see (판 N) and whether the standard changed since."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema
from pydantic import AwareDatetime


class ReviewOut(Schema):
    id: int
    kind: str
    reviewer: str = Field(..., description="강사와 본인에게만 이름, 그 밖에는 '익명 동료'")
    judgements: dict[str, str]
    citations: dict[str, str]
    comment: str
    created_at: datetime
    released: bool = Field(..., description="작성자에게 공개되었는가 (검토마다 따로 공개)")
    rubric_version: int = Field(..., description="검토한 기준표의 판 번호")
    fixture_version: int | None = Field(..., description="제출이 쓴 가상 자료의 판 번호")
    standard_changed: bool = Field(..., description="그 뒤 기준표나 가상 자료에 새 판이 있는가")


class SubmissionOut(Schema):
    id: int
    task: str
    version: int
    author: str
    text: str
    cited_lines: list[int]
    lab_runs: list[int]
    rubric_version: int = Field(..., description="기준표 판 번호 (데이터베이스 id가 아님)")
    fixture_version: int | None = Field(..., description="가상 자료 판 번호")
    standard_changed: bool = Field(..., description="그 뒤 기준표나 가상 자료에 새 판이 있는가 ('기준 변경됨')")
    submitted_at: datetime | None
    released_reviews: int
    reviews: list[ReviewOut]
    read_peer_work_similarity: int | None = Field(
        None, description="'동료 작업을 읽은 뒤 제출': 작성자가 이 판을 내기 전에 받은 동료 작업과의 가장 높은 유사도(0–100). "
                          "검토자와 강사에게만; 읽지 않았으면 null")
    cited_lines_changed: list[int] = Field(
        default_factory=list, description="인용한 줄 가운데 고른 판 뒤에 바뀌거나 옮겨진 줄 번호 (인용한 판 기준)")


class ReviewIn(Schema):
    judgements: dict[str, str]
    citations: dict[str, str] = Field(default_factory=dict,
                                      description="기준별 근거 (기준표의 기준 키만): 인용한 글, '실행 #12', '3번 줄'")
    comment: str = ""


class FlagIn(Schema):
    criterion: str
    reason: str


class QueueRowOut(Schema):
    submission: int
    learner: str
    task: str
    version: int
    state: str
    peer_done: int
    peer_min: int
    unreleased: int
    open_flags: int
    disagreement: bool
    reproductions: list[str]


class ScheduleIn(Schema):
    """Times in ISO 8601 with an offset (e.g. ``2027-03-09T23:59:00+09:00``); null for no limit."""

    opens_at: AwareDatetime | None = None
    due_at: AwareDatetime | None = None
    peer_due_at: AwareDatetime | None = None


class ScheduleOut(Schema):
    cohort: int
    task: str
    opens_at: datetime | None
    due_at: datetime | None
    peer_due_at: datetime | None
    warnings: list[str] = Field(..., description="예: 기수가 작아 최소 동료 검토 수를 채울 수 없음")


class ExtensionIn(Schema):
    username: str
    task: str
    due_at: AwareDatetime
    reason: str


class ExtensionOut(Schema):
    cohort: int
    username: str
    task: str
    due_at: datetime
    reason: str


class TaskCellOut(Schema):
    task: str
    state: str = Field(..., description="submitted, late, missing, waiting_review, open, not_open")
    late: bool
    due_at: datetime | None
    submission: int | None


class ProgressRowOut(Schema):
    username: str
    name: str
    url: str
    last_activity: datetime | None
    lessons_opened: int
    labs_run: int
    grounding_attempts: int
    not_started: bool
    behind: bool
    waiting_for_me: bool
    tasks: list[TaskCellOut]
