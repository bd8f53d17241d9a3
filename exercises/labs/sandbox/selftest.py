"""A catalogue of hostile programs and what containment means for each.

``manage.py sandbox_selftest`` runs it, and the worker runs it at start:
if any program is not contained, labs are refused until it passes.
``tests/security`` runs the same catalogue, one test per program.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import cgroups, slots
from .limits import MIB, Limits, SandboxConfig
from .runner import RunResult, WarmRuns, enforcement, interpreter, run_python, slot_preparer
from .slots import processes_of
from .warm import Pool

logger = logging.getLogger(__name__)

SECRET_MARKERS = ("root:x:0:0", "SECRET_KEY", "DATABASE_URL", "tutor.sqlite3")


@dataclass(frozen=True)
class Hostile:
    name: str
    code: str
    contained: Callable[[RunResult], bool]
    files: tuple[tuple[str, bytes], ...] = ()
    # Only a per-run cgroup can contain it; without one (the rlimit fallback) it is a stated risk.
    needs_cgroup: bool = False
    # Only a root runner can contain it (a time namespace, private device nodes); else a stated risk.
    needs_root: bool = False


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


def _accounted(result: RunResult) -> bool:
    return result.accounting.startswith("cgroup")


def _stopped_by_rlimit_cpu(result: RunResult) -> bool:
    """Without a cgroup, RLIMIT_CPU stops the loop, but the kernel counts it in scheduler ticks: on a busy host it
    ended a loop at 0.6-0.9 of its exact CPU time, which the runner then names "killed" (SIGKILL) rather than a
    timeout. The loop is contained either way; the name is a known limit of hosts without cgroups (README)."""
    return (not _accounted(result) and result.status == "killed" and result.signal == 9
            and (result.cpu_ms or 0) >= SELFTEST_LIMITS.cpu_seconds * 1000 * 0.5)


def _held_mib(result: RunResult) -> int:
    """The ``held N`` a program printed last (MiB it managed to keep), or a large number if none."""
    for line in reversed(result.stdout.splitlines()):
        if line.startswith("held "):
            return int(line.split()[1])
    return 1 << 20


def _within_memory(result: RunResult) -> bool:
    peak = result.peak_memory_bytes
    return peak is None or peak <= SELFTEST_LIMITS.memory_bytes + 4 * MIB


LIBC = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
# Syscalls newer than the allow-list (numbers shared by every architecture since 5.x):
# cachestat, statmount, listmount, mseal, open_tree_attr, landlock_create_ruleset, io_uring_setup.
NEW_SYSCALLS = (451, 457, 458, 462, 467, 444, 425)
MEMFD = """import os
total = 0
try:
    while total < 1024:
        fd = os.memfd_create('m')
        os.write(fd, b'x' * (4 << 20))
        os.write(fd, b'x' * (4 << 20))
        total += 8
except OSError as exc:
    print('stopped', type(exc).__name__)
print('held', total)"""
SHM = LIBC + """libc.shmat.restype = ctypes.c_void_p
total = 0
for i in range(2048):
    sid = libc.shmget(0, 1 << 20, 0o1600)
    if sid < 0:
        print('refused', ctypes.get_errno())
        break
    addr = libc.shmat(sid, None, 0)
    ctypes.memset(addr, 1, 1 << 20)
    libc.shmdt(ctypes.c_void_p(addr))
    total += 1
print('held', total)"""
FORK_ALLOCATE = """import os, time
kids = []
for i in range(6):
    pid = os.fork()
    if pid == 0:
        block = b'\\x01' * (200 << 20)
        os.write(1, b'allocated\\n')
        time.sleep(1)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
print('done')"""
FORK_BURN = """import os, time
for i in range(6):
    if os.fork() == 0:
        while True:
            pass
time.sleep(30)"""
FORGE_STATUS = """import os
try:
    for name in os.listdir('/proc/1/fd'):
        try:
            fd = os.open('/proc/1/fd/' + name, os.O_WRONLY)
            os.write(fd, b'0\\n')
            print('wrote', name)
        except OSError:
            pass
except OSError as exc:
    print(type(exc).__name__)
