"""Run the production web server (gunicorn) and the task workers together; Ctrl-C stops all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "gunicorn 웹 서버와 작업 워커를 함께 실행합니다 (Ctrl-C로 모두 멈춤)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=settings.TASK_WORKERS,
                            help="작업 워커 프로세스 수 (기본 2, TASK_WORKERS)")

    def handle(self, *args: Any, host: str, port: int, workers: int, **options: Any) -> None:
        if settings.DEBUG:
            self.stderr.write("DEBUG가 켜진 설정입니다. 개발 서버는 `make dev`로 실행하세요.")
        env = {**os.environ, "GUNICORN_BIND": f"{host}:{port}"}
        conf = Path(__file__).resolve().parents[2] / "gunicorn_conf.py"
        manage = [sys.executable, "manage.py"]
        children = [subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(conf)], env=env)]
        children += [subprocess.Popen([*manage, "worker"], env=env) for _ in range(max(0, workers))]
        self.stdout.write(f"근거 튜터: http://{host}:{port}/  (gunicorn, 작업 워커 {workers}개, 멈추려면 Ctrl-C)")
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
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()
        names = ["gunicorn"] + [f"worker {n + 1}" for n in range(len(children) - 1)]
        failed = [name for name, c in zip(names, children, strict=True)
                  if c.returncode not in (0, None, -signal.SIGTERM, -signal.SIGINT)]
        if failed and not stopping:
            self.stderr.write(f"멈춘 프로세스: {', '.join(failed)}")
            sys.exit(1)
