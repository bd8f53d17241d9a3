"""The shape of ``lab.yaml``: pydantic models, checked when the course loads (format: lessons/content/README.md).

A ``custom`` check must name a function of ``custom_checks``: a misspelt name
fails ``load_course``, not a learner's run.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from lessons.content_schema import Slug, Strict, Text

from . import custom_checks


def custom_check_names() -> set[str]:
    """The public functions of ``custom_checks`` a lab may name."""
    return {name for name, value in vars(custom_checks).items()
            if callable(value) and not name.startswith("_") and getattr(value, "__module__", "") == custom_checks.__name__}


class Inject(Strict):
    find: Text
    replace: str


class LabStep(Strict):
    """One step. An ``extend`` step carries ``cases``: Python appended to the learner's program when that step runs."""

    kind: Literal["predict", "run", "inject", "observe", "restore", "extend"]
    title: str = ""
    text: str = ""
    checks: list[str] = Field(default_factory=list)
    inject: Inject | None = None
    cases: str = ""

    @model_validator(mode="after")
    def cases_belong_to_extend(self) -> LabStep:
        if self.kind == "extend" and (not self.cases.strip() or not self.checks):
            raise ValueError("extend 단계에는 cases(프로그램 뒤에 붙일 사례 코드)와 checks가 필요합니다")
        if self.kind != "extend" and self.cases:
            raise ValueError("cases는 extend 단계에만 쓸 수 있습니다")
        return self


class LabCheck(Strict):
    id: Slug
    kind: Literal["stdout_contains", "stdout_not_contains", "exit_status", "exception", "custom"]
    value: str | int
    label: Text

    @field_validator("value")
    @classmethod
    def custom_names_a_function(cls, value: str | int, info: ValidationInfo) -> str | int:
        if info.data.get("kind") == "custom" and str(value) not in custom_check_names():
            raise ValueError(f"custom 검사 '{value}'는 exercises/labs/custom_checks.py에 없습니다")
        return value


class LabFile(Strict):
    title: Text
    order: int = 0
    summary: str = ""
    instructions: str = ""
    files: list[str] = Field(default_factory=list)
    fixtures: list[Slug] = Field(default_factory=list)
    steps: list[LabStep] = Field(min_length=1)
    checks: list[LabCheck] = Field(default_factory=list)