raise SystemExit(3)"""
HOST_FILES = ("cmdline", "meminfo", "loadavg", "uptime", "stat", "cpuinfo", "swaps")
# Each line: "<what> allowed|refused <errno name>"; the program tries each and carries on.
PROBE = """import errno, os
def attempt(what, action):
    try:
        action()
        print(what, 'allowed')
    except OSError as exc:
        print(what, 'refused', errno.errorcode.get(exc.errno, exc.errno))
"""
# Evict a page of a shared file from the cache, then ask without waiting whether it is back: another run
# or the host read it. Both halves must be refused; plain reads and other advice still work.
PAGE_CACHE = PROBE + """import ctypes, platform
fd = os.open(os.__file__, os.O_RDONLY)
buffer = bytearray(4096)
attempt('dontneed', lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED))
attempt('willneed', lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED))
attempt('nowait', lambda: os.preadv(fd, [buffer], 0, os.RWF_NOWAIT))
attempt('plain', lambda: os.preadv(fd, [buffer], 0, 0))
if platform.machine() == 'x86_64':  # DONTNEED with the upper half set: the kernel reads an int
    libc, word = ctypes.CDLL(None, use_errno=True), ctypes.c_long
    result = libc.syscall(word(221), word(fd), word(0), word(0), word(4 | 1 << 32))
    print('dontneed_high', 'allowed' if result == 0 else 'refused')
"""
# ioctl requests a program has no business with: the file system's UUID, label and flags, a file's
# extents and block map, pushing input into a terminal. What CPython needs still works.
IOCTLS = PROBE + """import fcntl
fd = os.open(os.__file__, os.O_RDONLY)
for name, request in (('FS_IOC_GETFSUUID', 0x80111500), ('FS_IOC_GETFSLABEL', 0x81009431),
                      ('FS_IOC_GETFLAGS', 0x80086601), ('FS_IOC_FIEMAP', 0xC020660B), ('FIBMAP', 1),
                      ('FIGETBSZ', 2), ('FS_IOC_FSGETXATTR', 0x801C581F), ('TIOCSTI', 0x5412)):
    attempt(name, lambda: fcntl.ioctl(fd, request, bytearray(1024)))
attempt('isatty', lambda: os.isatty(1) or None)
attempt('set_blocking', lambda: os.set_blocking(1, True))
attempt('set_inheritable', lambda: os.set_inheritable(fd, True))
"""
# The host's disk size and free space (statfs of a folder bound from it), half its memory (of a tmpfs).
STATFS = PROBE + """for name, path in (('/', '/'), ('/sandbox', '/sandbox'), ('/dev/null', '/dev/null'),
                   ('stdlib', os.path.dirname(os.__file__))):
    attempt('statvfs ' + name, lambda: os.statvfs(path))
"""
# The run's OOM score is 1000 (a run goes first if the host runs short); it must not lower it.
OOM_SCORE = PROBE + """for value in ('-1000', '0', '999'):
    def lower():
        with open('/proc/self/oom_score_adj', 'w') as handle:
            handle.write(value)
    attempt('lower to ' + value, lower)
print('score', open('/proc/self/oom_score_adj').read().strip())
"""
# Facts about the host the masks and namespaces hide: uptime (clocks count from boot), boot id, RAM
# (/proc/sys values derived from it), disks, the dates of the host's device nodes.
HOST_FACTS = """import os, time
print('uptime', int(time.clock_gettime(time.CLOCK_BOOTTIME)), int(time.monotonic()))
print('started', int(open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]) // os.sysconf('SC_CLK_TCK'))
for path in ('/proc/sys/kernel/random/boot_id', '/proc/sys/kernel/threads-max', '/proc/sys/fs/file-max',
             '/proc/sys/fs/file-nr', '/proc/sys/vm/min_free_kbytes', '/proc/partitions', '/proc/buddyinfo',
             '/proc/cgroups', '/proc/softirqs'):
    try:
        print('read', path, len(open(path).read()))
    except OSError as exc:
        print('hidden', path, type(exc).__name__)
