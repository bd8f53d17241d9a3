"""Check the seal of every run record and print each one that does not verify; exit 1 if any."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from exercises.labs import records
from exercises.labs.models import LabRun
from tutor import audit, keys
from tutor.models import IntegrityCheck


class Command(BaseCommand):
    help = "모든 실행 기록의 봉인을 확인하고, 맞지 않는 기록을 출력합니다."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reseal", action="store_true",
                            help="예전 키로 봉인되어 아직 맞는 기록만 지금 키로 다시 봉인합니다 (키 교체 뒤).")

    def handle(self, *args: Any, reseal: bool = False, **options: Any) -> None:
        problems: list[str] = []
        checked = resealed = 0
        current = keys.current_key().key_id
        # Every row, whatever its status: a finished run set back to "queued" must not slip past as in flight.
        for run in LabRun.objects.select_related("lab").order_by("pk").iterator():
            checked += 1
            check = records.check_seal(run)
            if check.verified or (check.state == "pending" and not run.is_finished):
                if reseal and check.verified and run.seal_key_id != current:
                    records.seal(run)
                    run.save(update_fields=["seal", "seal_key_id", "seal_digests"])
                    resealed += 1
                continue
            problems.append(f"run {run.pk} ({run.lab.slug}, {run.status}): {check.state} — {check.message}")
        if reseal:
            if records.reseal_epoch():
                self.stdout.write(f"키 봉인 시작점을 지금 키 {current}로 다시 봉인했습니다.")
            self.stdout.write(f"지금 키 {current}로 다시 봉인: {resealed}건 (맞지 않는 기록은 그대로 둠)")
        audit.save_check(kind=IntegrityCheck.Kind.RECORDS, checked=checked, problems=problems)
        for line in problems:
            self.stdout.write(f"BREAK {line}")
        if problems:
            raise CommandError(f"실행 기록 {checked}건 중 봉인이 맞지 않는 기록 {len(problems)}건")
        self.stdout.write(f"실행 기록 {checked}건: 모두 봉인과 맞음")
