"""Schedules of evidence tasks per cohort (opens, due, peer review due) and per-learner extensions.

Reads and writes of the schedule live here as peer leases live in ``peer.py``:
the file's defaults (``evidence.yaml``) hold until a cohort's instructors set
their own; an extension moves one learner's due time, with a reason, audited.
A submission after its due time is accepted and marked late (``Submission.due_at``
keeps the due time that held); before the opening the task is readable, not submittable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access, audit
from tutor.errors import NotFound, TutorError
from tutor.models import Cohort, members_of

from .models import CohortTaskSetting, EvidenceTask, Extension, TaskSchedule


@dataclass(frozen=True)
class Dates:
    """The times that hold for one learner (or a whole cohort) and one task; ``None`` is "no limit"."""

    opens_at: datetime | None
    due_at: datetime | None
    peer_due_at: datetime | None
    extended: bool = False

    def is_open(self, now: datetime) -> bool:
        return self.opens_at is None or self.opens_at <= now


def defaults_of(task: EvidenceTask) -> Dates:
    return Dates(task.default_opens_at, task.default_due_at, task.default_peer_due_at)


def cohort_dates(cohort: Cohort | None, task: EvidenceTask) -> Dates:
    if cohort is None:
        return defaults_of(task)
    row = TaskSchedule.objects.filter(cohort=cohort, task=task).first()
    return Dates(row.opens_at, row.due_at, row.peer_due_at) if row else defaults_of(task)


def learner_cohort(learner: User) -> Cohort | None:
    """The cohort whose schedule holds for a learner: the first they attend."""
    return Cohort.objects.attended_by(learner).order_by("pk").first()


def dates_for(learner: User, task: EvidenceTask) -> Dates:
    """The times that hold for this learner: their cohort's schedule, with their own extension."""
    cohort = learner_cohort(learner)
    dates = cohort_dates(cohort, task)
    extension = Extension.objects.filter(cohort=cohort, task=task, learner=learner).first() if cohort else None
    if extension is not None:
        return Dates(dates.opens_at, extension.due_at, dates.peer_due_at, extended=True)
    return dates


def dates_table(cohorts: Iterable[int], tasks: Iterable[EvidenceTask]) -> dict[tuple[int, int], Dates]:
    """(cohort id, task id) → cohort dates for lists, in one query."""
    tasks, cohort_ids = list(tasks), set(cohorts)
    rows = {(row.cohort_id, row.task_id): row
            for row in TaskSchedule.objects.filter(cohort_id__in=cohort_ids, task__in=tasks)}
    table = {}
    for cohort_id in cohort_ids:
        for task in tasks:
            row = rows.get((cohort_id, task.pk))
            table[(cohort_id, task.pk)] = (Dates(row.opens_at, row.due_at, row.peer_due_at) if row
                                           else defaults_of(task))
    return table


def extensions_table(cohorts: Iterable[int]) -> dict[tuple[int, int, int], datetime]:
    """(cohort id, task id, learner id) → extended due time, in one query."""
    return {(e.cohort_id, e.task_id, e.learner_id): e.due_at
            for e in Extension.objects.filter(cohort_id__in=list(cohorts))}


