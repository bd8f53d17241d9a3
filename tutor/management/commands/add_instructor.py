"""Create an instructor account and mail it an invitation to set its password."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutor.cohorts import services
from tutor.errors import TutorError


class Command(BaseCommand):
    help = "강사 계정을 만들고 비밀번호를 정하는 초대 메일을 보냅니다. 강사는 로그인한 뒤 기수를 만듭니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="강사의 이메일 주소 (초대 메일이 갑니다)")
        parser.add_argument("--name", required=True, help="강사 이름 (예: 김강사)")
        parser.add_argument("--site-url", default="", help="메일 속 링크의 주소 (기본: SITE_URL 설정)")

    def handle(self, *args: Any, email: str, name: str, site_url: str, **options: Any) -> None:
        try:
            user, invitation = services.add_instructor_account(email=email, name=name, base_url=site_url)
        except TutorError as exc:
            raise CommandError(exc.detail) from exc
        self.stdout.write(f"강사 계정 {user.username} 을(를) 만들고 {email} 로 초대 메일을 보냈습니다 "
                          f"(링크는 {invitation.expires_at:%Y-%m-%d %H:%M}까지). "
                          "메일은 작업자(manage.py worker)가 보냅니다. EMAIL_HOST가 없으면 var/mail/ 에 .eml 로 남습니다.")
