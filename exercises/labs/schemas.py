"""API shapes of the labs app. The reference solution never appears here."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ninja import Field, Schema

if TYPE_CHECKING:
    from .models import Lab


class CheckResultOut(Schema):
    id: str
    label: str
    passed: bool
    detail: str


class SealOut(Schema):
    algorithm: str = Field(..., description="HMAC-SHA256, over the SHA-256 of each covered field")
    key_id: str
    value: str
    state: str = Field(..., description="verified · changed · forged · altered · unsealed (before keyed seals) · pending")
    verified: bool
    message: str
    covers: list[str] = Field(..., description="the run fields the seal covers")
    changed: list[str] = Field(..., description="covered fields that no longer match their sealed digest")
    not_covered: list[str]


class RunOut(Schema):
    id: int
    lab: str
    step: str
    status: str
    status_label: str
    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    truncated: bool
    wall_ms: float | None
    cpu_ms: float | None
    checks: list[CheckResultOut]
    code: str
    prediction: str
    stdin: str
    files: dict[str, str]
    code_digest: str
    lab_version: int
    fixture_versions: dict
    limits: dict
    interpreter: str
    failure_reason: str
    record_verifies: bool | None
    seal: SealOut
    created_at: datetime
    finished_at: datetime | None


class RunIn(Schema):
    code: str = Field(..., description="main.py의 내용")
    step: str = Field("run", description="run · inject · restore · extend")
    prediction: str = Field("", max_length=4000)


class StepOut(Schema):
    kind: str
    title: str
    html: str
    checks: list[str]
    cases: str = Field("", description="extend 단계: 실행할 때 프로그램 뒤에 붙는 추가 사례 코드")


class LabOut(Schema):
    """Read from a ``Lab``: its steps are the stored step records, of which only ``StepOut``'s fields go out
    (never the reference solution)."""

    slug: str
    lesson: str
    title: str
    summary: str
    version: int
    starter_code: str
    steps: list[StepOut]

    @staticmethod
    def resolve_lesson(lab: Lab) -> str:
        return lab.lesson.slug
