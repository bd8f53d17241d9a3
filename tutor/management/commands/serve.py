"""Run the web server and the task worker together; Ctrl-C stops both."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "웹 서버와 작업 워커를 함께 실행합니다 (Ctrl-C로 둘 다 멈춤)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        manage = [sys.executable, "manage.py"]
        children = [
            subprocess.Popen([*manage, "runserver", "--noreload", f"{host}:{port}"]),
            subprocess.Popen([*manage, "worker"]),
        ]
        self.stdout.write(f"근거 튜터: http://{host}:{port}/  (작업 워커 함께 실행 중, 멈추려면 Ctrl-C)")
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping and all(child.poll() is None for child in children):
                time.sleep(0.2)
        finally:
            for child in children:
                if child.poll() is None:
                    child.terminate()
            for child in children:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
        failed = [c.args[2] for c in children if c.returncode not in (0, None, -signal.SIGTERM, -signal.SIGINT)]
        if failed and not stopping:
            self.stderr.write(f"멈춘 프로세스: {', '.join(failed)}")
            sys.exit(1)
