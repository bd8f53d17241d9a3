"""Read ``evidence.yaml`` of a lesson folder into plain data (format: lessons/content/README.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from lessons.content import SLUG, ContentError, parse_yaml
from lessons.content_schema import EvidenceFile, validate_yaml
from tutor.rendering import render_markdown

from .models import INSUFFICIENT, EvidenceTask

SEOUL = ZoneInfo("Asia/Seoul")


def criteria_digest(criteria: list[Any]) -> str:
    return hashlib.sha256(json.dumps(criteria, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def read_tasks(folder: Path) -> list[dict[str, Any]]:
    path = folder / "evidence.yaml"
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    spec = parse_yaml(text, path) or {}
    validate_yaml(EvidenceFile, spec, text, path)
    tasks = []
    for order, raw in enumerate(spec.get("tasks", []), start=1):
        slug = str(raw.get("slug", ""))
        if not SLUG.match(slug):
            raise ContentError(f"{path}: 과제 slug '{slug}'가 잘못되었습니다.")
        if raw.get("kind") not in EvidenceTask.Kind.values:
            raise ContentError(f"{path}: {slug}의 kind는 practice, transfer, explain 중 하나여야 합니다.")
        criteria = _read_criteria(path, slug, raw.get("rubric", {}).get("criteria", []))
        tasks.append({
            "slug": slug, "kind": raw["kind"], "order": order, "title": str(raw["title"]),
            "instructions_html": render_markdown(str(raw.get("instructions", ""))),
            "fixture": raw.get("fixture") or "", "attach_runs": bool(raw.get("attach_runs", False)),
            "default_min_peer_reviews": int(raw.get("min_peer_reviews", 1)), "criteria": criteria,
            **{f"default_{name}": _read_time(path, slug, name, raw.get(name)) for name in SCHEDULE_FIELDS},
            "calibration": _read_calibration(path, slug, criteria, raw.get("calibration") or []),
        })
    return tasks


SCHEDULE_FIELDS = ("opens_at", "due_at", "peer_due_at")


def _read_time(path: Path, slug: str, name: str, value: Any) -> datetime | None:
    """A default schedule time: ISO 8601 (``2027-03-02T09:00+09:00``); without an offset it is Seoul time."""
    if value in (None, ""):
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime.combine(value, time(23, 59))
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value))
        except ValueError:
            raise ContentError(f"{path}: {slug}의 {name} '{value}'는 ISO 8601 시각이 아닙니다.") from None
    return value if timezone.is_aware(value) else timezone.make_aware(value, SEOUL)


def _read_criteria(path: Path, slug: str, raw_criteria: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every level needs a description: a reviewer judges by it, not by a bare label like 부족."""
    criteria = []
    for criterion in raw_criteria:
        levels = [{"key": str(lv["key"]), "label": str(lv["label"]),
                   "description": str(lv.get("description") or "").strip(), "points": lv.get("points")}
                  for lv in criterion.get("levels", [])]
        keys = [lv["key"] for lv in levels]
        if len(levels) < 2 or len(set(keys)) != len(keys) or INSUFFICIENT in keys:
            raise ContentError(f"{path}: {slug}/{criterion.get('key')}의 수준이 두 개 미만이거나 겹칩니다.")
        for level in levels:
            if not level["description"]:
                raise ContentError(f"{path}: {slug}/{criterion.get('key')}의 수준 '{level['key']}'에 설명(description)이 없습니다.")
        criteria.append({"key": str(criterion["key"]), "title": str(criterion["title"]), "levels": levels})
    if not criteria:
        raise ContentError(f"{path}: {slug}에 기준표가 없습니다.")
    return criteria


def _read_calibration(path: Path, slug: str, criteria: list[dict[str, Any]],
                      raw_examples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Example submissions with a reference review: a level and a reason for every criterion."""
    examples = []
    for order, raw in enumerate(raw_examples, start=1):
        key = str(raw.get("key", ""))
        text = str(raw.get("text") or "").strip()
        if not SLUG.match(key) or not text:
            raise ContentError(f"{path}: {slug}의 연습 예시 {order}에 key나 text가 없습니다.")
        reference = raw.get("reference") or {}
        judgements, reasons = {}, {}
        for criterion in criteria:
            entry = reference.get(criterion["key"]) or {}
            level, why = str(entry.get("level", "")), str(entry.get("why") or "").strip()
            if level not in {lv["key"] for lv in criterion["levels"]} | {INSUFFICIENT} or not why:
                raise ContentError(f"{path}: {slug}/{key}의 참고 검토에 '{criterion['key']}' 수준과 이유(why)가 필요합니다.")
            judgements[criterion["key"]], reasons[criterion["key"]] = level, why
        if set(reference) - set(judgements):
            raise ContentError(f"{path}: {slug}/{key}의 참고 검토에 기준표에 없는 기준이 있습니다.")
        examples.append({"key": key, "order": order, "text": text, "reference": judgements, "reasons": reasons})
    return examples
