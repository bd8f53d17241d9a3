"""Hostile programs against the lab sandbox: each must be contained, and nothing may leak or linger."""

from __future__ import annotations

import os
import socket
import threading

import pytest
from django.conf import settings

from exercises.labs import conf
from exercises.labs.sandbox import Limits, run_python
from exercises.labs.sandbox.selftest import CATALOGUE, SELFTEST_LIMITS, Hostile, check_one


@pytest.mark.parametrize("hostile", CATALOGUE, ids=lambda h: h.name)
def test_hostile_program_is_contained(hostile: Hostile) -> None:
    verdict = check_one(hostile, limits=SELFTEST_LIMITS, config=conf.sandbox_config())
    assert verdict.contained, f"{hostile.name}: {verdict.status} {verdict.note}"


def run(code: str, **kwargs: object):
    return run_python(code, limits=kwargs.pop("limits", conf.limits()), config=conf.sandbox_config(), **kwargs)


def test_host_loopback_service_is_unreachable() -> None:
    """A server on the host's 127.0.0.1 gets no connection from inside the sandbox."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(3)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(server.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    result = run(f"import socket\ns = socket.create_connection(('127.0.0.1', {port}), timeout=1)\nprint('connected')")
    thread.join()
    server.close()
    assert result.status == "error" and "connected" not in result.stdout
    assert accepted == []


def test_project_settings_and_database_are_not_visible() -> None:
    paths = [settings.BASE_DIR / "tutor" / "settings" / "base.py", settings.VAR_DIR / "secret_key",
             settings.DATABASES["default"]["NAME"], settings.BASE_DIR / "manage.py"]
    code = "import os\nfor p in %r:\n    print(os.path.exists(p))" % [str(p) for p in paths]
    result = run(code)
    assert result.status == "ok" and result.stdout.split() == ["False"] * len(paths)


def test_fork_bomb_does_not_starve_the_next_runs() -> None:
    bomb = run("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
               limits=Limits(cpu_seconds=1, wall_seconds=1.5))
    assert bomb.status in {"timeout", "killed", "error"}
    for n in range(4):
        result = run(f"import subprocess, sys\nprint(subprocess.run([sys.executable, '-c', 'print({n})'], capture_output=True, text=True).stdout.strip())")
        assert result.status == "ok" and result.stdout.strip() == str(n), result.stderr


def test_child_python_processes_work_within_the_limit() -> None:
    """Labs may start a few child interpreters (the MCP lab does)."""
    code = ("import subprocess, sys\n"
            "procs = [subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(0.2)']) for _ in range(5)]\n"
            "print(sum(p.wait() == 0 for p in procs))")
    result = run(code)
    assert result.status == "ok" and result.stdout.strip() == "5"


def test_stdin_is_passed_when_given() -> None:
    result = run("import sys\nprint(sys.stdin.read().upper())", stdin="안녕 abc".encode())
    assert result.stdout.strip() == "안녕 ABC"


def test_invalid_utf8_output_is_replaced_not_fatal() -> None:
    result = run("import sys\nsys.stdout.buffer.write(b'ok \\xff\\xfe \\x00 end')")
    assert result.status == "ok" and result.stdout == "ok \ufffd\ufffd \ufffd end"


def test_missing_bubblewrap_refuses_instead_of_running_unsandboxed(tmp_path) -> None:
    marker = tmp_path / "ran"
    config = conf.sandbox_config().__class__(bwrap="/nonexistent/bwrap")
    result = run_python(f"open({str(marker)!r}, 'w').write('x')", config=config)
    assert result.status == "refused" and "bubblewrap" in result.stderr
    assert not marker.exists()


def test_file_names_that_escape_the_workdir_are_refused() -> None:
    result = run("print(1)", files={"../evil.txt": b"x"})
    assert result.status == "refused"


@pytest.mark.skipif(os.geteuid() != 0, reason="per-slot users need root")
def test_runs_use_a_slot_user_not_root() -> None:
    result = run("import os\nprint(os.getuid(), os.geteuid())")
    assert result.status == "ok"
    # Inside its user namespace the program is mapped to an unprivileged id.
    assert result.stdout.split() == [result.stdout.split()[0]] * 2 and result.stdout.split()[0] != "0"
