"""Check the seal of every finished run record and print each one that no longer verifies; exit 1 if any."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from exercises.labs import records
from exercises.labs.models import LabRun
from tutor import audit
from tutor.models import IntegrityCheck


class Command(BaseCommand):
    help = "끝난 실행 기록의 봉인을 모두 확인하고, 맞지 않는 기록을 출력합니다."

    def handle(self, *args: Any, **options: Any) -> None:
        problems: list[str] = []
        checked = 0
        for run in LabRun.objects.filter(status__in=LabRun.FINISHED).select_related("lab").order_by("pk").iterator():
            checked += 1
            check = records.check_seal(run)
            if not check.verified:
                problems.append(f"run {run.pk} ({run.lab.slug}): {check.state} — {check.message}")
        audit.save_check(kind=IntegrityCheck.Kind.RECORDS, checked=checked, problems=problems)
        for line in problems:
            self.stdout.write(f"BREAK {line}")
        if problems:
            raise CommandError(f"실행 기록 {checked}건 중 봉인이 맞지 않는 기록 {len(problems)}건")
        self.stdout.write(f"실행 기록 {checked}건: 모두 봉인과 맞음")
