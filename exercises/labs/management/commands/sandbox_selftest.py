"""Run the hostile-program catalogue; exit non-zero if any program is not contained."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from exercises.labs import conf
from exercises.labs.sandbox.selftest import run_selftest
from exercises.labs.services import record_sandbox_health


class Command(BaseCommand):
    help = "적대적 프로그램 목록으로 샌드박스를 점검합니다. 하나라도 새면 0이 아닌 코드로 끝납니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--record", action="store_true", help="결과를 저장해 웹이 실습을 허용/거부하게 합니다.")

    def handle(self, *args: Any, record: bool, **options: Any) -> None:
        if record:
            health = record_sandbox_health()
            verdicts = [(d["name"], d["contained"], d["status"], d["note"]) for d in health.detail]
        else:
            verdicts = [(v.name, v.contained, v.status, v.note) for v in run_selftest(conf.sandbox_config())]
        for name, contained, status, note in verdicts:
            mark = "ok  " if contained else "FAIL"
            self.stdout.write(f"{mark} {name:24} {status}{'  ' + note if note and not contained else ''}")
        failed = [name for name, contained, _, _ in verdicts if not contained]
        if failed or not verdicts:
            self.stderr.write(f"샌드박스 점검 실패: {', '.join(failed) or '실행 안 됨'}")
            sys.exit(1)
        self.stdout.write(f"샌드박스 점검 통과: {len(verdicts)}개 모두 격리됨")
