"""Send every queued message now, without the task worker (the same once-only claim)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tutor.mail import services


class Command(BaseCommand):
    help = "쌓인 메일을 지금 보냅니다 (워커와 같은 방식으로 한 번만)."

    def handle(self, *args: Any, **options: Any) -> None:
        sent = services.send_queued()
        self.stdout.write(f"보낸 메일: {sent}통")
