"""Read lesson folders from disk into plain data, checking their shape.

A lesson lives in ``lessons/content/<slug>/``: ``lesson.md`` (YAML front
matter, then twelve ``## … {#part-key}`` sections in the fixed order),
``self_checks.yaml``, ``files/`` (downloadable lab files), ``fixtures/``
(fictional data) and ``diagrams/`` (SVG figures, checked by ``diagrams.check_svg``). Nothing here touches the database; ``services.load_course``
does, so parsing can be tested and reused on its own.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.urls import reverse

from tutor.rendering import RenderedPart, UnknownImage, render_part

from .content_schema import (
    CourseFile,
    LessonFrontMatter,
    SelfCheckItem,
    validate_yaml,
    validate_yaml_list,
)
from .diagrams import DIAGRAM_NAME, UnsafeDiagram, check_svg
from .models import PartKey, SelfCheck

# libyaml's parser when PyYAML was built with it (the wheels are): the course is
# read at every start and in many tests, and the pure-Python parser was half of it.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, path: Path | None = None, *, first_line: int = 1) -> Any:
    """Parse authored YAML safely (no tags that build objects), with the fast parser where there is one.

    A syntax error becomes a ``ContentError`` naming ``file:line`` (the author's line, counting from
    ``first_line`` for a block such as front matter), so ``load_course`` stops with a message, not a traceback.
    """
    try:
        return yaml.load(text, Loader=_YAML_LOADER)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{path or '<yaml>'}:{mark.line + first_line}" if mark is not None else str(path or "<yaml>")
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ContentError(f"{where}: YAML 문법 오류: {problem}") from exc

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,48}\Z")
PART_HEADING = re.compile(r"^## +(?P<title>.+?) +\{#(?P<key>[a-z-]+)\}\s*$")
FENCE = re.compile(r"^(```|~~~)")
MAX_FILE_BYTES = 64 * 1024
OBJECTIVES_RANGE = (2, 5)
SELF_CHECK_KINDS = set(SelfCheck.Kind.values)


class ContentError(ValueError):
    """A lesson folder that does not follow the format; the message names the file and the fault."""


@dataclass
class PartSource:
    number: int
    key: str
    title: str
    rendered: RenderedPart

    @property
    def anchor(self) -> str:
        return f"s{self.number}-{self.key}"

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "key": self.key,
            "title": self.title,
            "anchor": self.anchor,
            "html": self.rendered.html,
            "subheadings": [vars(h) for h in self.rendered.subheadings],
        }


@dataclass
class SelfCheckSource:
    key: str
    question: str
    answer: str
    explanation: str
    kind: str = "recall"  # "predict": asks what happens with a new input (course standard: ≥ half)


@dataclass
class FixtureSource:
    slug: str
    title: str
    text: str

    @property
    def digest(self) -> str:
        return sha256(self.text.encode("utf-8"))


@dataclass
class DiagramSource:
    name: str
    svg: str

    @property
    def digest(self) -> str:
        return sha256(self.svg.encode("utf-8"))

    def url(self, lesson_slug: str) -> str:
        # The digest is in the path, so a page of an older version keeps showing its own figure.
        return reverse("lessons:diagram", args=[lesson_slug, self.digest, self.name])


@dataclass
class LessonSource:
    slug: str
    title: str
    summary: str
    order: int
    minutes: int
    published: bool
    parts: list[PartSource]
    self_checks: list[SelfCheckSource]
    files: dict[str, str]
    fixtures: list[FixtureSource]
    objectives: list[str] = field(default_factory=list)
    diagrams: list[DiagramSource] = field(default_factory=list)
    digest: str = field(default="")
    requires: list[str] = field(default_factory=list)
    lab_minutes: int = 0
    task_minutes: int = 0


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_text(path: Path) -> str:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ContentError(f"{path}: {MAX_FILE_BYTES // 1024} KiB보다 큽니다.")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(f"{path}: UTF-8 텍스트가 아닙니다.") from exc


def split_front_matter(text: str, path: Path) -> tuple[dict[str, Any], str]:
    if not text.startswith("---\n"):
        raise ContentError(f"{path}: 첫 줄이 '---'인 front matter가 필요합니다.")
    try:
        head, body = text[4:].split("\n---\n", 1)
    except ValueError as exc:
        raise ContentError(f"{path}: front matter를 닫는 '---'가 없습니다.") from exc
    meta = parse_yaml(head, path, first_line=2) or {}
    if not isinstance(meta, dict):
        raise ContentError(f"{path}: front matter는 키-값 묶음이어야 합니다.")
    # Shape first (unknown or misspelt keys, wrong kinds), reported at the file's own line numbers.
    validate_yaml(LessonFrontMatter, meta, head, path, first_line=2)
    return meta, body


def split_parts(body: str, path: Path) -> list[tuple[str, str, str]]:
    """Cut the body at level-2 headings outside code fences into (key, title, text)."""
    parts: list[tuple[str, str, list[str]]] = []
    in_fence = False
    for line in body.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else PART_HEADING.match(line)
        if match:
            parts.append((match["key"], match["title"].strip(), []))
        elif not in_fence and line.startswith("## "):
            raise ContentError(f"{path}: '{line}'에 '{{#part-key}}'가 없습니다.")
        elif parts:
            parts[-1][2].append(line)
        elif line.strip():
            raise ContentError(f"{path}: 첫 '## ' 제목 앞에 본문이 있습니다.")
    expected = list(PartKey.values)
    found = [key for key, _, _ in parts]
    if found != expected:
        raise ContentError(
            f"{path}: 부분의 순서가 다릅니다. 기대: {', '.join(expected)} / 실제: {', '.join(found)}"
        )
    return [(key, title, "\n".join(lines).strip() + "\n") for key, title, lines in parts]


def read_self_checks(path: Path) -> list[SelfCheckSource]:
    if not path.exists():
        return []
    text = _read_text(path)
    items = validate_yaml_list(SelfCheckItem, parse_yaml(text, path), text, path)
    checks: list[SelfCheckSource] = []
    for item in items:
        if item.key in {c.key for c in checks}:
            raise ContentError(f"{path}: 문항 키 '{item.key}'가 겹칩니다.")
        checks.append(SelfCheckSource(key=item.key, question=item.question, answer=item.answer,
                                      explanation=item.explanation, kind=item.kind))
    return checks


def read_folder_texts(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {p.name: _read_text(p) for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


def read_objectives(meta: dict[str, Any], path: Path) -> list[str]:
    """The front matter's ``objectives``: 2–5 non-empty sentences, shown at the top of the page.

    A lesson without them still loads (older lessons are brought up to the
    standard one by one; ``tests/lessons/test_course_standard.py`` tracks which).
    """
    raw = meta.get("objectives")
    if raw is None:
        return []
    low, high = OBJECTIVES_RANGE
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        raise ContentError(f"{path}: front matter 'objectives'에 학습 목표를 {low}~{high}개 목록으로 적으세요.")
    if not all(isinstance(item, str) and item.strip() for item in raw):
        raise ContentError(f"{path}: 'objectives'의 항목은 빈칸이 아닌 문장이어야 합니다 (':'가 있으면 따옴표로 감싸세요).")
    return [item.strip() for item in raw]


def read_diagrams(folder: Path) -> list[DiagramSource]:
    """Every ``diagrams/<name>.svg``, each checked to be inert drawing before any page shows it."""
    diagrams = []
    for name, text in read_folder_texts(folder / "diagrams").items():
        path = folder / "diagrams" / name
        if not DIAGRAM_NAME.match(name):
            raise ContentError(f"{path}: 그림 파일 이름은 소문자, 숫자, '-'와 '.svg'만 쓸 수 있습니다.")
        try:
            check_svg(text)
        except UnsafeDiagram as exc:
            raise ContentError(f"{path}: {exc}") from exc
        diagrams.append(DiagramSource(name=name, svg=text))
    return diagrams


def folder_digest(folder: Path) -> str:
    """Digest every file of the lesson folder (names and bytes) so any change makes a new version."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        if path.parent.name == "fixtures":
            continue  # fixtures are versioned on their own, in the database
        if "mutants" in path.relative_to(folder).parts[:-1]:
            continue  # labs/<lab>/mutants/: wrong solutions for the test suite, never shown to learners
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def read_lesson(folder: Path) -> LessonSource:
    """Parse one lesson folder; raise ``ContentError`` naming the file and the fault."""
    slug = folder.name
    if not SLUG.match(slug):
        raise ContentError(f"{folder}: 폴더 이름은 소문자, 숫자, '-'만 쓸 수 있습니다.")
    path = folder / "lesson.md"
    meta, body = split_front_matter(_read_text(path), path)
    for required in ("title", "order"):
        if required not in meta:
            raise ContentError(f"{path}: front matter에 '{required}'가 없습니다.")
    diagrams = read_diagrams(folder)
    images = {f"diagrams/{d.name}": d.url(slug) for d in diagrams}
    try:
        parts = [
            PartSource(number=n, key=key, title=title, rendered=render_part(text, n, images))
            for n, (key, title, text) in enumerate(split_parts(body, path), start=1)
        ]
    except UnknownImage as exc:
        raise ContentError(f"{path}: {exc}") from exc
    fixture_titles: dict[str, str] = meta.get("fixtures") or {}
    fixture_texts = read_folder_texts(folder / "fixtures")
    fixtures = []
    for name, text in fixture_texts.items():
        stem = name.rsplit(".", 1)[0]
        if stem not in fixture_titles:
            raise ContentError(f"{path}: fixtures/{name}의 제목이 front matter 'fixtures'에 없습니다.")
        fixtures.append(FixtureSource(slug=stem, title=str(fixture_titles[stem]), text=text))
    return LessonSource(
        slug=slug,
        title=str(meta["title"]).strip(),
        summary=str(meta.get("summary", "")).strip(),
        order=int(meta["order"]),
        minutes=int(meta.get("minutes", 0)),
        published=bool(meta.get("published", True)),
        parts=parts,
        self_checks=read_self_checks(folder / "self_checks.yaml"),
        files=read_folder_texts(folder / "files"),
        fixtures=fixtures,
        objectives=read_objectives(meta, path),
        diagrams=diagrams,
        digest=folder_digest(folder),
        requires=[str(slug) for slug in meta.get("requires") or []],
        lab_minutes=int(meta.get("lab_minutes", 0)),
        task_minutes=int(meta.get("task_minutes", 0)),
    )


