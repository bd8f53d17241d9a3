"""JSON API of the grounding app: suggestions, and the attempt flow with the pages' rules."""

from __future__ import annotations

from ninja import Header, Router, Status

from tutor import access
from tutor.api import ANYONE
from tutor.http import ApiRequest

from . import feedback as feedback_rules
from . import selectors, services
from .engine import suggest
from .models import Attempt
from .schemas import (
    AttemptIn,
    AttemptOut,
    FeedbackOut,
    GroupJudgementIn,
    GroupOut,
    GroupsOut,
    MarksIn,
    SuggestIn,
    SuggestOut,
)

router = Router(tags=["근거 연습"])
_PROBLEM: dict[str, dict[str, object]] = {"application/problem+json": {}}


@router.post("/suggest", response=SuggestOut, summary="근거 후보: 주장마다 가장 그럴듯한 원문 줄과 힌트 판단",
             description=("힌트는 판정이 아닙니다. 확신이 없으면 모름이며, 자료없음 대신 원문에서 찾지 못한 말·값(not_found)을 줍니다. 한도(원문 글자·줄 수, 주장 수·길이)를 넘으면 422, "
                          "사용자마다 1분에 정해진 횟수를 넘으면 429와 Retry-After를 돌려줍니다."),
             openapi_extra={"responses": {"422": {"description": "한도를 넘거나 형식이 틀림", "content": _PROBLEM},
                                          "429": {"description": "요청이 너무 잦음 (Retry-After 초 뒤 다시)",
                                                  "content": _PROBLEM}}})
def suggest_lines(request: ApiRequest, payload: SuggestIn) -> dict:
    services.count_suggest_request(user=request.auth)
    results = suggest(payload.source, payload.claims)
    return {"results": [
        {"claim": r.claim, "lines": [{"line": s.line, "score": s.score} for s in r.lines], "hint": r.shown,
         "cue": r.cue, "not_found": list(r.not_found), "basis": r.basis}
        for r in results
    ]}


@router.post("/exercises/{slug}/attempts", response={201: AttemptOut}, summary="붙여 넣은 답변으로 시도 시작 (주장으로 나눔)",
             description="같은 Idempotency-Key로 다시 보내면 같은 시도를 돌려줍니다. 빈 답변·너무 긴 답변은 400/413.")
def start_attempt(request: ApiRequest, slug: str, payload: AttemptIn,
                  idempotency_key: str = Header(..., alias="Idempotency-Key")) -> Status:
    exercise = selectors.access_exercise(request.auth, slug)
    variant = selectors.access_variant(exercise, payload.variant)
    attempt = services.start_attempt(user=request.auth, exercise=exercise, answer_text=payload.answer,
                                     variant_key=variant.key if variant else "", idempotency_key=idempotency_key)
    return Status(201, attempt)


@router.get("/attempts/{attempt_id}", response=AttemptOut, summary="근거 연습 시도 (본인과 그 강사만)")
def get_attempt(request: ApiRequest, attempt_id: int) -> Attempt:
    return selectors.access_attempt(request.auth, attempt_id)


@router.post("/attempts/{attempt_id}/marks", response=AttemptOut, summary="주장 표시 저장: 판단, 인용한 줄, 이은 질문, 주장 아님",
             description="보낸 칸만 바뀝니다. 본인의 제출 전 시도만 (다른 사람에게는 404, 제출한 뒤에는 409).")
def save_marks(request: ApiRequest, attempt_id: int, payload: MarksIn) -> Attempt:
    attempt = selectors.access_own_draft(request.auth, attempt_id)
    services.mark_claims(user=request.auth, attempt=attempt, marks=payload.marks)
    return attempt


@router.post("/attempts/{attempt_id}/submit", response=AttemptOut, summary="시도 제출 (두 번 보내도 한 번)")
def submit_attempt(request: ApiRequest, attempt_id: int) -> Attempt:
    attempt = selectors.access_own_draft(request.auth, attempt_id)
    return services.submit_attempt(user=request.auth, attempt=attempt)


@router.get("/attempts/{attempt_id}/feedback", response=FeedbackOut, summary="주장별 피드백: 판정, 그 판정을 뒷받침한 확인, 또는 확인 안 됨",
            description="제출한 뒤에만 있습니다 (제출 전에는 409). 이전 방식으로 만든 피드백은 format이 없어 claims가 비어 있을 수 있습니다.")
def get_feedback(request: ApiRequest, attempt_id: int) -> dict:
    attempt = selectors.access_attempt(request.auth, attempt_id)
    stored = selectors.submitted_feedback(attempt)
    claims = stored["claims"] if stored.get("format") == feedback_rules.FORMAT else []
    return {"attempt": attempt.pk, "claims": claims, "summary": stored["summary"]}


@router.get("/exercises/{slug}/groups", response=GroupsOut, auth=ANYONE, summary="주장 묶음: 자동 확인이 판정하지 못한 주장들 (큰 묶음부터)",
            description="이 연습을 시도한 학습자를 가르치는 강사에게만 보입니다. 다른 사람에게는 404.")
def list_groups(request: ApiRequest, slug: str) -> dict:
    exercise, rows = selectors.answer_groups(request.auth, slug)
    return {"exercise": exercise.slug, "groups": rows}


@router.post("/exercises/{slug}/groups/{group_id}/judgement", response={201: GroupOut}, auth=ANYONE,
             summary="주장 묶음 판정 (강사 판정): 묶음의 모든 학습자 주장에 판정이 붙습니다",
             description="다시 보내면 새 판이 되고, 학습자의 피드백에 판정이 바뀌었다고 나옵니다. 감사 기록에 남습니다.")
def judge_group(request: ApiRequest, slug: str, group_id: int, payload: GroupJudgementIn) -> Status:
    group = selectors.access_group(request.auth, slug, group_id)
    services.judge_group(actor=access.require_sign_in(request.auth), group=group, relation=payload.relation, lines=payload.lines,
                         explanation=payload.explanation)
    _exercise, rows = selectors.answer_groups(request.auth, slug)
    return Status(201, next(row for row in rows if row.group.pk == group.pk))
