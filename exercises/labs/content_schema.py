"""The shape of ``lab.yaml``: pydantic models, checked when the course loads (format: lessons/content/README.md).

A check's kind must be one of ``checking.CHECK_KINDS`` and its value must suit the kind (a ``custom`` check
names a function of ``custom_checks``, a ``stdout_matches`` pattern compiles): a mistake fails
``load_course``, not a learner's run.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from lessons.content_schema import Slug, Strict, Text

from .checking import CHECK_KINDS


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
    kind: str
    value: str | int
    label: Text

    @field_validator("kind")
    @classmethod
    def kind_is_declared(cls, kind: str) -> str:
        if kind not in CHECK_KINDS:
            raise ValueError(f"검사 종류 '{kind}'를 모릅니다 (있는 종류: {', '.join(CHECK_KINDS)})")
        return kind

    @field_validator("value")
    @classmethod
    def value_suits_the_kind(cls, value: str | int, info: ValidationInfo) -> str | int:
        kind = CHECK_KINDS.get(str(info.data.get("kind")))
        if kind is not None and (problem := kind.validate(value)):
            raise ValueError(problem)
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
