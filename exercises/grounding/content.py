"""Read ``exercises/<slug>/exercise.yaml`` into plain data, checking its shape (format: lessons/content/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lessons.content import SLUG, ContentError, parse_yaml
from lessons.content_schema import ExerciseFile, validate_yaml

from .engine import split_claims
from .models import JUDGEMENT_FOR, Judgement, Relation

KEY_FIELDS = ("judgement", "evidence", "required", "explanation")
_QUESTION_JUDGEMENTS = (Judgement.GROUNDED, Judgement.NO_DATA, Judgement.PENDING)


def claim_text_key(text: str) -> str:
    """How a claim's text is compared with a keyed claim: whitespace-insensitive."""
    return " ".join(text.split())


def _claim_keys(raw: dict[str, Any], *, questions: set[str], line_count: int | None, where: str) -> list[dict]:
    """A sample's claim-level keys; every claim the splitter makes of the sample must have one."""
    keys = []
    for item in raw.get("claims", []) or []:
        relation = item.get("relation")
        if relation not in Relation.values:
            raise ContentError(f"{where}: relation은 {', '.join(Relation.values)} 중 하나여야 합니다 ({relation!r}).")
        judgement = item.get("judgement", JUDGEMENT_FOR[relation])
        # A claim that rightly says the source is silent restates it: 근거 with no lines.
        if judgement != JUDGEMENT_FOR[relation]:
            raise ContentError(f"{where}: '{item.get('text')}'의 judgement {judgement!r}는 relation {relation!r}와 맞지 않습니다.")
        question = str(item.get("question") or "")
        if question and question not in questions:
            raise ContentError(f"{where}: 없는 질문 '{question}'을 가리킵니다.")
        lines = sorted({int(n) for n in item.get("lines", [])})
        if line_count is not None and any(not 1 <= n <= line_count for n in lines):
            raise ContentError(f"{where}: '{item.get('text')}'의 줄 번호가 원문 밖입니다.")
        keys.append({"text": claim_text_key(str(item["text"])), "judgement": judgement, "relation": relation,
                     "lines": lines, "question": question, "explanation": str(item.get("explanation", "")).strip()})
    if keys:
        split = {claim_text_key(c.text) for c in split_claims(str(raw["text"]).strip())}
        keyed = {k["text"] for k in keys}
        if keyed - split:
            raise ContentError(f"{where}: 나뉜 주장에 없는 키: {sorted(keyed - split)}")
        if split - keyed:
            raise ContentError(f"{where}: 키가 없는 주장: {sorted(split - keyed)}")
    return keys


def _key(raw: dict[str, Any], where: str) -> dict[str, Any]:
    judgement = raw.get("judgement")
    if judgement not in _QUESTION_JUDGEMENTS:
        raise ContentError(f"{where}: judgement는 grounded, no_data, pending 중 하나여야 합니다 ({judgement!r}).")
    evidence = sorted({int(n) for n in raw.get("evidence", [])})
    default_required = evidence if judgement == Judgement.GROUNDED else []
    required = sorted({int(n) for n in raw.get("required", default_required)})
    if not set(required) <= set(evidence):
        raise ContentError(f"{where}: required 줄은 evidence 줄 안에 있어야 합니다.")
    return {"judgement": judgement, "evidence": evidence, "required": required,
            "explanation": str(raw.get("explanation", "")).strip(),
            "facts": [str(f).strip() for f in raw.get("facts", []) or []],
            "terms": [str(t).strip() for t in raw.get("terms", []) or [] if str(t).strip()]}


def read_exercise(folder: Path, *, line_counts: dict[str, int] | None = None) -> dict[str, Any]:
    """The exercise as plain data; ``line_counts`` (fixture slug -> lines) checks cited line numbers."""
    path = folder / "exercise.yaml"
    if not SLUG.match(folder.name):
        raise ContentError(f"{folder}: 연습 폴더 이름은 소문자, 숫자, '-'만 쓸 수 있습니다.")
    text = path.read_text(encoding="utf-8")
    spec = parse_yaml(text, path) or {}
    validate_yaml(ExerciseFile, spec, text, path)
    questions: list[dict[str, Any]] = []
    for order, raw in enumerate(spec.get("questions", []), start=1):
        key = str(raw.get("key", ""))
        if not SLUG.match(key) or key in {q["key"] for q in questions}:
            raise ContentError(f"{path}: 질문 키 '{key}'가 잘못되었거나 겹칩니다.")
        questions.append({"key": key, "order": order, "text": str(raw["text"]).strip(), **_key(raw, f"{path} {key}")})
    keys = {q["key"] for q in questions}
    variants = []
    for raw in spec.get("variants", []) or []:
        overrides = {}
        for item in raw.get("questions", []):
            if item.get("key") not in keys:
                raise ContentError(f"{path}: 변형이 없는 질문 '{item.get('key')}'를 가리킵니다.")
            overrides[item["key"]] = _key(item, f"{path} {raw.get('key')}/{item['key']}")
        variants.append({"key": str(raw["key"]), "title": str(raw["title"]), "fixture": str(raw["fixture"]),
                         "overrides": overrides})
    fixtures = {"": str(spec["fixture"]), **{v["key"]: v["fixture"] for v in variants}}
    samples = []
    for raw in spec.get("samples", []) or []:
        variant_key = str(raw.get("variant") or "")
        line_count = (line_counts or {}).get(str(fixtures.get(variant_key, "")))
        samples.append({"key": str(raw["key"]), "title": str(raw["title"]), "variant_key": variant_key,
                        "text": str(raw["text"]).strip(),
                        "claims": _claim_keys(raw, questions=keys, line_count=line_count,
                                              where=f"{path} {raw.get('key')}")})
    if not questions:
        raise ContentError(f"{path}: 질문이 하나도 없습니다.")
    return {
        "title": str(spec["title"]), "order": int(spec.get("order", 0)), "summary": str(spec.get("summary", "")),
        "prompt": str(spec["prompt"]).strip(), "fixture": str(spec["fixture"]),
        "questions": questions, "variants": variants, "samples": samples,
    }
