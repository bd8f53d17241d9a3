"""Run the hostile-program catalogue; exit non-zero if any program is not contained."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from exercises.labs import conf
from exercises.labs.execution import record_sandbox_health
from exercises.labs.sandbox.runner import enforcement
from exercises.labs.sandbox.selftest import run_selftest


class Command(BaseCommand):
    help = "적대적 프로그램 목록으로 샌드박스를 점검합니다. 하나라도 새면 0이 아닌 코드로 끝납니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--record", action="store_true", help="결과를 저장해 웹이 실습을 허용/거부하게 합니다.")

    def handle(self, *args: Any, record: bool, **options: Any) -> None:
        if record:
            health = record_sandbox_health()
            verdicts = [(d["name"], d["contained"], d.get("accepted_risk", False), d["status"], d["note"])
                        for d in health.detail]
            bounded_by = health.enforcement
        else:
            config = conf.sandbox_config()
            verdicts = [(v.name, v.contained, v.accepted_risk, v.status, v.note) for v in run_selftest(config)]
            bounded_by = enforcement(config)[1]
        self.stdout.write(f"제한 방식: {bounded_by}")
        for name, contained, risk, status, note in verdicts:
            mark = "ok  " if contained else ("RISK" if risk else "FAIL")
            self.stdout.write(f"{mark} {name:24} {status}{'  ' + note if note and not contained else ''}")
        failed = [name for name, contained, risk, _, _ in verdicts if not contained and not risk]
        if failed or not verdicts:
            self.stderr.write(f"샌드박스 점검 실패: {', '.join(failed) or '실행 안 됨'}")
            sys.exit(1)
        risks = [name for name, contained, risk, _, _ in verdicts if risk]
        if risks:
            self.stdout.write(f"샌드박스 점검 통과: {len(verdicts) - len(risks)}개 격리됨, "
                              f"{len(risks)}개는 cgroup이 없어 알려진 위험으로 남음 ({', '.join(risks)})")
        else:
            self.stdout.write(f"샌드박스 점검 통과: {len(verdicts)}개 모두 격리됨")
