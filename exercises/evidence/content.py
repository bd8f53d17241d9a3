"""Read ``evidence.yaml`` of a lesson folder into plain data (format: lessons/content/README.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from lessons.content import SLUG, ContentError
from lessons.rendering import render_markdown

from .models import INSUFFICIENT, EvidenceTask


def criteria_digest(criteria: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(criteria, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def read_tasks(folder: Path) -> list[dict[str, Any]]:
    path = folder / "evidence.yaml"
    if not path.is_file():
        return []
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    tasks = []
    for order, raw in enumerate(spec.get("tasks", []), start=1):
        slug = str(raw.get("slug", ""))
        if not SLUG.match(slug):
            raise ContentError(f"{path}: 과제 slug '{slug}'가 잘못되었습니다.")
        if raw.get("kind") not in EvidenceTask.Kind.values:
            raise ContentError(f"{path}: {slug}의 kind는 practice, transfer, explain 중 하나여야 합니다.")
        criteria = []
        for criterion in raw.get("rubric", {}).get("criteria", []):
            levels = [{"key": str(lv["key"]), "label": str(lv["label"]), "description": str(lv.get("description", "")),
                       "points": lv.get("points")} for lv in criterion.get("levels", [])]
            keys = [lv["key"] for lv in levels]
            if len(levels) < 2 or len(set(keys)) != len(keys) or INSUFFICIENT in keys:
                raise ContentError(f"{path}: {slug}/{criterion.get('key')}의 수준이 두 개 미만이거나 겹칩니다.")
            criteria.append({"key": str(criterion["key"]), "title": str(criterion["title"]), "levels": levels})
        if not criteria:
            raise ContentError(f"{path}: {slug}에 기준표가 없습니다.")
        tasks.append({
            "slug": slug, "kind": raw["kind"], "order": order, "title": str(raw["title"]),
            "instructions_html": render_markdown(str(raw.get("instructions", ""))),
            "fixture": raw.get("fixture") or "", "attach_runs": bool(raw.get("attach_runs", False)),
            "min_peer_reviews": int(raw.get("min_peer_reviews", 1)), "criteria": criteria,
        })
    return tasks
