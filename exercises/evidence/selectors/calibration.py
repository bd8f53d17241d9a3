"""Calibration examples and a reviewer's practice review compared with the reference review."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tutor.access import AnyUser
from tutor.errors import NotFound

from ..models import (
    INSUFFICIENT,
    CalibrationExample,
    CalibrationReview,
    EvidenceTask,
)


def calibration_examples(task: EvidenceTask) -> list[CalibrationExample]:
    return list(CalibrationExample.objects.filter(task=task, is_active=True).select_related("rubric_version"))


def access_calibration_example(user: AnyUser, task: EvidenceTask, example_id: int) -> CalibrationExample:
    example = CalibrationExample.objects.filter(task=task, is_active=True, pk=example_id).first()
    if example is None:
        raise NotFound(_("그런 연습 예시는 없습니다."))
    return example


def practice_review_of(user: User, example: CalibrationExample) -> CalibrationReview | None:
    return CalibrationReview.objects.filter(example=example, reviewer=user).first()


@dataclass
class CalibrationLine:
    """One criterion of a practice review beside the reference: the learner's level, the reference's, and why."""

    title: str
    mine: str
    reference: str
    why: str

    @property
    def agrees(self) -> bool:
        return self.mine == self.reference


def level_label(criterion: dict, level: str) -> str:
    labels = {lv["key"]: lv["label"] for lv in criterion["levels"]} | {INSUFFICIENT: _("근거 부족 / 보류")}
    return labels.get(level, "-")


def calibration_comparison(practice: CalibrationReview) -> list[CalibrationLine]:
    example = practice.example
    return [CalibrationLine(title=c["title"], mine=level_label(c, practice.judgements.get(c["key"], "")),
                            reference=level_label(c, example.reference.get(c["key"], "")),
                            why=example.reasons.get(c["key"], ""))
            for c in example.rubric_version.criteria]
