"""Make a new seal key current and keep the old ones for verifying what they sealed."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tutor import keys


class Command(BaseCommand):
    help = "새 봉인 키를 만들어 맨 앞(봉인에 쓰는 키)에 두고, 예전 키는 확인용으로 남깁니다."

    def handle(self, *args: Any, **options: Any) -> None:
        current = tuple(settings.SEAL_KEYS)
        fresh = keys.new_seal_key(taken=current)
        if os.environ.get("SEAL_KEYS"):
            self.stdout.write("SEAL_KEYS가 환경 변수로 정해져 있어 파일을 고치지 않습니다. 이 항목을 맨 앞에 넣으세요:")
            self.stdout.write(f"{fresh.key_id}:{fresh.secret}")
            return
        keys.write_seal_key_file(settings.SEAL_KEYS_FILE, (fresh, *current))
        self.stdout.write(f"새 봉인 키 {fresh.key_id}를 {settings.SEAL_KEYS_FILE}에 넣었습니다 "
                          f"(예전 키 {len(current)}개는 확인용으로 남김). 사이트와 워커를 다시 시작하세요; "
                          "예전 키의 실행 기록을 새 키로 다시 봉인하려면: manage.py verify_records --reseal")
