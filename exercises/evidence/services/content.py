"""Tasks, rubrics and calibration examples read from a lesson's files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from lessons.content import ContentError
from lessons.models import Fixture, Lesson
from tutor import audit

from ..content import criteria_digest, read_tasks
from ..models import (
    CalibrationExample,
    EvidenceTask,
    RubricVersion,
)


@transaction.atomic(savepoint=False)
def load_tasks(*, lesson: Lesson, folder: Path) -> list[str]:
    """Upsert a lesson's evidence tasks; a changed rubric becomes a new version, old reviews keep theirs.

    Only the task's defaults come from the file: per-cohort settings are never touched.
    """
    lines: list[str] = []
    seen: set[str] = set()
    for spec in read_tasks(folder):
        seen.add(spec["slug"])
        line = _upsert_task(lesson=lesson, spec=spec)
        if line:
            lines.append(line)
    for task in EvidenceTask.objects.filter(lesson=lesson, is_active=True).exclude(slug__in=seen):
        task.is_active = False
        task.save(update_fields=["is_active"])
    return lines


def _upsert_task(*, lesson: Lesson, spec: dict[str, Any]) -> str:
    criteria = spec.pop("criteria")
    calibration = spec.pop("calibration")
    fixture_slug = spec.pop("fixture")
    fixture = Fixture.objects.filter(slug=fixture_slug).first() if fixture_slug else None
    if fixture_slug and fixture is None:
        raise ContentError(f"{spec['slug']}: 가상 자료 '{fixture_slug}'가 없습니다.")
    digest = criteria_digest(criteria)
    task, _created = EvidenceTask.objects.update_or_create(
        slug=spec["slug"], defaults={**spec, "lesson": lesson, "fixture": fixture, "is_active": True, "digest": digest},
    )
    line = ""
    if task.current_rubric is None or task.current_rubric.digest != digest:
        number = (task.rubric_versions.aggregate(n=Max("number"))["n"] or 0) + 1
        task.current_rubric = RubricVersion.objects.create(task=task, number=number, criteria=criteria, digest=digest)
        task.save(update_fields=["current_rubric"])
        audit.record(actor=None, action="rubric.version", target=task.current_rubric, reason="레슨 파일에서 읽음",
                     after={"number": number, "digest": digest, "criteria": [c.get("key") for c in criteria]})
        line = _("증거 과제 기준표: %(slug)s 판 %(n)d") % {"slug": task.slug, "n": number}
    _upsert_calibration(task=task, examples=calibration)
    return line


def _upsert_calibration(*, task: EvidenceTask, examples: list[dict[str, Any]]) -> None:
    """Keep one active row per example; a changed example (or rubric) is a new row, old practice reviews stay."""
    rubric = task.current_rubric
    assert rubric is not None, "a task's rubric is written before its calibration examples"
    keep = []
    for example in examples:
        digest = criteria_digest([example, rubric.digest])
        row, _created = CalibrationExample.objects.update_or_create(
            task=task, key=example["key"], digest=digest,
            defaults={"order": example["order"], "text": example["text"], "reference": example["reference"],
                      "reasons": example["reasons"], "rubric_version": rubric, "is_active": True},
        )
        keep.append(row.pk)
    CalibrationExample.objects.filter(task=task, is_active=True).exclude(pk__in=keep).update(is_active=False)
