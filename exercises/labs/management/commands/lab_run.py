"""Run a file as a lab program through the same runner and limits as the web path (no queue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exercises.labs import conf
from exercises.labs.sandbox import run_python
from exercises.labs.sandbox.limits import MIB


class Command(BaseCommand):
    help = "FILE을 샌드박스에서 실습 프로그램으로 실행합니다 (--json이면 결과를 JSON 한 개로 출력)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--json", action="store_true", dest="as_json")
        parser.add_argument("--files", type=Path, help="이 폴더의 파일을 읽기 전용으로 옆에 둡니다.")
        parser.add_argument("--stdin", type=Path, help="이 파일을 표준 입력으로 줍니다.")

    def handle(self, *args: Any, file: Path, as_json: bool, files: Path | None, stdin: Path | None,
               **options: Any) -> None:
        try:
            code = file.read_text(encoding="utf-8")
            bound = {p.name: p.read_bytes() for p in sorted(files.iterdir()) if p.is_file()} if files else {}
            stdin_data = stdin.read_bytes() if stdin else None
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"입력 파일을 읽을 수 없습니다: {exc}") from exc
        result = run_python(code, files=bound, stdin=stdin_data, limits=conf.limits(), config=conf.sandbox_config())
        if as_json:
            self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False))
            return
        # The runner has already made every control character visible (␛, <U+202E>, …),
        # so the program cannot drive the operator's terminal.
        self.stdout.write(result.stdout, ending="")
        self.stderr.write(result.stderr, ending="")
        peak = f"{result.peak_memory_bytes / MIB:.1f}MiB" if result.peak_memory_bytes is not None else "-"
        self.stdout.write(f"[{result.status}] exit={result.exit_code} signal={result.signal} "
                          f"wall={result.wall_ms:.0f}ms cpu={result.cpu_ms}ms peak={peak} "
                          f"({result.accounting or '-'}; {result.basis})")
