"""What the labs app holds about a person (tutor.accounts.registry): their lab runs."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import models
from django.db.models import F

from tutor.accounts.registry import RecordKind, Row, delete_rows, register

from .models import LabRun


def run_rows(user: User) -> Sequence[Row]:
    return list(LabRun.objects.filter(user=user).order_by("created_at", "pk").values(
        "id", "step", "purpose", "prediction", "code", "stdin", "status", "exit_code", "stdout", "stderr",
        "truncated", "check_results", "failure_reason", "lab_version", "fixture_versions", "created_at",
        "finished_at", lab_slug=F("lab__slug")))


def erase_runs(user: User) -> int:
    """Delete the person's runs, except those a record that stays points at (a reproduction they made
    of a peer's run is their act for that peer, like a review, and keeps its run).

    Found through every protecting link to ``LabRun``, so this app need not know who points at runs.
    """
    runs = LabRun.objects.filter(user=user)
    kept: set[int] = set()
    for relation in LabRun._meta.related_objects:
        if relation.many_to_many or relation.on_delete is not models.PROTECT:
            continue
        field = relation.field
        kept.update(field.model._default_manager.filter(**{f"{field.name}__in": runs})
                    .values_list(field.attname, flat=True))
    return delete_rows(runs.exclude(pk__in=kept))


register(RecordKind(name="lab_runs", title="실습 실행 기록 (코드와 출력)", rows=run_rows,
                    links=("labs.LabRun.user",), erase=erase_runs, order=30))
