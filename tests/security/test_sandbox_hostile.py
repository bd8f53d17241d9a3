"""Hostile programs against the lab sandbox: each must be contained, and nothing may leak or linger."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from django.conf import settings

from exercises.labs import conf
from exercises.labs.sandbox import Limits, run_python
from exercises.labs.sandbox.selftest import (
    CATALOGUE,
    SELFTEST_LIMITS,
    Hostile,
    check_one,
    check_planted_links,
)

# Only a per-run cgroup can contain these; in the rlimit fallback they are stated risks.
CGROUP_ONLY = {h.name for h in CATALOGUE if h.needs_cgroup}
# Only a root runner can contain these (a time namespace, its own device nodes); as nobody, stated risks.
ROOT_ONLY = {h.name for h in CATALOGUE if h.needs_root}



@pytest.mark.parametrize("hostile", CATALOGUE, ids=lambda h: h.name)
def test_hostile_program_is_contained(hostile: Hostile) -> None:
    """With this host's full enforcement (as root here: slot users and per-run cgroups), every program is contained."""
    verdict = check_one(hostile, limits=SELFTEST_LIMITS, config=conf.sandbox_config())
    assert verdict.contained, f"{hostile.name}: {verdict.status} {verdict.note}"


@pytest.mark.parametrize("hostile", CATALOGUE, ids=lambda h: h.name)
def test_hostile_program_without_cgroups(hostile: Hostile) -> None:
    """In the rlimit fallback every program is contained, except the cgroup-only ones, which are stated risks."""
    config = dataclasses.replace(conf.sandbox_config(), use_cgroups=False)
    verdict = check_one(hostile, limits=SELFTEST_LIMITS, config=config)
    if hostile.name in CGROUP_ONLY:
        assert verdict.contained or verdict.accepted_risk, f"{hostile.name}: {verdict.status} {verdict.note}"
    else:
        assert verdict.contained, f"{hostile.name}: {verdict.status} {verdict.note}"


def test_planted_links_in_the_state_folder_are_not_followed() -> None:
    verdict = check_planted_links(conf.sandbox_config())
    assert verdict.contained, verdict.note


NOT_ROOT_SCRIPT = """
import json, sys
sys.path[:0] = [sys.argv[1]]
from sandbox import SandboxConfig
from sandbox.runner import enforcement, run_python
from sandbox.selftest import run_selftest
config = SandboxConfig()
sample = run_python("import os\\nprint(os.getuid())").details()
verdicts = [dict(name=v.name, contained=v.contained, risk=v.accepted_risk, status=v.status, note=v.note)
            for v in run_selftest(config)]
print(json.dumps({"enforcement": enforcement(config)[1], "sample": sample, "verdicts": verdicts}))
"""


@pytest.fixture(scope="module")
def selftest_as_nobody() -> dict:
    """Run the whole self-test as the unprivileged user ``nobody``, where the rlimit fallback applies.

    The sandbox package (which needs no Django) and pyseccomp are copied to a
    folder ``nobody`` can read, and run with the system interpreter.
    """
    if os.geteuid() != 0:
        pytest.skip("dropping to nobody needs root; an unprivileged suite already runs the fallback")
    import pyseccomp

    scratch = Path(tempfile.mkdtemp(prefix="geungeo-nobody-"))
    try:
        scratch.chmod(0o755)
        shutil.copytree(Path(settings.BASE_DIR) / "exercises" / "labs" / "sandbox", scratch / "sandbox",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(pyseccomp.__file__, scratch / "pyseccomp.py")
        for path in [scratch, *scratch.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        done = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
             "/usr/bin/python3", "-I", "-c", NOT_ROOT_SCRIPT, str(scratch)],
            capture_output=True, text=True, timeout=300, cwd="/", check=False,
            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"},
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    finally:
        shutil.rmtree(scratch)


def test_as_nobody_the_fallback_is_stated(selftest_as_nobody: dict) -> None:
    assert "cgroup 없음" in selftest_as_nobody["enforcement"] and "root가 아니어서" in selftest_as_nobody["enforcement"]
    sample = selftest_as_nobody["sample"]
    assert sample["status"] == "ok" and sample["accounting"] == "rlimit" and sample["peak_memory_bytes"] is None


@pytest.mark.parametrize("name", [h.name for h in CATALOGUE] + ["planted_state_links"])
def test_as_nobody_each_class_is_contained_or_a_stated_risk(selftest_as_nobody: dict, name: str) -> None:
    verdict = next(v for v in selftest_as_nobody["verdicts"] if v["name"] == name)
    if name in CGROUP_ONLY | ROOT_ONLY:
        assert verdict["contained"] or verdict["risk"], verdict
    else:
        assert verdict["contained"], verdict


def test_as_nobody_memfd_and_sysv_ipc_are_refused(selftest_as_nobody: dict) -> None:
    """Without a cgroup nothing counts their pages, so the filter refuses them."""
    statuses = {v["name"]: v for v in selftest_as_nobody["verdicts"]}
    assert statuses["memfd"]["contained"] and statuses["sysv_shm"]["contained"]


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
    """Invalid UTF-8 becomes U+FFFD and a NUL byte the visible mark ␀; neither reaches the record raw."""
    result = run("import sys\nsys.stdout.buffer.write(b'ok \\xff\\xfe \\x00 end')")
    assert result.status == "ok" and result.stdout == "ok \ufffd\ufffd \u2400 end"


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
