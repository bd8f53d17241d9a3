"""Feedback on a submitted attempt, claim by claim: a verdict only where a named check backs it.

A claim's right judgement follows from what the claim says of the source
(restates → 근거, not addressed → 자료없음 원문에 없음, contradicted → 자료없음 원문과
어긋남, made conditional → 보류), not from the key of the question it answers. So
the feedback says 맞음 or 다시 보기 only when one of these checks decides it, and
names the check:

- ``claim_key``: the curated key of a sample answer's claim;
- ``verbatim``: the claim repeats a cited line (or a whole sentence of one) word for word;
- ``values``: a time, date, amount or count of the claim that the cited lines
  contradict (engine.checks.value_conflicts);
- ``question_silent``: the linked question's key says the source does not answer
  it, so a claim stating an answer is not 근거 (unless it says the source is silent);
- ``citation``: the cited lines miss every evidence line of the linked question, or
  share nothing with the claim.

Everything else is 확인 안 됨: the learner's judgement is shown beside what the
source says (the question's lines and explanation, or the cited lines) for them
to compare. No verdict ever comes from the suggestion engine's hint. An attempt
is a completion record, not a review.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .engine import says_silent, unrelated_lines, value_conflicts, verbatim_line
from .groups import Pins, effective_key, people_notes
from .models import Attempt, Judgement, Relation

FORMAT = 2
RIGHT, REVIEW, UNCHECKED, UNMARKED, SET_ASIDE = "right", "review", "unchecked", "unmarked", "set_aside"
CHECK_LABELS = {
    "claim_key": gettext_lazy("주장별 답안 키"),
    "verbatim": gettext_lazy("원문 그대로 옮김"),
    "values": gettext_lazy("값 대조 (시각·날짜·금액·수)"),
    "question_silent": gettext_lazy("질문의 답안 키: 원문에 없음"),
    "citation": gettext_lazy("인용한 줄 대조"),
}

def label(judgement: str) -> str:
    return str(Judgement(judgement).label) if judgement in Judgement.values else _("없음")


def relation_label(relation: str) -> str:
    return str(Relation(relation).label) if relation in Relation.values else ""


def answer_key(attempt: Attempt) -> dict[str, dict[str, Any]]:
    """The question keys for the attempt's variant: base questions with the variant's overrides applied."""
    overrides: dict[str, dict[str, Any]] = {}
    pin: int | None = None
    if attempt.variant_key:
        variant = attempt.exercise.variants.filter(key=attempt.variant_key).first()
        overrides = variant.overrides if variant else {}
        pin = variant.fixture_version if variant else None
    return {
        q.key: {"key": q.key, "text": q.text, "judgement": q.judgement, "evidence": q.evidence,
                "required": q.required, "explanation": q.explanation, "facts": q.facts,
                "fixture_version": pin if attempt.variant_key else q.fixture_version,
                **overrides.get(q.key, {})}
        for q in attempt.exercise.questions.all()
    }


def _check(name: str, verdict: str, reason: str) -> dict[str, str]:
    return {"name": name, "label": str(CHECK_LABELS[name]), "verdict": verdict, "reason": reason}


def _lines_text(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


def _claim_key_checks(judgement: str, cited: set[int], key: dict[str, Any]) -> list[dict[str, str]]:
    relation = relation_label(key["relation"])
    expected = label(key["judgement"])
    if judgement == key["judgement"]:
        checks = [_check("claim_key", RIGHT, _("%(relation)s: %(expected)s이 맞습니다.")
                         % {"relation": relation, "expected": expected})]
    else:
        checks = [_check("claim_key", REVIEW, _("%(relation)s: 이 주장의 판단은 %(expected)s입니다.")
                         % {"relation": relation, "expected": expected})]
        return checks
    lines = set(key["lines"])
    if key["judgement"] in (Judgement.GROUNDED, Judgement.PENDING) and lines:
        if not cited:
            checks.append(_check("citation", REVIEW, _("줄을 인용하지 않았습니다. 이 주장을 받치는(조건을 단) 줄: %(lines)s")
                                 % {"lines": _lines_text(sorted(lines))}))
        elif not cited & lines:
            checks.append(_check("citation", REVIEW, _("인용한 줄에 이 주장을 받치는(조건을 단) 줄이 없습니다. 그 줄: %(lines)s")
                                 % {"lines": _lines_text(sorted(lines))}))
    return checks


def _source_checks(judgement: str, text: str, cited: list[int], question: dict[str, Any] | None,
                   lines: list[str]) -> list[dict[str, str]]:
    """The checks that need no claim key: values, the question's silence, the citation."""
    checks: list[dict[str, str]] = []
    copied = verbatim_line(lines, text, cited) if cited else None
    if copied is not None:
        if judgement == Judgement.GROUNDED:
            return [_check("verbatim", RIGHT, _("%(line)d번 줄을 그대로 옮긴 주장이라 원문과 같습니다. 근거가 맞습니다.")
                           % {"line": copied})]
        return [_check("verbatim", REVIEW, _("%(line)d번 줄을 그대로 옮긴 주장입니다. 원문과 같은 주장은 근거입니다.")
                       % {"line": copied})]
    conflicts = value_conflicts(lines, text, cited) if cited else []
    if conflicts:
        what = "; ".join(_("'%(value)s'은 %(line)d번 줄과 어긋남") % {"value": c.claim_text, "line": c.line}
                         for c in conflicts)
        if judgement == Judgement.NO_DATA:
            checks.append(_check("values", RIGHT, _("원문과 어긋남: %(what)s. 자료없음이 맞습니다.") % {"what": what}))
        elif judgement == Judgement.GROUNDED:
            checks.append(_check("values", REVIEW, _("원문과 어긋남: %(what)s. 원문이 다르게 말하는 주장은 근거가 아닙니다.")
                                 % {"what": what}))
    silent_claim = says_silent(text)
    if question is not None and question["judgement"] == Judgement.NO_DATA and not conflicts:
        if judgement == Judgement.GROUNDED and silent_claim:
            checks.append(_check("question_silent", RIGHT, _("원문은 이 질문에 답하지 않고, 주장도 원문에 없다고 말합니다. 근거가 맞습니다.")))
        elif judgement == Judgement.GROUNDED:
            checks.append(_check("question_silent", REVIEW, _("원문에 없음: 원문은 이 질문에 답하지 않는데 이 주장은 답을 내놓습니다.")))
        elif judgement == Judgement.NO_DATA and not silent_claim:
            checks.append(_check("question_silent", RIGHT, _("원문에 없음: 원문은 이 질문에 답하지 않습니다. 자료없음이 맞습니다.")))
    if judgement in (Judgement.GROUNDED, Judgement.PENDING) and cited:
        unrelated = unrelated_lines(lines, text, cited)
        evidence = set(question["evidence"]) if question else set()
        if unrelated:
            checks.append(_check("citation", REVIEW, _("%(lines)s번 줄은 이 주장과 겹치는 낱말도 값도 없습니다.")
                                 % {"lines": _lines_text(unrelated)}))
        elif evidence and not set(cited) & evidence:
            checks.append(_check("citation", REVIEW, _("인용한 줄이 질문의 근거 줄(%(lines)s)을 하나도 포함하지 않습니다.")
                                 % {"lines": _lines_text(sorted(evidence))}))
    return checks