def late_label(late_by: timedelta | None) -> str:
    """"기한 후 제출 (2시간 5분 늦음)" or ""."""
    if late_by is None:
        return ""
    minutes = int(late_by.total_seconds() // 60)
    days, rest = divmod(minutes, 60 * 24)
    hours, mins = divmod(rest, 60)
    parts = [f"{days}일"] if days else []
    parts += [f"{hours}시간"] if hours else []
    parts += [f"{mins}분"] if mins or not parts else []
    return _("기한 후 제출 (%(late)s 늦음)") % {"late": " ".join(parts)}


def local_text(value: datetime | None) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else ""


def peer_minimum_of(cohort: Cohort, task: EvidenceTask) -> int:
    setting = CohortTaskSetting.objects.filter(cohort=cohort, task=task).first()
    return setting.min_peer_reviews if setting else task.default_min_peer_reviews


def too_small(cohort: Cohort, task: EvidenceTask, minimum: int | None = None) -> str:
    """Say why the cohort cannot meet its peer minimum (each learner reviews others, never themselves), or ""."""
    minimum = peer_minimum_of(cohort, task) if minimum is None else minimum
    learners = members_of(cohort).count()
    if minimum and learners - 1 < minimum:
        return _("이 기수의 학습자 %(n)d명으로는 제출마다 동료 검토 %(min)d건을 채울 수 없습니다. "
                 "최소 동료 검토 수를 낮추거나 강사가 직접 검토하세요.") % {"n": learners, "min": minimum}
    return ""


def _check_order(opens_at: datetime | None, due_at: datetime | None, peer_due_at: datetime | None) -> None:
    for value in (opens_at, due_at, peer_due_at):
        if value is not None and timezone.is_naive(value):
            raise TutorError(_("시각에는 시간대가 있어야 합니다 (예: 2027-03-09T23:59+09:00)."))
    if opens_at and due_at and due_at < opens_at:
        raise TutorError(_("제출 마감이 여는 시각보다 앞섭니다."))
    if due_at and peer_due_at and peer_due_at < due_at:
        raise TutorError(_("동료 검토 마감이 제출 마감보다 앞섭니다."))


@dataclass
class ScheduleResult:
    schedule: TaskSchedule
    warnings: list[str]


@transaction.atomic(durable=True)
def set_schedule(*, instructor: User, cohort: Cohort, task: EvidenceTask, opens_at: datetime | None,
                 due_at: datetime | None, peer_due_at: datetime | None) -> ScheduleResult:
    """Set one cohort's times for ``task``; say at once when the cohort is too small for its peer minimum."""
    if not access.may(instructor, access.Perm.CHANGE_SETTINGS, cohort):
        raise NotFound(_("그런 기수는 없습니다."))
    _check_order(opens_at, due_at, peer_due_at)
    row = TaskSchedule.objects.select_for_update().filter(cohort=cohort, task=task).first()
    before = cohort_dates(cohort, task)
    if row is None:
        row = TaskSchedule(cohort=cohort, task=task)
    row.opens_at, row.due_at, row.peer_due_at, row.changed_by = opens_at, due_at, peer_due_at, instructor
    row.save()
    audit.record(actor=instructor, action="schedule.set", target=row,
                 before={"opens_at": local_text(before.opens_at), "due_at": local_text(before.due_at),
                         "peer_due_at": local_text(before.peer_due_at)},
                 after={"opens_at": local_text(opens_at), "due_at": local_text(due_at),
                        "peer_due_at": local_text(peer_due_at)},
                 detail={"cohort": cohort.pk, "task": task.slug})
    warning = too_small(cohort, task)
    return ScheduleResult(row, [warning] if warning else [])


@transaction.atomic(durable=True)
def grant_extension(*, instructor: User, cohort: Cohort, task: EvidenceTask, username: str, due_at: datetime,
                    reason: str) -> Extension:
    """Move one learner's due time for ``task`` in ``cohort``, with a reason; audited, the last grant holds."""
    if not access.may(instructor, access.Perm.CHANGE_SETTINGS, cohort):
        raise NotFound(_("그런 기수는 없습니다."))
    learner = members_of(cohort).filter(username=username).first()
    if learner is None:
        raise NotFound(_("이 기수에 그런 학습자는 없습니다."))
    if timezone.is_naive(due_at):
        raise TutorError(_("시각에는 시간대가 있어야 합니다 (예: 2027-03-09T23:59+09:00)."))
    if not reason.strip():
        raise TutorError(_("연장하는 이유를 적어 주세요."))
    row = Extension.objects.select_for_update().filter(cohort=cohort, task=task, learner=learner).first()
    before = row.due_at if row else cohort_dates(cohort, task).due_at
    if row is None:
        row = Extension(cohort=cohort, task=task, learner=learner)
    row.due_at, row.reason, row.granted_by = due_at, reason.strip()[:1000], instructor
    row.save()
    audit.record(actor=instructor, action="schedule.extension", target=row, reason=row.reason,
                 before={"due_at": local_text(before)}, after={"due_at": local_text(due_at)},
                 detail={"cohort": cohort.pk, "task": task.slug, "learner": learner.pk})
    return row


def refuse_before_opening(author: User, task: EvidenceTask, now: datetime) -> Dates:
    """The dates that hold for ``author``; refuse (with the opening time) a submission before the task opens."""
    dates = dates_for(author, task)
    if not dates.is_open(now):
        raise TutorError(_("이 과제는 %(at)s에 열립니다. 그때부터 제출할 수 있습니다. 쓴 글은 초안으로 남아 있습니다.")
                         % {"at": local_text(dates.opens_at)})
    return dates
