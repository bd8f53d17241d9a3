"""JSON API of the grounding app."""

from __future__ import annotations

from ninja import Router

from tutor.http import ApiRequest

from . import selectors
from .engine import suggest
from .models import Attempt
from .schemas import AttemptOut, SuggestIn, SuggestOut

router = Router(tags=["근거 연습"])


@router.post("/suggest", response=SuggestOut, summary="근거 후보: 주장마다 가장 그럴듯한 원문 줄과 힌트 판단")
def suggest_lines(request: ApiRequest, payload: SuggestIn) -> dict:
    results = suggest(payload.source, payload.claims)
    return {"results": [
        {"claim": r.claim, "lines": [{"line": c.line, "score": c.score} for c in r.lines], "hint": r.hint}
        for r in results
    ]}


def attempt_out(attempt: Attempt) -> dict:
    return {
        "id": attempt.pk, "exercise": attempt.exercise.slug, "number": attempt.number, "status": attempt.status,
        "variant": attempt.variant_key, "answer_text": attempt.answer_text,
        "fixture_version": attempt.fixture_version.number,
        "claims": [{"order": c.order, "text": c.text, "start": c.start, "end": c.end, "judgement": c.judgement,
                    "question": c.question_key, "cited_lines": c.cited_lines} for c in attempt.claims.all()],
        # The key's explanations are part of the feedback, which exists only after submission.
        "feedback": attempt.feedback,
    }


@router.get("/attempts/{attempt_id}", response=AttemptOut, summary="근거 연습 시도 (본인과 그 강사만)")
def get_attempt(request: ApiRequest, attempt_id: int) -> dict:
    return attempt_out(selectors.access_attempt(request.auth, attempt_id))
