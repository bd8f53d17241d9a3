"""Recompute the audit chain and print each entry where it breaks; exit 1 if any does."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tutor import audit
from tutor.models import IntegrityCheck


class Command(BaseCommand):
    help = "감사 기록의 해시 사슬과 트리거를 확인하고, 끊긴 곳을 출력합니다."

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit.verify_chain()
        audit.save_check(kind=IntegrityCheck.Kind.AUDIT, checked=report.checked, problems=report.problems,
                         head_seq=report.head_seq, head_chain=report.head_chain)
        for line in report.warnings:
            self.stdout.write(f"WARN {line}")
        for line in report.problems:
            self.stdout.write(f"BREAK {line}")
        if not report.ok:
            raise CommandError(f"감사 기록 {report.checked}건 중 문제 {len(report.problems)}건")
        self.stdout.write(f"감사 기록 {report.checked}건: 사슬이 끊긴 곳 없음 (마지막 seq {report.head_seq or '-'})")