print('device dates', sorted({int(os.stat('/dev/' + name).st_mtime) for name in ('null', 'zero', 'urandom')}))
"""
# A program burns CPU (a third of its limit) and then sends itself the CPU limit's signal: the signal alone must
# not be named the limit. Not more: on a CI host running browsers beside three test processes, a burn of 0.6 s
# got too little of a core to end within the wall clock, or was counted past CPU_REACHED with the interpreter's
# own start, and the worker refused all runs (CI of 6 Dec).
RAISED_SIGXCPU = """import os, signal, time
while time.process_time() < 0.3:
    pass
os.kill(os.getpid(), signal.SIGXCPU)"""
# Each C0 control is stored as a mark of three bytes: 60,000 bytes written become 180,000 stored.
MARKS_FLOOD = "import sys\nsys.stdout.write('\\x01' * 60000)"
INVISIBLE_TEXT = ("print('tag \\U000E0041\\U000E007F filler \\u3164\\u115f\\u1160\\uffa0 selector \\ufe0f\\U000E0100 "
                  "bidi \\u202e\\u2067\\u061c soft \\u00ad arabic \\u0600')")
INVISIBLE = frozenset("\U000E0041\U000E007F\u3164\u115f\u1160\uffa0\ufe0f\U000E0100\u202e\u2067\u061c\u00ad\u0600")


def _answers(result: RunResult) -> dict[str, str]:
    """What a PROBE program printed: "<what>" -> "allowed" or "refused"."""
    answers = {}
    for line in result.stdout.splitlines():
        if line.endswith(" allowed"):
            answers[line.removesuffix(" allowed")] = "allowed"
        elif " refused" in line:
            answers[line.rsplit(" refused", 1)[0]] = "refused"
    return answers


def _probed(refused: tuple[str, ...], allowed: tuple[str, ...] = ()) -> Callable[[RunResult], bool]:
    def check(result: RunResult) -> bool:
        answers = _answers(result)
        return (result.status == "ok" and all(answers.get(what) == "refused" for what in refused)
                and all(answers.get(what) == "allowed" for what in allowed))
    return check


def _page_cache_contained(result: RunResult) -> bool:
    wide = "dontneed_high" in result.stdout
    return _probed(("dontneed", "nowait", *(("dontneed_high",) if wide else ())), ("willneed", "plain"))(result)


def _group_path_says_nothing(result: RunResult) -> bool:
    """Every cgroup path the run reads ends in "/" or a random run name: no worker pid, no run count."""
    paths = [line.split(":", 2)[2] for line in result.stdout.splitlines() if line.count(":") >= 2]
    names = [path.rsplit("/", 1)[1] for path in paths]
    return result.status == "ok" and bool(paths) and all(name == "" or cgroups.is_run_name(name) for name in names)


def _host_facts_hidden(result: RunResult) -> bool:
    lines = result.stdout.splitlines()
    uptime = [int(n) for line in lines if line.startswith("uptime ") for n in line.split()[1:]]
    started = [int(line.split()[1]) for line in lines if line.startswith("started ")]
    dates = next((line for line in lines if line.startswith("device dates")), "")
    # The run's clocks count from its own start, not the host's boot; its device nodes carry no date.
    return (result.status == "ok" and bool(uptime) and max(uptime + started) < 60
            and not any(line.startswith("read ") for line in lines) and dates == "device dates [0]")


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
            # each inode is kernel memory the run's cgroup counts, so "memory" is a contained end too
            # without a cgroup the loop's kernel time can meet RLIMIT_CPU early and be named "killed" (see above)
            lambda r: r.status in {"ok", "error", "timeout", "memory"} or _stopped_by_rlimit_cpu(r)),
    Hostile("memory_bomb", "blocks = []\nwhile True:\n    blocks.append(b'x' * (16 * 1048576))",
            lambda r: (r.status == "memory" and _within_memory(r)) if _accounted(r) else r.status == "error"),
    Hostile("memfd", MEMFD, lambda r: (r.status == "memory" or _held_mib(r) <= 64) and _within_memory(r)),
    Hostile("sysv_shm", SHM, lambda r: (r.status == "memory" or _held_mib(r) <= 8) and _within_memory(r)),
    # Six OOM kills in a row can outlast the wall clock on a busy host; the peak is what must hold.
    Hostile("fork_allocate", FORK_ALLOCATE, lambda r: _accounted(r) and r.status in {"memory", "timeout"}
            and r.peak_memory_bytes is not None and _within_memory(r), needs_cgroup=True),
    Hostile("fork_burn_cpu", FORK_BURN, lambda r: _accounted(r) and r.status == "timeout"
            # the children nobody waited for are counted (the old record said 28 ms), and bounded
            and 100 <= (r.cpu_ms or 0) <= SELFTEST_LIMITS.cpu_seconds * 1000 + 300, needs_cgroup=True),
    Hostile("faked_exit_status", "import sys\nsys.exit(139)",
            lambda r: r.status == "error" and r.exit_code == 139 and r.signal is None),
    Hostile("faked_memory_error", "import sys\nsys.stderr.write('Traceback (most recent call last):\\nMemoryError\\n')\nsys.exit(1)",
            lambda r: r.status == "error" and r.exit_code == 1),
    Hostile("raised_memory_error", "raise MemoryError('not really')", lambda r: r.status == "error" and r.exit_code == 1),
    Hostile("forged_init_status", FORGE_STATUS, lambda r: r.status == "error" and r.exit_code == 3 and "wrote" not in r.stdout),
    Hostile("new_syscalls", LIBC + f"for n in {NEW_SYSCALLS!r}:\n    print(libc.syscall(n, 0, 0, 0, 0, 0), ctypes.get_errno())",
            lambda r: r.status == "ok" and set(r.stdout.split("\n")[:-1]) <= {"-1 38", "-1 1"}),
    Hostile("inotify", LIBC + "print(libc.inotify_init1(0), ctypes.get_errno())\nprint(libc.inotify_init(), ctypes.get_errno())",
            _stdout_is("-1 1\n-1 1")),
    Hostile("proc_host_entries", f"for name in {HOST_FILES!r}:\n    try:\n        print(len(open('/proc/' + name).read()))\n"
            "    except OSError as exc:\n        print(type(exc).__name__)",
            lambda r: r.status == "ok" and all(line in {"0", "PermissionError"} for line in r.stdout.split())),
    Hostile("terminal_escapes", "print('\\x1b[2J\\x1b]0;pwned\\x07 \\u202eabc\\u2066 \\u200bx\\x9b1m')",
            lambda r: r.status == "ok" and not any(c in r.stdout for c in "\x1b\x07\u202e\u2066\u200b\x9b")
            and "\u241b[2J" in r.stdout and "<U+202E>" in r.stdout),
    Hostile("cpu_loop", "while True:\n    pass", lambda r: r.status == "timeout" or _stopped_by_rlimit_cpu(r)),
    Hostile("sleep", "import time\ntime.sleep(60)", lambda r: r.status == "timeout"),
    Hostile("fork_bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
            # the pids limit stops it, or the memory limit first (seen once with the suite in parallel
            # processes): contained either way
            lambda r: r.status in {"timeout", "killed", "error", "memory"}),
    Hostile("thread_bomb", "import threading, time\nwhile True:\n    threading.Thread(target=time.sleep, args=(30,)).start()",
            lambda r: r.status in {"error", "memory", "timeout"}),
    Hostile("output_flood", "while True:\n    print('x' * 1000)", lambda r: r.status == "output_limit" and r.truncated),
    Hostile("binary_output", "import sys\nsys.stdout.buffer.write(bytes(range(256)) * 4)",
            lambda r: r.status == "ok" and "\x00" not in r.stdout and "\x1b" not in r.stdout
            and "\ufffd" in r.stdout and "\u2400" in r.stdout),
    Hostile("environment_dump", "import os\nprint(sorted(os.environ))",
            _stdout_is(str(sorted(["HOME", "LANG", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "TMPDIR"])))),
    Hostile("kill_parent", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('still here')",
            lambda r: r.status in {"ok", "error", "killed"} and _leaks_nothing(r)),
    Hostile("proc_snooping", "import os\nprint(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))",
            _stdout_is("[1, 2]")),
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
    Hostile("page_cache_probe", PAGE_CACHE, _page_cache_contained),
    Hostile("ioctl_requests", IOCTLS, _probed(
        ("FS_IOC_GETFSUUID", "FS_IOC_GETFSLABEL", "FS_IOC_GETFLAGS", "FS_IOC_FIEMAP", "FIBMAP", "FIGETBSZ",
         "FS_IOC_FSGETXATTR", "TIOCSTI"), ("isatty", "set_blocking", "set_inheritable"))),
    Hostile("host_disk_size", STATFS, _probed(("statvfs /", "statvfs /sandbox", "statvfs /dev/null",
                                               "statvfs stdlib"))),
    Hostile("oom_score_lowered", OOM_SCORE, lambda r: _probed(("lower to -1000", "lower to 0", "lower to 999"))(r)
            and "score 1000" in r.stdout),
    Hostile("host_facts", HOST_FACTS, _host_facts_hidden, needs_root=True),
    Hostile("raised_sigxcpu", RAISED_SIGXCPU, lambda r: r.status == "killed" and r.signal == 24),
    Hostile("output_marks_flood", MARKS_FLOOD, lambda r: r.truncated
            and len(r.stdout.encode()) + len(r.stderr.encode()) <= SELFTEST_LIMITS.output_bytes),
    Hostile("invisible_unicode", INVISIBLE_TEXT, lambda r: r.status == "ok" and not INVISIBLE & set(r.stdout)
            and all(mark in r.stdout for mark in ("<U+E0041>", "<U+3164>", "<U+FE0F>", "<U+202E>", "<U+00AD>"))),
    Hostile("cgroup_path", "print(open('/proc/self/cgroup').read())", _group_path_says_nothing),
    Hostile("fixture_is_read_only", "print(open('data.txt').read().strip())\nopen('data.txt', 'w').write('changed')",
            lambda r: r.stdout.strip() == "가상 자료" and r.status == "error", files=(("data.txt", "가상 자료\n".encode()),)),
)

# Small limits keep the self-test quick; containment does not depend on their size.
SELFTEST_LIMITS: Limits = Limits(cpu_seconds=1, wall_seconds=2.0, memory_bytes=64 * MIB)


@dataclass(frozen=True)
class Verdict:
    name: str
    contained: bool
    status: str
    note: str
    # Not contained, but only a cgroup could contain it and this host has none: a stated risk.
    accepted_risk: bool = False

    @property
    def passed(self) -> bool:
        return self.contained or self.accepted_risk


def check_one(hostile: Hostile, *, limits: Limits, config: SandboxConfig, pool: WarmRuns | None = None) -> Verdict:
    """Run one hostile program (in a warm sandbox of ``pool`` when it has one ready) and judge its containment."""
    try:
        result = run_python(hostile.code, files=dict(hostile.files), limits=limits, config=config, pool=pool)
        if result.status == "timeout" and not hostile.contained(result):
            # A program that should have ended by itself ran out of wall clock. On a busy host
            # (several workers testing at once) that says nothing about isolation, so it gets one
            # more try with twice the time; it must then be contained like any other case.
            longer = dataclasses.replace(limits, wall_seconds=limits.wall_seconds * 2)
            result = run_python(hostile.code, files=dict(hostile.files), limits=longer, config=config)
    except Exception as exc:  # a runner fault is a failed check, never a crashed worker
        return Verdict(hostile.name, False, "error", f"{type(exc).__name__}: {exc}")
    if result.status == "refused":
        return Verdict(hostile.name, False, result.status, result.stderr[:200])
    contained = hostile.contained(result)
    if not contained and hostile.needs_cgroup and not _accounted(result):
        return Verdict(hostile.name, False, result.status, "cgroup 없음: 프로세스마다만 제한됨(알려진 위험)",
                       accepted_risk=True)
    if not contained and hostile.needs_root and os.geteuid() != 0:
        return Verdict(hostile.name, False, result.status,
                       "root가 아님: 시간 네임스페이스와 전용 장치 노드 없음(알려진 위험)", accepted_risk=True)
    # the runner's basis says which of it and the kernel decided (a signal, a limit), which the output cannot
    note = "" if contained else f"{result.basis} · CPU {result.cpu_ms or 0:.0f}ms · {(result.stdout + result.stderr)[-240:]}"
    return Verdict(hostile.name, contained, result.status, note)


def check_planted_links(config: SandboxConfig) -> Verdict:
    """Plant links where the runner keeps its locks, as another local user could, and check none is followed.

    Uses a fresh private state folder of the same kind, so the host's real
    slots are never disturbed: a lock file that is a link to a target, and a
    state folder that is itself a link. Each run must be refused and the
    target never created or changed.
    """
    with tempfile.TemporaryDirectory(prefix="geungeo-selftest-") as scratch:
        base = Path(scratch)
        os.chmod(base, 0o700)
        target = base / "target"
        state = base / "state"
        state.mkdir(mode=0o700)
        (state / "slot-0.lock").symlink_to(target)
        linked = base / "linked"
        linked.symlink_to(state, target_is_directory=True)
        open_to_all = base / "open"
        open_to_all.mkdir()
        os.chmod(open_to_all, 0o777)
        results = []
        for folder in (state, linked, open_to_all):
            trial = dataclasses.replace(config, state_dir=folder, slots=1)
            results.append(run_python("print('ran')", limits=SELFTEST_LIMITS, config=trial))
        refused = all(r.status == "refused" for r in results)
        contained = refused and not target.exists() and not os.path.lexists(open_to_all / "slot-0.lock")
        note = "" if contained else "; ".join(f"{r.status}: {r.stderr[:80]}" for r in results)
        return Verdict("planted_state_links", contained, "refused" if refused else "ok", note)


DYING_RUNS = 4


def check_dying_groups(config: SandboxConfig) -> Verdict | None:
    """Runs that bring file pages into the cache must not leave dying memory groups behind.

    A page charged to a removed group keeps that group "dying" until the page
    is reclaimed, and the kernel makes no new group past 65,535 of them. A
    rarely read file of the standard library is evicted from the host's
    cache (it is only read again), each run reads it, so its pages are
    charged to the run's group; the runner must free them before it removes
    the group, and the dying count (v2: of the runs' folder; v1: the host's)
    must not grow with the runs. ``None`` without cgroups.
    """
    backend, _ = enforcement(config)
    if backend is None:
        return None
    stdlib = Path(interpreter(config.python).stdlib)
    target = next((p for p in (stdlib / "pydoc_data" / "topics.py", stdlib / "typing.py") if p.is_file()))
    before = backend.dying_groups()
    left: list[int | None] = []
    statuses: list[str] = []
    code = f"print(len(open({str(target)!r}, 'rb').read()))"
    for _ in range(DYING_RUNS):
        _evict(target)
        result = run_python(code, limits=SELFTEST_LIMITS, config=config)
        if result.status != "ok":
            # A read that ran out of time on a busy host (a CI run's browsers and workers beside it) says nothing
            # about the cache: once more with twice the time, as the catalogue does; a second failure counts.
            _evict(target)
            longer = dataclasses.replace(SELFTEST_LIMITS, wall_seconds=SELFTEST_LIMITS.wall_seconds * 2,
                                         cpu_seconds=SELFTEST_LIMITS.cpu_seconds * 2)
            result = run_python(code, limits=longer, config=config)
        statuses.append(result.status)
        left.append(result.page_cache_left_bytes if result.status == "ok" else None)
    after = backend.dying_groups()
    grown = after - before if after is not None and before is not None else 0
    # v1 counts the whole host's dying groups: other workers' runs (or parallel test processes) ending meanwhile
    # add to it, so there the runs' own measure decides (no page of theirs left when their group went).
    contained = all(bytes_left == 0 for bytes_left in left) and (grown < DYING_RUNS or backend.version == 1)
    note = "" if contained else (f"그룹을 지울 때 남은 페이지 캐시 {left}바이트(실행 결과 {statuses}), "
                                 f"죽어 가는 memory cgroup {grown}개 늘어남")
    return Verdict("dying_cgroups", contained, "ok" if contained else "error", note)


def _evict(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def run_selftest(config: SandboxConfig, *, limits: Limits = SELFTEST_LIMITS, warm: int = 0) -> list[Verdict]:
    """Run the catalogue (in parallel, one slot each), the host-side link check, and then check that
    no run left a process behind.

    With ``warm``, the catalogue's runs take warm sandboxes from a pool of that
    size (the path the worker's runs take); the pool is closed before the
    host-side checks, which need every slot free.

    Workers starting together on one host take turns (a lock in the host-wide
    state folder): the dying-group count is the host's under cgroup v1, so one
    worker's catalogue runs would otherwise be counted against the other's.
    """
    with _host_turn(config):
        return _run_selftest(config, limits=limits, warm=warm)


@contextlib.contextmanager
def _host_turn(config: SandboxConfig) -> Iterator[None]:
    try:
        fd = os.open("selftest.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600,
                     dir_fd=slots.state_dir_fd(config))
    except (slots.SlotProblem, OSError):
        yield  # an unusable state folder fails the catalogue's own checks; nothing to take turns on
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _run_selftest(config: SandboxConfig, *, limits: Limits, warm: int) -> list[Verdict]:
    clear_inherited(config)
    threads = max(1, min(config.slots, os.cpu_count() or 1) * 2)
    with Pool(config, limits, size=min(warm, max(0, config.slots - threads))) as sandboxes, \
            ThreadPoolExecutor(max_workers=threads) as pool:
        verdicts = list(pool.map(lambda h: check_one(h, limits=limits, config=config, pool=sandboxes), CATALOGUE))
    try:
        verdicts.append(check_planted_links(config))
    except Exception as exc:  # noqa: BLE001 - a runner fault is a failed check, never a crashed worker
        verdicts.append(Verdict("planted_state_links", False, "error", f"{type(exc).__name__}: {exc}"))
    try:
        dying = check_dying_groups(config)
        if dying is not None:
            verdicts.append(dying)
    except Exception as exc:  # noqa: BLE001 - a runner fault is a failed check, never a crashed worker
        verdicts.append(Verdict("dying_cgroups", False, "error", f"{type(exc).__name__}: {exc}"))
    if os.geteuid() == 0:
        leftover = leftover_processes(config)
        verdicts.append(Verdict("no_process_left", not leftover, "ok" if not leftover else "error",
                                f"남은 프로세스: {leftover}" if leftover else ""))
    return verdicts


def clear_inherited(config: SandboxConfig) -> None:
    """Take each free slot once, as a run first takes it (``slot_preparer``), before the catalogue runs.

    What a stopped worker left in a slot (its group, a sandbox that never
    started) is then cleared, so ``no_process_left`` judges only what this
    self-test's own runs leave. A slot refused here is skipped by runs too.
    """
    backend, _ = enforcement(config)
    prepare = slot_preparer(config, backend)
    for slot in range(config.slots):
        with slots.hold(config, slot, timeout=0) as held:
            if not held:
                continue
            try:
                prepare(slot)
            except slots.SlotProblem as exc:
                logger.warning("sandbox slot %d refused: %s", slot, exc)


def leftover_processes(config: SandboxConfig) -> list[int]:
    """Processes of slot users while no run holds their slot: anything found outlived its run.

    Each slot is taken in turn, so runs of other workers sharing the host are
    waited for rather than mistaken for leftovers. A slot still held after
    ``HOLD_WAIT_SECONDS`` (a warm sandbox of another worker waiting for its
    run) is in use, and what runs as its user is that sandbox: it is skipped.
    """
    found = []
    for slot in range(config.slots):
        with slots.hold(config, slot, timeout=HOLD_WAIT_SECONDS) as held:
            if held:
                found += processes_of(config.slot_uid_base + slot)
    return found


# How long the leftover check waits for a slot another worker's run holds (longer than a self-test run).
HOLD_WAIT_SECONDS = 2 * SELFTEST_LIMITS.wall_seconds