def read_course(content_dir: Path) -> tuple[dict[str, Any], list[LessonSource]]:
    """Read ``course.yaml`` and every lesson folder under ``content_dir``."""
    path = content_dir / "course.yaml"
    text = _read_text(path)
    course_meta = parse_yaml(text, path) or {}
    validate_yaml(CourseFile, course_meta, text, path)
    lessons = [read_lesson(p) for p in sorted(content_dir.iterdir()) if (p / "lesson.md").is_file()]
    check_requires(lessons, content_dir)
    return course_meta, lessons


def check_requires(lessons: list[LessonSource], content_dir: Path) -> None:
    """Every ``requires:`` names a lesson of the course that comes earlier in ``order`` (so no cycle)."""
    order = {lesson.slug: lesson.order for lesson in lessons}
    for lesson in lessons:
        for slug in lesson.requires:
            if slug not in order:
                raise ContentError(f"{content_dir / lesson.slug / 'lesson.md'}: requires의 '{slug}'는 없는 레슨입니다.")
            if order[slug] >= lesson.order:
                raise ContentError(
                    f"{content_dir / lesson.slug / 'lesson.md'}: requires의 '{slug}'(order {order[slug]})가 "
                    f"이 레슨(order {lesson.order})보다 앞에 와야 합니다."
                )