def claim_feedback(*, text: str, judgement: str, cited: list[int], question: dict[str, Any] | None,
                   key: dict[str, Any] | None, lines: list[str]) -> dict[str, Any]:
    """One claim's verdict (맞음, 다시 보기, 확인 안 됨), the checks behind it, and what to compare."""
    item: dict[str, Any] = {"text": text, "judgement": judgement, "judgement_label": label(judgement),
                            "cited": sorted(cited), "question": question["key"] if question else "",
                            "checks": [], "compare": [], "explanation": ""}
    if key is not None:
        item.update(relation=key["relation"], relation_label=relation_label(key["relation"]),
                    expected=key["judgement"], expected_label=label(key["judgement"]),
                    explanation=key["explanation"], key_lines=key["lines"])
    if not judgement:
        item["verdict"] = UNMARKED
        return item
    cited_set = set(cited)
    if key is not None:
        item["checks"] = _claim_key_checks(judgement, cited_set, key)
    elif judgement == Judgement.NOT_A_CLAIM:
        item["verdict"] = SET_ASIDE
        return item
    else:
        item["checks"] = _source_checks(judgement, text, sorted(cited_set), question, lines)
    verdicts = {c["verdict"] for c in item["checks"]}
    item["verdict"] = REVIEW if REVIEW in verdicts else RIGHT if RIGHT in verdicts else UNCHECKED
    shown = sorted(set(key["lines"] if key else question["evidence"] if question else []) | cited_set)
    item["compare"] = [[n, lines[n - 1]] for n in shown if 1 <= n <= len(lines)]
    if key is None and question is not None:
        item["explanation"] = question["explanation"]
        item["facts"] = question.get("facts", [])
    return item


def evaluate(attempt: Attempt) -> dict[str, Any]:
    questions = answer_key(attempt)
    lines = attempt.fixture_version.text.splitlines()
    pins = Pins(attempt.fixture_version)
    stale_questions = {k for k, q in questions.items() if pins.stale(q)}
    claims = []
    for claim in attempt.claims.select_related("group"):
        key, stale_key = effective_key(claim.key, claim.group, pins)
        item = claim_feedback(text=claim.text, judgement=claim.judgement, cited=list(claim.cited_lines),
                              question=None if claim.question_key in stale_questions else questions.get(claim.question_key),
                              key=key, lines=lines)
        people_notes(item, stale=stale_key or claim.question_key in stale_questions,
                     awaiting=claim.group_id is not None, key=key)
        claims.append({"order": claim.order, **item})
    backed = [c for c in claims if c["verdict"] in (RIGHT, REVIEW)]
    caught = [c["order"] for c in backed if c["verdict"] == RIGHT and c["judgement"] in (Judgement.NO_DATA, Judgement.PENDING)]
    missed = [c["order"] for c in claims if c["verdict"] == REVIEW and c["judgement"] == Judgement.GROUNDED
              and any(ch["name"] != "citation" for ch in c["checks"] if ch["verdict"] == REVIEW)]
    covered = {c["question"] for c in claims if c["question"]}
    return {
        "format": FORMAT,
        "claims": claims,
        "summary": {
            "claims": len(claims),
            "right": sum(1 for c in claims if c["verdict"] == RIGHT),
            "review": sum(1 for c in claims if c["verdict"] == REVIEW),
            "unchecked": sum(1 for c in claims if c["verdict"] == UNCHECKED),
            "set_aside": sum(1 for c in claims if c["verdict"] == SET_ASIDE),
            "unmarked": sum(1 for c in claims if c["verdict"] == UNMARKED),
            "caught": caught,
            "missed": missed,
            "unaddressed_questions": [k for k in questions if k not in covered],
        },
        "questions": {k: {"text": v["text"], "expected_label": label(v["judgement"]),
                          "explanation": v["explanation"], "evidence": v["evidence"]} if k not in stale_questions
                      else {"text": v["text"], "expected_label": "", "explanation": "", "evidence": [], "stale": True}
                      for k, v in questions.items()},
    }
