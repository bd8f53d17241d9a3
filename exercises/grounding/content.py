"""Read ``exercises/<slug>/exercise.yaml`` into plain data, checking its shape (format: lessons/content/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from lessons.content import SLUG, ContentError

from .models import Judgement

KEY_FIELDS = ("judgement", "evidence", "required", "explanation")


def _key(raw: dict[str, Any], where: str) -> dict[str, Any]:
    judgement = raw.get("judgement")
    if judgement not in Judgement.values:
        raise ContentError(f"{where}: judgement는 grounded, no_data, pending 중 하나여야 합니다 ({judgement!r}).")
    evidence = sorted({int(n) for n in raw.get("evidence", [])})
    default_required = evidence if judgement == Judgement.GROUNDED else []
    required = sorted({int(n) for n in raw.get("required", default_required)})
    if not set(required) <= set(evidence):
        raise ContentError(f"{where}: required 줄은 evidence 줄 안에 있어야 합니다.")
    return {"judgement": judgement, "evidence": evidence, "required": required,
            "explanation": str(raw.get("explanation", "")).strip()}


def read_exercise(folder: Path) -> dict[str, Any]:
    path = folder / "exercise.yaml"
    if not SLUG.match(folder.name):
        raise ContentError(f"{folder}: 연습 폴더 이름은 소문자, 숫자, '-'만 쓸 수 있습니다.")
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
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
    samples = [
        {"key": str(raw["key"]), "title": str(raw["title"]), "variant_key": str(raw.get("variant") or ""),
         "text": str(raw["text"]).strip()}
        for raw in spec.get("samples", []) or []
    ]
    if not questions:
        raise ContentError(f"{path}: 질문이 하나도 없습니다.")
    return {
        "title": str(spec["title"]), "order": int(spec.get("order", 0)), "summary": str(spec.get("summary", "")),
        "prompt": str(spec["prompt"]).strip(), "fixture": str(spec["fixture"]),
        "questions": questions, "variants": variants, "samples": samples,
    }
