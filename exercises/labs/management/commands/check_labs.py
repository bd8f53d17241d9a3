"""Run every lab's reference solution and injected failure through the sandbox; one line per lab.

Each line ends with ``mutants caught: k/n``: how many of the lab's wrong solutions
(``labs/<lab>/mutants/*.yaml``, changes applied to the reference) fail its checked run, inject or extend step. A lab fails
when its reference fails, when it has fewer than three mutants, or when it
catches fewer than two of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from exercises.labs import conf
from exercises.labs.sandbox.runner import sandbox_problem
from exercises.labs.verification import lab_folders, verify_lab, verify_mutants
from lessons.content import ContentError

MIN_CAUGHT = 2
MIN_MUTANTS = 3


class Command(BaseCommand):
    help = ("모든 실습의 모범 답안과 실패 주입을 실제 샌드박스에서 실행해 단계마다 기대한 결과가 나오는지 "
            "확인하고, 실습마다 한 줄씩 출력합니다. 하나라도 어긋나면 0이 아닌 코드로 끝납니다.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--content-dir", type=Path, default=None, help="레슨 폴더들이 있는 곳 (기본: CONTENT_DIR)")
        parser.add_argument("labs", nargs="*", help="이 실습 슬러그만 확인합니다.")
        parser.add_argument("--no-mutants", action="store_true", help="틀린 답(mutants/)은 돌리지 않습니다.")
        parser.add_argument("--workers", type=int, default=2, help="틀린 답을 동시에 돌릴 샌드박스 수 (기본 2)")

    def handle(self, *args: Any, content_dir: Path | None, labs: list[str], no_mutants: bool = False,
               workers: int = 2, **options: Any) -> None:
        problem = sandbox_problem(conf.sandbox_config())
        if problem:
            raise CommandError(f"샌드박스를 쓸 수 없어 확인하지 못했습니다: {problem}")
        folders = [f for f in lab_folders(content_dir or settings.CONTENT_DIR) if not labs or f.name in labs]
        if labs and {f.name for f in folders} != set(labs):
            raise CommandError(f"없는 실습: {', '.join(sorted(set(labs) - {f.name for f in folders}))}")
        failed = 0
        for folder in folders:
            try:
                verdict = verify_lab(folder)
            except (ContentError, KeyError, OSError, yaml.YAMLError) as exc:
                failed += 1
                self.stdout.write(f"실패  {folder.parent.parent.name}/{folder.name}  읽을 수 없음: {exc}")
                continue
            line, ok = verdict.line(), verdict.passed
            if not no_mutants:
                mutants = verify_mutants(folder, workers=workers)
                caught = sum(m.caught for m in mutants)
                line += f"  mutants caught: {caught}/{len(mutants)}"
                missed = [m.name + (f"[{m.problem}]" if m.problem else "") for m in mutants if not m.caught]
                if missed:
                    line += f" (놓침: {', '.join(missed)})"
                if len(mutants) < MIN_MUTANTS or caught < MIN_CAUGHT:
                    ok = False
                    if line.startswith("통과"):
                        line = "실패" + line[2:]
            failed += not ok
            self.stdout.write(line)
        self.stdout.write(f"실습 {len(folders)}개 중 {len(folders) - failed}개 통과")
        if failed:
            raise CommandError(f"실습 {failed}개가 기대한 결과를 내지 않았습니다.")
