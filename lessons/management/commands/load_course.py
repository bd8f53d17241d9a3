"""Load lesson folders into the database, idempotently (see ``lessons.services.load_course``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons.content import ContentError
from lessons.services import load_course


class Command(BaseCommand):
    help = "레슨 폴더를 읽어 데이터베이스에 반영합니다. 두 번 실행해도 바뀌는 것이 없습니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--content-dir", type=Path, default=settings.CONTENT_DIR)

    def handle(self, *args: Any, content_dir: Path, verbosity: int = 1, **options: Any) -> None:
        try:
            report = load_course(content_dir=content_dir)
        except ContentError as exc:
            raise CommandError(str(exc)) from exc
        if verbosity < 1:
            return
        lines = [
            ("새 레슨", report.created),
            ("새 판", report.new_versions),
            ("게시", report.published),
            ("게시 중단", report.unpublished),
            ("가상 자료 새 판", report.fixtures_changed),
            ("관리자 수정본을 지킨 가상 자료 (파일 변경 미반영)", report.fixtures_kept),
        ]
        for label, items in lines:
            if items:
                self.stdout.write(f"{label}: {', '.join(items)}")
        for line in report.extensions:
            self.stdout.write(line)
        if not report.changed:
            self.stdout.write(f"바뀐 것 없음 (레슨 {len(report.unchanged)}개 그대로)")
