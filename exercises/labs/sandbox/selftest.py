"""A catalogue of hostile programs and what containment means for each.

``manage.py sandbox_selftest`` runs it, and the worker runs it at start:
if any program is not contained, labs are refused until it passes.
``tests/security`` runs the same catalogue, one test per program.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from . import slots
from .limits import Limits, SandboxConfig
from .runner import RunResult, run_python
from .slots import processes_of

SECRET_MARKERS = ("root:x:0:0", "SECRET_KEY", "DATABASE_URL", "tutor.sqlite3")


@dataclass(frozen=True)
class Hostile:
    name: str
    code: str
    contained: Callable[[RunResult], bool]
    files: tuple[tuple[str, bytes], ...] = ()


def _leaks_nothing(result: RunResult) -> bool:
    text = result.stdout + result.stderr
    return not any(marker in text for marker in SECRET_MARKERS)


def _ends_with(*names: str) -> Callable[[RunResult], bool]:
    def check(result: RunResult) -> bool:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        return bool(lines) and lines[-1].split(":")[0] in names and _leaks_nothing(result)
    return check


def _stdout_is(expected: str) -> Callable[[RunResult], bool]:
    return lambda result: result.status == "ok" and result.stdout.strip() == expected


CATALOGUE: tuple[Hostile, ...] = (
    Hostile("network_public", "import socket\ns = socket.create_connection(('1.1.1.1', 80), timeout=1)\nprint('connected')",
            lambda r: r.status == "error" and "connected" not in r.stdout),
    Hostile("network_raw_socket", "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nprint('socket made')",
            lambda r: r.status == "error" and "socket made" not in r.stdout),
    Hostile("read_etc_passwd", "print(open('/etc/passwd').read())", _ends_with("FileNotFoundError")),
    Hostile("read_project", "import os\nfor p in ('/work', '/root', '/home', '/srv', '/opt', '/var'):\n    print(p, os.path.exists(p))",
            _stdout_is("\n".join(f"{p} False" for p in ("/work", "/root", "/home", "/srv", "/opt", "/var")))),
    Hostile("list_root", "import os\nprint(sorted(os.listdir('/')))",
            _stdout_is(str(sorted(["bin", "dev", "lib", "lib64", "proc", "sandbox", "usr"])))),
    Hostile("write_outside_tmpfs", "open('/usr/evil', 'w').write('x')", _ends_with("OSError", "PermissionError")),
    Hostile("write_root", "open('/evil', 'w').write('x')", _ends_with("OSError", "PermissionError")),
    Hostile("big_file", "f = open('big', 'wb')\nwhile True:\n    f.write(b'x' * 1048576)",
            lambda r: r.status in {"error", "killed"} and r.wall_ms < 4000),
    Hostile("many_files", "import os\nfor i in range(200000):\n    open(f'f{i}', 'w').close()\nprint('done')",
            lambda r: r.status in {"ok", "error", "timeout"}),
    Hostile("memory_bomb", "blocks = []\nwhile True:\n    blocks.append(bytearray(16 * 1048576))", lambda r: r.status == "memory"),
    Hostile("cpu_loop", "while True:\n    pass", lambda r: r.status == "timeout"),
    Hostile("sleep", "import time\ntime.sleep(60)", lambda r: r.status == "timeout"),
    Hostile("fork_bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
            lambda r: r.status in {"timeout", "killed", "error"}),
    Hostile("thread_bomb", "import threading, time\nwhile True:\n    threading.Thread(target=time.sleep, args=(30,)).start()",
            lambda r: r.status in {"error", "memory", "timeout"}),
    Hostile("output_flood", "while True:\n    print('x' * 1000)", lambda r: r.status == "output_limit" and r.truncated),
    Hostile("binary_output", "import sys\nsys.stdout.buffer.write(bytes(range(256)) * 4)",
            lambda r: r.status == "ok" and "\x00" not in r.stdout and "\ufffd" in r.stdout),
    Hostile("environment_dump", "import os\nprint(sorted(os.environ))",
            _stdout_is(str(sorted(["HOME", "LANG", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "TMPDIR"])))),
    Hostile("kill_parent", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('still here')",
            lambda r: r.status in {"ok", "error", "killed"} and _leaks_nothing(r)),
    Hostile("proc_snooping", "import os\npids = [p for p in os.listdir('/proc') if p.isdigit()]\nprint(len(pids) <= 2, open('/proc/1/cmdline').read().count('python'))",
            lambda r: r.status == "ok" and r.stdout.split()[0] == "True" and r.stdout.split()[1] == "1"),
    Hostile("ctypes_segfault", "import ctypes\nctypes.string_at(0)", lambda r: r.status == "killed" and r.signal == 11),
    Hostile("deep_recursion", "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)",
            lambda r: r.status in {"error", "killed", "memory", "timeout"}),
    Hostile("descriptor_exhaustion", "import os\nfds = [os.open('/dev/null', os.O_RDONLY) for _ in range(100000)]",
            _ends_with("OSError")),
    Hostile("raise_limit", "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_NPROC)\nresource.setrlimit(resource.RLIMIT_NPROC, (hard + 100, hard + 100))\nprint('raised')",
            lambda r: r.status == "error" and "raised" not in r.stdout),
    Hostile("orphan_daemon", "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n    os._exit(0)\nprint('parent done')",
            lambda r: r.status == "ok" and r.wall_ms < 3000),
    Hostile("ptrace", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.ptrace(16, 1, 0, 0), ctypes.get_errno())",
            _stdout_is("-1 1")),
    Hostile("unshare", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.unshare(0x10000000), ctypes.get_errno())",
            _stdout_is("-1 1")),
    Hostile("keyctl", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.syscall(250, 0, 0, 0, 0, 0), ctypes.get_errno())",
            _stdout_is("-1 1")),
    Hostile("planted_symlink", "import os\nos.symlink('/etc/shadow', 'shadow')\nos.symlink('/proc/1/root/etc/passwd', 'pw')\nfor name in ('shadow', 'pw'):\n    try:\n        print(open(name).read()[:20])\n    except OSError as exc:\n        print(type(exc).__name__)",
            lambda r: r.status == "ok" and _leaks_nothing(r) and "root:" not in r.stdout),
    Hostile("read_stdin", "import sys\nprint(repr(sys.stdin.read()))", _stdout_is("''")),
    Hostile("fixture_is_read_only", "print(open('data.txt').read().strip())\nopen('data.txt', 'w').write('changed')",
            lambda r: r.stdout.strip() == "가상 자료" and r.status == "error", files=(("data.txt", "가상 자료\n".encode()),)),
)

# Small limits keep the self-test quick; containment does not depend on their size.
SELFTEST_LIMITS = Limits(cpu_seconds=1, wall_seconds=2.0)


@dataclass(frozen=True)
class Verdict:
    name: str
    contained: bool
    status: str
    note: str


def check_one(hostile: Hostile, *, limits: Limits, config: SandboxConfig) -> Verdict:
    try:
        result = run_python(hostile.code, files=dict(hostile.files), limits=limits, config=config)
    except Exception as exc:  # a runner fault is a failed check, never a crashed worker
        return Verdict(hostile.name, False, "error", f"{type(exc).__name__}: {exc}")
    if result.status == "refused":
        return Verdict(hostile.name, False, result.status, result.stderr[:200])
    contained = hostile.contained(result)
    return Verdict(hostile.name, contained, result.status, "" if contained else (result.stdout + result.stderr)[-300:])


def run_selftest(config: SandboxConfig, *, limits: Limits = SELFTEST_LIMITS) -> list[Verdict]:
    """Run the catalogue (in parallel, one slot each) and then check that no run left a process behind."""
    with ThreadPoolExecutor(max_workers=max(1, min(config.slots, os.cpu_count() or 1) * 2)) as pool:
        verdicts = list(pool.map(lambda h: check_one(h, limits=limits, config=config), CATALOGUE))
    if os.geteuid() == 0:
        leftover = leftover_processes(config)
        verdicts.append(Verdict("no_process_left", not leftover, "ok" if not leftover else "error",
                                f"남은 프로세스: {leftover}" if leftover else ""))
    return verdicts


def leftover_processes(config: SandboxConfig) -> list[int]:
    """Processes of slot users while no run holds their slot: anything found outlived its run.

    Each slot is taken in turn, so runs of other workers sharing the host are
    waited for rather than mistaken for leftovers.
    """
    found = []
    for slot in range(config.slots):
        with slots.hold(config, slot):
            found += processes_of(config.slot_uid_base + slot)
    return found

