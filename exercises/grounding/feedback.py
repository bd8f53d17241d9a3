"""Feedback on a submitted attempt, claim by claim, from the answer key.

It says where the learner's judgement and citations agree with the source and
where they do not, and what they caught and missed. It never says "mastered":
an attempt is a completion record, not a review.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .engine import suggest
from .models import Attempt, Judgement


def label(judgement: str) -> str:
    return str(Judgement(judgement).label)


def answer_key(attempt: Attempt) -> dict[str, dict[str, Any]]:
    """The key for the attempt's variant: base questions with the variant's overrides applied."""
    overrides: dict[str, dict[str, Any]] = {}
    if attempt.variant_key:
        variant = attempt.exercise.variants.filter(key=attempt.variant_key).first()
        overrides = variant.overrides if variant else {}
    return {
        q.key: {"key": q.key, "text": q.text, "judgement": q.judgement, "evidence": q.evidence,
                "required": q.required, "explanation": q.explanation, **overrides.get(q.key, {})}
        for q in attempt.exercise.questions.all()
    }


def _evidence(cited: set[int], key: dict[str, Any]) -> tuple[str, list[int]]:
    """Classify the citation: acceptable, insufficient (misses a required line), none, or not_needed."""
    acceptable, required = set(key["evidence"]), set(key["required"])
    irrelevant = sorted(cited - acceptable)
    if not acceptable:
        return ("not_needed" if not cited else "irrelevant"), irrelevant
    if not cited:
        return "none", irrelevant
    if required - cited or not cited & acceptable:
        return "insufficient", irrelevant
    return "acceptable", irrelevant


def claim_feedback(claim: Any, key: dict[str, Any] | None, lines: list[str]) -> dict[str, Any]:
    cited = set(claim.cited_lines)
    item: dict[str, Any] = {
        "order": claim.order, "text": claim.text, "judgement": claim.judgement, "cited": sorted(cited),
        "question": key["key"] if key else "", "notes": [],
    }
    if not claim.judgement:
        item["verdict"] = "unmarked"
        item["notes"].append(_("판단을 고르지 않은 주장입니다."))
        return item
    if key is None:
        # Not linked to a question: only a hint from the suggestion engine, said as a hint.
        hint = suggest(lines, [claim.text])[0]
        item["verdict"] = "unlinked"
        item["hint"] = hint.hint
        if claim.judgement == Judgement.GROUNDED and (hint.hint in {"자료없음", "모름"} or not cited & {c.line for c in hint.lines}):
            item["notes"].append(_("질문과 잇지 않은 주장입니다. 자동 힌트로는 인용한 줄이 이 주장을 뒷받침하는지 확인되지 않습니다. 원문을 다시 읽어 보세요."))
        return item
    evidence, irrelevant = _evidence(cited, key)
    agrees = claim.judgement == key["judgement"]
    item.update({
        "verdict": "agrees" if agrees else "disagrees",
        "expected": key["judgement"], "expected_label": label(key["judgement"]),
        "evidence": evidence, "irrelevant": irrelevant, "acceptable_lines": key["evidence"],
        "explanation": key["explanation"],
    })
    if claim.judgement == Judgement.GROUNDED and key["judgement"] == Judgement.NO_DATA:
        item["notes"].append(_("원문에 없는 내용을 근거로 표시했습니다. 모델이 지어낸 주장(환각)일 수 있습니다."))
    elif claim.judgement == Judgement.GROUNDED and key["judgement"] == Judgement.PENDING:
        item["notes"].append(_("원문은 이 내용을 조건부로만 말합니다. 확정된 것처럼 받아들이면 안 됩니다."))
    if claim.judgement == Judgement.GROUNDED and not cited & set(key["evidence"]):
        item["notes"].append(_("근거로 표시했지만 인용한 줄이 이 주장을 뒷받침하지 않습니다."))
    if evidence == "insufficient" and claim.judgement != Judgement.NO_DATA:
        item["notes"].append(_("인용이 부족합니다. 필요한 줄: %(lines)s") % {"lines": ", ".join(map(str, key["required"] or key["evidence"]))})
    if irrelevant:
        item["notes"].append(_("이 주장과 상관없는 줄을 인용했습니다: %(lines)s") % {"lines": ", ".join(map(str, irrelevant))})
    return item


def evaluate(attempt: Attempt) -> dict[str, Any]:
    key = answer_key(attempt)
    lines = attempt.fixture_version.text.splitlines()
    claims = [claim_feedback(c, key.get(c.question_key), lines) for c in attempt.claims.all()]
    linked = [c for c in claims if c.get("expected")]
    caught = [c for c in linked if c["expected"] != Judgement.GROUNDED and c["verdict"] == "agrees"]
    missed = [c for c in linked if c["expected"] != Judgement.GROUNDED and c["judgement"] == Judgement.GROUNDED]
    covered = {c["question"] for c in claims if c["question"]}
    return {
        "claims": claims,
        "summary": {
            "claims": len(claims),
            "agreed": sum(1 for c in linked if c["verdict"] == "agrees"),
            "linked": len(linked),
            "caught": [c["order"] for c in caught],
            "missed": [c["order"] for c in missed],
            "unaddressed_questions": [k for k in key if k not in covered],
        },
        "questions": {k: {"text": v["text"], "expected_label": label(v["judgement"]),
                          "explanation": v["explanation"], "evidence": v["evidence"]} for k, v in key.items()},
    }
