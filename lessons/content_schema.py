"""Pydantic shapes of the course's authored files, and errors that name the file and the line.

Every loader (lessons, labs, grounding exercises, evidence tasks) first checks
its YAML against a model here or in its own app with ``validate_yaml``: a
misspelt key, a missing field or a value of the wrong kind stops
``load_course`` with ``path:line: where: what``, before anything is written.
The loaders keep their own rules that span files (a fixture that exists, a
sample whose claims match the splitter); these models hold the shape.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,48}$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Unknown keys are refused: a misspelt key would otherwise be silently ignored."""

    model_config = ConfigDict(extra="forbid")


class CourseFile(Strict):
    slug: Slug
    title: Text
    description: str = ""


class LessonFrontMatter(Strict):
    title: Text
    summary: str = ""
    order: int = Field(ge=1)
    requires: list[Slug] = Field(default_factory=list, description="Lessons to do first (slugs).")
    minutes: int = Field(default=0, ge=0, description="Reading time.")
    lab_minutes: int = Field(default=0, ge=0, description="Time for the labs and exercises.")
    task_minutes: int = Field(default=0, ge=0, description="Time for the evidence tasks.")
    objectives: list[str] | None = None
    published: bool = True
    fixtures: dict[Slug, Text] = Field(default_factory=dict)


class SelfCheckItem(Strict):
    key: Slug
    question: Text
    answer: Text
    explanation: Text
    kind: Literal["predict", "recall"] = "recall"


def _line_of(node: yaml.Node | None, loc: tuple[int | str, ...]) -> int:
    """The 1-based line of the YAML node at ``loc`` (or of the nearest enclosing node that exists)."""
    line = node.start_mark.line + 1 if node is not None else 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == part:
                    # An unknown key is reported at the key itself; anything else at its value.
                    node, line = value, value.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def validation_message(exc: ValidationError, text: str, path: Path, *, first_line: int = 1,
                       root: tuple[int | str, ...] = ()) -> str:
    """``path:line: where: what`` for every error, lines counted in the file (``first_line`` = line of ``text``)."""
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        node = None
    lines = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])[len(root):]
        where = ".".join(str(p) for p in loc) or "(전체)"
        lines.append(f"{path}:{_line_of(node, loc) + first_line - 1}: {where}: {error['msg']}")
    return "\n".join(lines)


def validate_yaml(model: type[M], data: Any, text: str, path: Path, *, first_line: int = 1) -> M:
    """Validate parsed ``data`` (from ``text``) against ``model``; raise ContentError naming file and line."""
    from .content import ContentError  # the loader's error; content imports this module

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(validation_message(exc, text, path, first_line=first_line)) from exc


def validate_yaml_list(model: type[M], data: Any, text: str, path: Path) -> list[M]:
    """Validate a YAML file whose top level is a list of ``model`` items."""
    from .content import ContentError

    class _Wrap(BaseModel):
        items: list[model]  # type: ignore[valid-type]

    try:
        return _Wrap.model_validate({"items": data if data is not None else []}).items
    except ValidationError as exc:
        raise ContentError(validation_message(exc, text, path, root=("items",))) from exc



# --- evidence.yaml (read by exercises.evidence.content) ---


class RubricLevel(Strict):
    key: Slug
    label: Text
    description: str = ""  # required by the loader, which names the task, criterion and level in Korean
    points: int | None = None


class RubricCriterion(Strict):
    key: Slug
    title: Text
    levels: list[RubricLevel] = Field(min_length=2)


class Rubric(Strict):
    criteria: list[RubricCriterion] = Field(min_length=1)


class CalibrationReference(Strict):
    level: str
    why: str = ""  # required by the loader, with its own message


class CalibrationExample(Strict):
    key: Slug
    text: Text
    reference: dict[Slug, CalibrationReference]


class EvidenceTaskSpec(Strict):
    slug: Slug
    kind: Literal["practice", "transfer", "explain"]
    title: Text
    instructions: str = ""
    fixture: Slug | None = None
    attach_runs: bool = False
    min_peer_reviews: int = Field(default=1, ge=0)
    # Default schedule times (ISO 8601; without an offset, Seoul time), read by exercises.evidence.content.
    opens_at: datetime | date | str | None = None
    due_at: datetime | date | str | None = None
    peer_due_at: datetime | date | str | None = None
    rubric: Rubric
    calibration: list[CalibrationExample] | None = None


class EvidenceFile(Strict):
    tasks: list[EvidenceTaskSpec] = Field(default_factory=list)


# --- exercises/<slug>/exercise.yaml (read by exercises.grounding.content) ---

# A key's judgement: ``exercises.grounding.models.Judgement`` but 주장 아님. Named here because lessons may not
# import the apps built on it; tests/exercises/grounding/test_judgement_enum.py holds the two equal.
Judgement = Literal["grounded", "no_data", "pending"]


class VariantQuestion(Strict):
    key: Slug
    judgement: Judgement
    evidence: list[int] = Field(default_factory=list)
    required: list[int] | None = None
    facts: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list)
    explanation: str = ""


class ExerciseQuestion(VariantQuestion):
    text: Text


class ExerciseVariant(Strict):
    key: Slug
    title: Text
    fixture: Slug
    questions: list[VariantQuestion] = Field(default_factory=list)


class SampleClaim(Strict):
    text: Text
    relation: Literal["restates", "silent", "contradicts", "partial", "conditional", "not_claim"]
    judgement: Judgement | Literal["not_claim"] | None = None  # optional; the loader checks it fits the relation
    lines: list[int] = Field(default_factory=list)
    question: Slug | None = None
    explanation: str = ""


class ExerciseSample(Strict):
    key: Slug
    title: Text
    variant: Slug | None = None
    text: Text
    claims: list[SampleClaim]


class ExerciseFile(Strict):
    title: Text
    order: int = 0
    summary: str = ""
    fixture: Slug
    prompt: Text
    questions: list[ExerciseQuestion] = Field(min_length=1)
    variants: list[ExerciseVariant] = Field(default_factory=list)
    samples: list[ExerciseSample] = Field(default_factory=list)
