"""The ``lab_run`` command-line contract, which tests outside the project rely on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

KEYS = {"status", "exit_code", "signal", "stdout", "stderr", "wall_ms", "cpu_ms", "truncated"}


def lab_run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "lab_run", *args], cwd=settings.BASE_DIR,
                          capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})


def test_json_output_with_files_and_stdin(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text("import sys\nprint(open('notice.txt').read().strip(), sys.stdin.read().strip())\n", encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "notice.txt").write_text("영업시간 11~18시", encoding="utf-8")
    stdin = tmp_path / "in.txt"
    stdin.write_text("입력", encoding="utf-8")
    done = lab_run(str(program), "--json", "--files", str(data), "--stdin", str(stdin))
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert set(body) == KEYS
    assert body["status"] == "ok" and body["exit_code"] == 0 and body["signal"] is None
    assert body["stdout"] == "영업시간 11~18시 입력\n" and body["truncated"] is False
    assert isinstance(body["wall_ms"], float) and isinstance(body["cpu_ms"], float)


def test_a_failing_program_still_exits_zero_with_its_status(tmp_path: Path) -> None:
    program = tmp_path / "fail.py"
    program.write_text("raise SystemExit(3)\n")
    done = lab_run(str(program), "--json")
    body = json.loads(done.stdout)
    assert done.returncode == 0 and body["status"] == "error" and body["exit_code"] == 3


def test_timeout_and_output_limit_statuses(tmp_path: Path) -> None:
    loop = tmp_path / "loop.py"
    loop.write_text("import time\ntime.sleep(30)\n")
    assert json.loads(lab_run(str(loop), "--json", env={"LAB_WALL_SECONDS": "1"}).stdout)["status"] == "timeout"
    flood = tmp_path / "flood.py"
    flood.write_text("while True:\n    print('x' * 999)\n")
    body = json.loads(lab_run(str(flood), "--json").stdout)
    assert body["status"] == "output_limit" and body["truncated"] is True and len(body["stdout"]) <= 64 * 1024


def test_refused_when_the_sandbox_cannot_isolate(tmp_path: Path) -> None:
    program = tmp_path / "p.py"
    marker = tmp_path / "ran"
    program.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    done = lab_run(str(program), "--json", env={"LAB_SANDBOX_BWRAP": "/nonexistent/bwrap"})
    body = json.loads(done.stdout)
    assert done.returncode == 0 and body["status"] == "refused" and body["exit_code"] is None
    assert not marker.exists()


def test_sandbox_selftest_passes() -> None:
    done = subprocess.run([sys.executable, "manage.py", "sandbox_selftest"], cwd=settings.BASE_DIR,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout


def test_plain_output_shows_controls_as_visible_marks(tmp_path: Path) -> None:
    """A program cannot drive the operator's terminal: ESC, BEL, bidi and zero-width arrive as marks."""
    program = tmp_path / "esc.py"
    program.write_text("print('\\x1b[2J\\x1b]0;title\\x07 \\u202eabc\\u200b')\n", encoding="utf-8")
    done = lab_run(str(program))
    assert done.returncode == 0, done.stderr
    assert not any(c in done.stdout for c in "\x1b\x07\u202e\u200b")
    assert "\u241b[2J\u241b]0;title\u2407 <U+202E>abc<U+200B>" in done.stdout
    status_line = done.stdout.splitlines()[-1]
    assert status_line.startswith("[ok] exit=0") and "peak=" in status_line
