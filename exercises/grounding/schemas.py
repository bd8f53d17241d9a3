"""API shapes of the grounding app, with the limits of the suggest contract."""

from __future__ import annotations

from ninja import Schema
from pydantic import Field, StrictStr, field_validator

MAX_LINES = 200
MAX_CLAIMS = 50
MAX_LINE_CHARS = 2000


class SuggestIn(Schema):
    source: StrictStr = Field(..., description="원문. 줄바꿈으로 나뉜 줄에 1부터 번호를 붙입니다.")
    claims: list[StrictStr] = Field(..., description="판단할 주장들")

    @field_validator("source")
    @classmethod
    def source_is_usable(cls, value: str) -> str:
        lines = value.split("\n")
        if not value.strip():
            raise ValueError("원문(source)이 비어 있습니다.")
        if len(lines) > MAX_LINES:
            raise ValueError(f"원문은 {MAX_LINES}줄까지입니다 (지금 {len(lines)}줄).")
        for number, line in enumerate(lines, start=1):
            if len(line) > MAX_LINE_CHARS:
                raise ValueError(f"{number}번 줄이 {MAX_LINE_CHARS}자를 넘습니다.")
        return value

    @field_validator("claims")
    @classmethod
    def claims_are_usable(cls, value: list[str]) -> list[str]:
        if len(value) > MAX_CLAIMS:
            raise ValueError(f"주장은 {MAX_CLAIMS}개까지입니다 (지금 {len(value)}개).")
        for number, claim in enumerate(value, start=1):
            if len(claim) > MAX_LINE_CHARS:
                raise ValueError(f"{number}번째 주장이 {MAX_LINE_CHARS}자를 넘습니다.")
        return value


class LineScoreOut(Schema):
    line: int
    score: float


class SuggestionOut(Schema):
    claim: str
    lines: list[LineScoreOut]
    hint: str


class SuggestOut(Schema):
    results: list[SuggestionOut]


class ClaimOut(Schema):
    order: int
    text: str
    start: int
    end: int
    judgement: str
    question: str
    cited_lines: list[int]


class AttemptOut(Schema):
    id: int
    exercise: str
    number: int
    status: str
    variant: str
    answer_text: str
    fixture_version: int
    claims: list[ClaimOut]
    feedback: dict | None
