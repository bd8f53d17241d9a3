"""Check the seal of every finished run record and print each one that no longer verifies; exit 1 if any."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from exercises.labs import records
from exercises.labs.models import LabRun
from tutor import audit, keys
from tutor.models import IntegrityCheck


class Command(BaseCommand):
    help = "끝난 실행 기록의 봉인을 모두 확인하고, 맞지 않는 기록을 출력합니다."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reseal", action="store_true",
                            help="예전 키로 봉인되어 아직 맞는 기록만 지금 키로 다시 봉인합니다 (키 교체 뒤).")

    def handle(self, *args: Any, reseal: bool = False, **options: Any) -> None:
        problems: list[str] = []
        checked = resealed = 0
        current = keys.current_key().key_id
        for run in LabRun.objects.filter(status__in=LabRun.FINISHED).select_related("lab").order_by("pk").iterator():
            checked += 1
            check = records.check_seal(run)
            if not check.verified:
                problems.append(f"run {run.pk} ({run.lab.slug}): {check.state} — {check.message}")
            elif reseal and run.seal_key_id != current:
                records.seal(run)
                run.save(update_fields=["seal", "seal_key_id", "seal_digests"])
                resealed += 1
        if reseal:
            self.stdout.write(f"지금 키 {current}로 다시 봉인: {resealed}건 (맞지 않는 기록은 그대로 둠)")
        audit.save_check(kind=IntegrityCheck.Kind.RECORDS, checked=checked, problems=problems)
        for line in problems:
            self.stdout.write(f"BREAK {line}")
        if problems:
            raise CommandError(f"실행 기록 {checked}건 중 봉인이 맞지 않는 기록 {len(problems)}건")
        self.stdout.write(f"실행 기록 {checked}건: 모두 봉인과 맞음")
