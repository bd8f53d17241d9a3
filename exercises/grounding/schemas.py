"""API shapes of the grounding app, with the limits of the suggest contract (also in OpenAPI).

The output shapes read the objects the selectors return (an ``Attempt`` and its ``ClaimMark``s, a ``GroupRow``
and its ``GroupJudgement``): a field named as the object's attribute is read as it is, and the ``resolve_*``
methods say where the others come from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ninja import Schema
from pydantic import Field, StrictStr, field_validator

from .models import JUDGEMENT_FOR, Judgement, Relation

if TYPE_CHECKING:
    from .models import Attempt, ClaimMark, GroupJudgement
    from .selectors import GroupRow

# One judgement enum for the models, the API and the engine's labels (``models.Judgement``); "" is a claim not
# judged yet.
Unjudged = Literal[""]

# Limits that keep one suggest request under 200 ms on a two-core machine, cold caches and
# value-dense text included (bench/grounding_eval.py prints the measured worst case).
MAX_LINES = 30
MAX_LINE_CHARS = 200
MAX_SOURCE_CHARS = 2000
MAX_CLAIMS = 10
MAX_CLAIM_CHARS = 200


class SuggestIn(Schema):
    source: StrictStr = Field(..., max_length=MAX_SOURCE_CHARS, description=(
        f"원문. 줄바꿈으로 나뉜 줄에 1부터 번호를 붙입니다. {MAX_SOURCE_CHARS}자, {MAX_LINES}줄, "
        f"한 줄 {MAX_LINE_CHARS}자까지."))
    claims: list[StrictStr] = Field(..., max_length=MAX_CLAIMS, description=(
        f"판단할 주장들. {MAX_CLAIMS}개까지, 하나에 {MAX_CLAIM_CHARS}자까지."),
        json_schema_extra={"items": {"type": "string", "maxLength": MAX_CLAIM_CHARS}})

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
        for number, claim in enumerate(value, start=1):
            if len(claim) > MAX_CLAIM_CHARS:
                raise ValueError(f"{number}번째 주장이 {MAX_CLAIM_CHARS}자를 넘습니다.")
        return value


class LineScoreOut(Schema):
    line: int
    score: float


class SuggestionOut(Schema):
    claim: str
    lines: list[LineScoreOut]
    hint: str = Field(..., description=(
        "근거 · 보류 · 주장 아님 · 모름. 처음 보는 글에서 열에 아홉 이상 맞는 종류만 보입니다 (자료없음은 보이지 않고, "
        "대신 not_found). 힌트일 뿐 판정이 아닙니다."))
    cue: str = Field("", description="가장 가까운 줄이 조건을 달거나 미정으로 두는 말 (예: 승인되면, 예정). 판단이 아닙니다.")
    not_found: list[str] = Field(default_factory=list, description="원문 어느 줄에서도 찾지 못한 주장의 말·값")
    basis: str = Field("", description="힌트가 근거일 때 그 까닭: 같은 말인 줄, 또는 계산식과 그 줄 (예: '2번 줄로 계산: "
                                       "6,000원 × 2명 = 12,000원')")


class SuggestOut(Schema):
    results: list[SuggestionOut]


class AttemptIn(Schema):
    answer: StrictStr = Field(..., description="붙여 넣은 모델의 답변 (8,000자까지, 글자로만 저장)")
    variant: StrictStr = Field("", description="원문 변형의 키 (없으면 기본 안내문)")


class ClaimOut(Schema):
    id: int
    order: int
    text: str
    start: int
    end: int
    judgement: Judgement | Unjudged
    question: str
    cited_lines: list[int]
    keyed: bool = Field(..., description="예시 답변의 주장이라 주장별 답안 키가 있는지 (키 내용은 제출 뒤 피드백에만)")

    @staticmethod
    def resolve_id(claim: ClaimMark) -> int:
        return claim.pk

    @staticmethod
    def resolve_question(claim: ClaimMark) -> str:
        return claim.question_key

    @staticmethod
    def resolve_keyed(claim: ClaimMark) -> bool:
        return claim.key is not None


class AttemptOut(Schema):
    id: int
    exercise: str
    number: int
    status: str
    variant: str
    answer_text: str
    fixture_version: int
    claims: list[ClaimOut]
    feedback: dict | None = Field(..., description="제출한 뒤에만: 답안 키와 그 설명은 피드백의 일부입니다")

    @staticmethod
    def resolve_id(attempt: Attempt) -> int:
        return attempt.pk

    @staticmethod
    def resolve_exercise(attempt: Attempt) -> str:
        return attempt.exercise.slug

    @staticmethod
    def resolve_variant(attempt: Attempt) -> str:
        return attempt.variant_key

    @staticmethod
    def resolve_fixture_version(attempt: Attempt) -> int:
        return attempt.fixture_version.number

    @staticmethod
    def resolve_claims(attempt: Attempt) -> list[ClaimMark]:
        return list(attempt.claims.all())

    @staticmethod
    def resolve_feedback(attempt: Attempt) -> dict | None:
        from .selectors import with_lines_quoted

        return with_lines_quoted(attempt.feedback, attempt) if attempt.feedback else None


class MarkIn(Schema):
    claim: int = Field(..., description="주장의 id")
    judgement: Judgement | Unjudged | None = Field(
        None, description="근거 grounded · 자료없음 no_data · 보류 pending · 주장 아님 not_claim · 지우기 \"\"")
    lines: list[int] | None = Field(None, max_length=50, description="인용한 원문 줄 번호")
    question: StrictStr | None = Field(None, description="이은 질문의 키 (\"\"이면 질문과 상관없음)")


class MarksIn(Schema):
    marks: list[MarkIn] = Field(..., max_length=50)


class CheckOut(Schema):
    name: str = Field(..., description="확인의 이름 (feedback.CHECKS): claim_key · values · computed · citation …")
    label: str
    verdict: Literal["right", "review"]
    reason: str


class ClaimFeedbackOut(Schema):
    order: int
    text: str
    judgement: Judgement | Unjudged
    verdict: str = Field(..., description="right(맞음) · review(다시 보기) · unchecked(확인 안 됨) · set_aside(주장 아님) · unmarked")
    checks: list[CheckOut] = Field(..., description="판정을 뒷받침한 확인들. 없으면 확인 안 됨")
    check: str = Field("", description="판정을 정한 확인의 이름 (없으면 빈 값: 확인 안 됨)")
    basis: str = Field("", description="보이는 판정의 근거 문장. 판정이 없으면 그 까닭: "
                                       "'확인 안 됨 — 자료가 바뀌어 답안 키를 다시 확인하는 중', '강사 확인 대기'")
    key_version: int | None = Field(None, description="답안 키(강사 판정 포함)가 판정을 뒷받침했을 때 그 키의 판")
    relation: str = ""
    expected: str = ""
    compare: list[tuple[int, str]] = Field(default_factory=list, description="견주어 볼 원문 줄 (번호, 글)")
    explanation: str = ""
    changed: str = Field("", description="강사 판정이 고쳐졌을 때 그 알림 (판 n → 판 m)")


class FeedbackOut(Schema):
    attempt: int
    claims: list[ClaimFeedbackOut]
    summary: dict


class GroupJudgementIn(Schema):
    relation: Relation = Field(
        ..., description="원문과 같음 restates · 원문에 없음 silent · 원문과 어긋남 contradicts · 조건부·미정 conditional · "
                         "일부만 원문에 있음 partial · 주장이 아님 not_claim")
    lines: list[int] = Field(default_factory=list, max_length=50, description="판정이 기대는 원문 줄 번호")
    explanation: StrictStr = Field(..., max_length=500, description="학습자에게 보이는 한 문장의 설명")


class GroupJudgementOut(Schema):
    version: int
    relation: Relation
    judgement: Judgement
    lines: list[int]
    explanation: str
    judged_at: str

    @staticmethod
    def resolve_judgement(judgement: GroupJudgement) -> str:
        return JUDGEMENT_FOR[judgement.relation]

    @staticmethod
    def resolve_judged_at(judgement: GroupJudgement) -> str:
        return judgement.judged_at.isoformat()


class GroupOut(Schema):
    """Read from a ``selectors.GroupRow``: the group and what the asking instructor may see of it."""

    id: int
    fixture_version: int
    variant: str
    text: str = Field(..., description="묶음의 주장들이 공유하는 정규화한 글")
    values: list[str]
    claims: int = Field(..., description="모든 기수의 학습자를 통틀어 이 묶음에 든 주장 수")
    learners: int
    examples: list[str] = Field(..., description="내가 가르치는 학습자의 주장 원문 (최대 3개)")
    marks: dict[str, int] = Field(..., description="학습자들이 고른 판단별 수")
    judgement: GroupJudgementOut | None

    @staticmethod
    def resolve_id(row: GroupRow) -> int:
        return row.group.pk

    @staticmethod
    def resolve_fixture_version(row: GroupRow) -> int:
        return row.group.fixture_version.number

    @staticmethod
    def resolve_variant(row: GroupRow) -> str:
        return row.group.variant_key

    @staticmethod
    def resolve_text(row: GroupRow) -> str:
        return row.group.text

    @staticmethod
    def resolve_values(row: GroupRow) -> list[str]:
        return row.group.values


class GroupsOut(Schema):
    exercise: str
    groups: list[GroupOut]
