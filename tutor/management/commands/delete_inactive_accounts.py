"""Retention: delete the accounts nobody signed in to for INACTIVE_ACCOUNT_DELETE_DAYS days (run daily)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tutor.accounts import services


class Command(BaseCommand):
    help = "INACTIVE_ACCOUNT_DELETE_DAYS일 동안 로그인하지 않은 계정을 삭제(익명화)합니다. 0이면 아무것도 하지 않습니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="지울 계정 수만 보여 줍니다.")

    def handle(self, *args: Any, dry_run: bool, **options: Any) -> None:
        days = settings.INACTIVE_ACCOUNT_DELETE_DAYS
        if days <= 0:
            self.stdout.write("INACTIVE_ACCOUNT_DELETE_DAYS가 0이라 보존 기간 삭제는 꺼져 있습니다.")
            return
        if dry_run:
            self.stdout.write(f"{days}일 동안 로그인 없는 계정: {len(services.inactive_accounts())}개 (지우지 않음)")
            return
        deleted = services.delete_inactive_accounts()
        self.stdout.write(f"{days}일 동안 로그인 없는 계정 {len(deleted)}개를 삭제했습니다.")
