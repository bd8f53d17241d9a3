"""The site's task worker: check the sandbox, settle runs a dead worker left, then process the queue."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from exercises.labs.sandbox.runner import become_subreaper
from exercises.labs.services import record_sandbox_health, settle_stale_runs


class Command(BaseCommand):
    help = "샌드박스 점검 → 멈춘 실행 정리 → 작업 큐 처리 (db_worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", action="store_true", help="쌓인 작업만 처리하고 끝냅니다.")

    def handle(self, *args: Any, batch: bool, **options: Any) -> None:
        become_subreaper()
        health = record_sandbox_health()
        risks = [item["name"] for item in health.detail if item.get("accepted_risk")]
        if health.ok:
            self.stdout.write(f"샌드박스 점검 통과 ({len(health.detail)}개), {health.interpreter}; "
                              f"제한 방식: {health.enforcement}")
            if risks:
                self.stdout.write(f"cgroup 없이 막지 못하는 위험(알려짐): {', '.join(risks)}")
        else:
            failed = [item["name"] for item in health.detail
                      if not item["contained"] and not item.get("accepted_risk")]
            self.stderr.write(f"샌드박스 점검 실패: {', '.join(failed)}. 실습 실행은 거부됩니다. "
                              f"제한 방식: {health.enforcement}")
        settled = settle_stale_runs()
        if settled:
            self.stdout.write(f"멈춘 실행 {len(settled)}개를 정리했습니다: {settled}")
        call_command("db_worker", interval=settings.LAB_WORKER_POLL_SECONDS, batch=batch,
                     startup_delay=False, reload=False, queue_name="default")
