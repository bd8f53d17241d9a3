"""Read a lab folder (``lab.yaml``, starter, solution, files) into plain data, checking its shape.

The format is described in ``lessons/content/README.md``. Nothing here touches
the database; ``services.load_labs`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lessons.content import SLUG, ContentError, parse_yaml
from lessons.content_schema import validate_yaml
from tutor.rendering import render_markdown

from .checking import CHECK_KINDS
from .content_schema import LabFile
from .models import Lab

CASES_BANNER = "# --- 이 단계가 프로그램 뒤에 붙이는 추가 사례 ---"


def program_for_step(step: dict[str, Any] | None, code: str) -> str:
    """The program a step runs: the learner's code, followed by the step's extra ``cases`` for an ``extend`` step.

    The one place where a step changes what runs: the worker, ``check_labs`` and
    the mutant tests all go through it. The cases are lab content (part of the
    lab's version), appended at run time, so the stored code stays what the
    learner wrote and a re-run never appends them twice.
    """
    cases = (step or {}).get("cases") or ""
    if not cases.strip():
        return code
    return f"{code.rstrip()}\n\n\n{CASES_BANNER}\n{cases}"


def read_lab(folder: Path) -> dict[str, Any]:
    path = folder / "lab.yaml"
    text = path.read_text(encoding="utf-8")
    spec = parse_yaml(text, path) or {}
    validate_yaml(LabFile, spec, text, path)
    if not SLUG.match(folder.name):
        raise ContentError(f"{folder}: 실습 폴더 이름은 소문자, 숫자, '-'만 쓸 수 있습니다.")
    checks = {check["id"]: check for check in spec.get("checks", [])}
    for check in checks.values():
        if check.get("kind") not in CHECK_KINDS:
            raise ContentError(f"{path}: 검사 '{check.get('id')}'의 종류 '{check.get('kind')}'를 모릅니다.")
    steps = []
    for step in spec.get("steps", []):
        if step.get("kind") not in Lab.StepKind.values:
            raise ContentError(f"{path}: 단계 종류 '{step.get('kind')}'를 모릅니다.")
        unknown = set(step.get("checks", [])) - set(checks)
        if unknown:
            raise ContentError(f"{path}: 없는 검사 {sorted(unknown)}를 단계가 가리킵니다.")
        steps.append({
            "kind": step["kind"],
            "title": str(step.get("title", "")),
            "html": render_markdown(str(step.get("text", ""))),
            "checks": list(step.get("checks", [])),
            "inject": step.get("inject"),
            "cases": str(step.get("cases", "")),
        })
    files = {name: (folder / name).read_text(encoding="utf-8") for name in spec.get("files", [])}
    return {
        "title": str(spec["title"]),
        "order": int(spec.get("order", 0)),
        "summary": str(spec.get("summary", "")),
        "instructions_html": render_markdown(str(spec.get("instructions", ""))),
        "steps": steps,
        "checks": list(checks.values()),
        "starter_code": (folder / "starter.py").read_text(encoding="utf-8"),
        "solution_code": (folder / "solution.py").read_text(encoding="utf-8"),
        "files": files,
        "fixture_slugs": list(spec.get("fixtures", [])),
    }
