"""Start one sandboxed run and watch it: limits, wall clock, output cap, the outcome, cleanup.

The process tree: this runner (a subreaper) → ``bwrap`` (own session, killed
with its process group; ``--die-with-parent`` ends it if the runner's thread
dies; as root, started by a thread holding the slot user's ids for that
moment) → ``pid1.py`` as PID 1 of a new PID namespace → the program. bwrap
stops just before starting PID 1 (``--block-fd``) and reports that
process's pid (``--info-fd``); meanwhile the runner puts it in the run's
cgroup and sets its OOM score and the IPC limits of its namespace, then lets
it go; PID 1 sets the rlimits. When PID 1 ends, the kernel tears the PID
namespace down, so nothing the program started can outlive the run.

The outcome comes from the kernel, never from what the program prints: the
wait status PID 1 reports on its own descriptor (a signal is a signal, an
exit code of 139 is an exit code), the cgroup's OOM kill count, the cgroup's
CPU time and the runner's own wall clock and output count. ``basis`` says
which of them decided.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import math
import os
import resource
import selectors
import shutil
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from . import cgroups, seccomp, slots
from .limits import Limits, SandboxConfig
from .output import cap, decode

WORKDIR = "/sandbox"
PROGRAM = "main.py"
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWIPC = 0x08000000
CLONE_NEWTIME = 0x00000080
INIT_SOURCE = Path(__file__).with_name("pid1.py").read_text(encoding="utf-8")
# /proc entries that describe the host (its boot line, memory, load, uptime, CPUs, disks, locks):
# masked with an unreadable node or an empty folder, as container runtimes mask /proc paths.
# Each mask is a mount on every run's path (about as costly as the rest of a run's set-up together
# under load), so the list is kept to what describes the host's state and a run could read: also
# the host's disks (partitions), free memory by zone (buddyinfo), its memory ranges (mtrr), per-CPU
# counters (softirqs), every user's key counts (key-users), the cgroup counts (other runs' groups),
# file systems' and devices' state (fs/, bus/, irq/), and the parts of /proc/sys whose values give the
# host's RAM (kernel/threads-max, fs/file-max, vm/min_free_kbytes), its boot id (kernel/random) and
# host-wide counters (fs/file-nr, fs/inode-nr, fs/dentry-state). Files a run cannot read anyway
# (mode 0400) are skipped; the run's own namespaces' values (kernel/shm*, msg*, sem, hostname) stay.
MASKED_PROC_FILES = (
    "cmdline", "meminfo", "loadavg", "uptime", "stat", "vmstat", "zoneinfo", "cpuinfo", "diskstats",
    "swaps", "interrupts", "locks", "keys", "partitions", "buddyinfo", "softirqs", "mtrr", "key-users",
    "cgroups", "sys/kernel/threads-max",
)
MASKED_PROC_DIRS = ("pressure", "fs", "bus", "irq", "sys/fs", "sys/vm", "sys/kernel/random")
DEVICE_NODES = ("null", "zero", "urandom")
# Where the runner's own nodes are made: the first of these on a file system that allows devices
# (/run is often a tmpfs mounted nodev; /dev is a devtmpfs, emptied at each boot).
DEVICE_DIRS = (Path("/run/geungeo-tutor-sandbox-dev"), Path("/dev/geungeo-tutor-sandbox"))
# System V IPC limits inside the run's own IPC namespace (the memory cgroup counts the pages too).
IPC_LIMITS = {
    "shmmax": 1 << 20, "shmall": 256, "shmmni": 8,
    "msgmax": 8192, "msgmnb": 16384, "msgmni": 8, "sem": "32 256 32 8",
}
_libc = ctypes.CDLL(None, use_errno=True)
# Output is read in chunks of up to READ_BYTES; after PACE_AFTER_ROUNDS wake-ups in one run, at most
# once every PACE_SECONDS, so the worker's CPU per run is bounded whatever the size of the writes.
READ_BYTES = 1 << 20
PACE_AFTER_ROUNDS = 64
PACE_SECONDS = 0.005
# RLIMIT_CPU is counted in scheduler ticks: a CPU signal within this much of the limit reached it.
# The share of the CPU limit a run's counted CPU must reach for SIGXCPU/SIGKILL to be named the CPU limit.
CPU_REACHED = 0.9
# With a cgroup the runner reads the tree's exact CPU time and ends the run at the limit; RLIMIT_CPU is then a
# backstop at this many times the limit (plus a second), for a runner that stops watching. It cannot be the
# limit: the kernel charges RLIMIT_CPU a whole scheduler tick whenever the program is the one running at the
# tick, so a CPU-bound program beside programs that wake and sleep often is charged for ticks it shared. On
# this 2-core machine RLIMIT_CPU=1 ended a loop at 0.59-0.62 s of its exact CPU time beside six such processes
# (no cgroup), and a sandboxed loop at 846-880 ms beside the parallel test suite, named "killed (SIGKILL)"
# (tests/exercises/labs/test_sandbox_runner.py holds it).
CPU_BACKSTOP_FACTOR = 3


OOM_SCORE_ADJ = b"1000"


class SetupFailed(Exception):
    """The runner could not prepare the run as it must; the message says why, in Korean."""


@dataclass
class RunResult:
    """What one run did; ``as_json`` is the command-line contract of ``lab_run --json``."""

    status: str  # ok | error | timeout | memory | output_limit | killed | refused
    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    wall_ms: float
    cpu_ms: float | None
    truncated: bool
    peak_memory_bytes: int | None = None
    accounting: str = ""  # "cgroup v1 (…)" / "cgroup v2 (…)" / "rlimit" — how limits were counted
    basis: str = ""  # what decided the status
    # Page cache still charged to the run's group when it was removed (it would keep the group dying).
    page_cache_left_bytes: int | None = None

    CONTRACT = ("status", "exit_code", "signal", "stdout", "stderr", "wall_ms", "cpu_ms", "truncated")

    def as_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.CONTRACT}

    def details(self) -> dict[str, Any]:
        return asdict(self)


def refused(reason: str) -> RunResult:
    return RunResult("refused", None, None, "", reason, 0.0, None, False, basis="refused before starting")


@dataclass(frozen=True)
class Interpreter:
    executable: str
    version: str
    stdlib: str
    libdirs: tuple[str, ...]


@functools.cache
def interpreter(python: str) -> Interpreter:
    """Ask the host interpreter where its files are, once, so only those are bound in."""
    probe = (
        "import sys, sysconfig, os; "
        "print(os.path.realpath(sys.executable)); print(sys.version.split()[0]); "
        "print(sysconfig.get_path('stdlib')); print(sysconfig.get_config_var('LIBDIR') or ''); "
        "print(sysconfig.get_config_var('MULTIARCH') or '')"
    )
    out = subprocess.run([python, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=10, check=True)
    executable, version, stdlib, libdir, multiarch = (out.stdout.splitlines() + [""] * 5)[:5]
    libdirs = {p for p in (libdir, f"/usr/lib/{multiarch}" if multiarch else "", "/usr/lib64") if p and os.path.isdir(p)}
    return Interpreter(executable, version, stdlib, tuple(sorted(libdirs)))


def sandbox_problem(config: SandboxConfig) -> str | None:
    """Say in Korean why the sandbox cannot isolate here, or ``None`` if it can.

    Asked before every run and every run request, so the answer is kept for a
    few seconds: a tool removed meanwhile is noticed that much later.
    """
    now = time.monotonic()
    cached = _problems.get(config)
    if cached is not None and now - cached[0] < PROBLEM_TTL_SECONDS:
        return cached[1]
    problem = _find_problem(config)
    _problems[config] = (now, problem)
    return problem


PROBLEM_TTL_SECONDS = 5.0
_problems: dict[SandboxConfig, tuple[float, str | None]] = {}


def _find_problem(config: SandboxConfig) -> str | None:
    if shutil.which(config.bwrap) is None:
        return "bubblewrap(bwrap)이 설치되어 있지 않아 실습을 실행하지 않습니다. 관리자: apt-get install bubblewrap"
    if not os.access(config.python, os.X_OK):
        return f"샌드박스용 파이썬({config.python})이 없어 실습을 실행하지 않습니다. 관리자: apt-get install python3"
    try:
        if int(Path("/proc/sys/user/max_user_namespaces").read_text()) < 1:
            return "이 시스템은 사용자 네임스페이스를 허용하지 않아 실습을 격리할 수 없습니다."
    except (OSError, ValueError):
        return "사용자 네임스페이스를 확인할 수 없어 실습을 실행하지 않습니다."
    try:
        seccomp.filter_bpf(True)
        seccomp.filter_bpf(False)
        interpreter(config.python)
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        return f"샌드박스를 준비하지 못해 실습을 실행하지 않습니다: {exc}"
    return None


def enforcement(config: SandboxConfig) -> tuple[cgroups.Backend | None, str]:
    """Say how runs are bounded on this host: the cgroup backend, and a line for the start line and status."""
    detection = cgroups.detect() if config.use_cgroups else cgroups.Detection(None, "설정에서 꺼짐")
    users = "슬롯마다 다른 uid" if os.geteuid() == 0 else "root가 아니어서 슬롯 uid 없음"
    if detection.backend is not None:
        return detection.backend, (f"실행마다 {detection.backend.description}: 메모리·프로세스 수·CPU 시간을 "
                                   f"실행 전체에 대해 셉니다; {users}")
    return None, (f"cgroup 없음({detection.reason}): 프로세스마다 rlimit만 적용됩니다. 여러 프로세스가 함께 쓰는 "
                  f"메모리와 기다리지 않은 자식의 CPU 시간은 실행 전체로 제한되지 않습니다; memfd와 SysV IPC는 "
                  f"거부됩니다; {users}")


def become_subreaper() -> None:
    """Adopt any orphan of a run, so it is reaped here rather than left as a zombie elsewhere."""
    if _subreaper_of != [os.getpid()]:
        _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        _subreaper_of[:] = [os.getpid()]


_subreaper_of: list[int] = []


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@functools.cache
def _proc_masks() -> tuple[str, ...]:
    args: list[str] = []
    for name in MASKED_PROC_FILES:
        if os.path.isfile(f"/proc/{name}") and os.stat(f"/proc/{name}").st_mode & stat.S_IROTH:
            args += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    for name in MASKED_PROC_DIRS:
        if os.path.isdir(f"/proc/{name}"):
            args += ["--tmpfs", f"/proc/{name}"]
    return tuple(args)


@functools.cache
def _device_sources() -> dict[str, str]:
    """The device nodes bound into every run: the sandbox's own where the runner is root, else the host's.

    A node bound from the host's /dev shows the host's inode numbers and
    times (when the host's /dev was made). As root the runner makes its own
    null, zero and urandom once, in a folder only root may change, with
    their times set to 1970 (the change time stays when they were made).
    Another user cannot make device nodes, so the host's are bound.
    """
    host = {name: f"/dev/{name}" for name in DEVICE_NODES}
    if os.geteuid() != 0:
        return host
    try:
        where = next((d for d in DEVICE_DIRS if not os.statvfs(d.parent).f_flag & os.ST_NODEV), None)
        if where is None:
            return host
        try:
            os.mkdir(where, 0o755)
        except FileExistsError:
            pass
        folder = os.lstat(where)
        if not stat.S_ISDIR(folder.st_mode) or folder.st_uid != 0 or folder.st_mode & 0o022:
            return host
        for name in DEVICE_NODES:
            node, device = where / name, os.stat(f"/dev/{name}").st_rdev
            try:
                os.mknod(node, stat.S_IFCHR | 0o666, device)
            except FileExistsError:
                pass  # made by an earlier run, or by another worker starting at the same moment
            have = os.lstat(node)
            if not (stat.S_ISCHR(have.st_mode) and have.st_rdev == device and have.st_uid == 0):
                return host
            os.chmod(node, 0o666)  # checked just above to be our own device node, not a link
            os.utime(node, (0, 0), follow_symlinks=False)
    except OSError:
        return host
    return {name: str(where / name) for name in DEVICE_NODES}


def bwrap_argv(config: SandboxConfig, limits: Limits, *, seccomp_fd: int, code_fd: int | None,
               file_fds: Mapping[str, int], info_fd: int, block_fd: int, argv: list[str]) -> list[str]:
    """bwrap's command line; without ``code_fd`` (a warm sandbox) the program and files come later, by the job pipe."""
    interp = interpreter(config.python)
    args = [
        config.bwrap,
        "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--as-pid-1",
        "--info-fd", str(info_fd), "--block-fd", str(block_fd),
        "--cap-drop", "ALL", "--hostname", "sandbox", "--clearenv",
        "--setenv", "PATH", "/usr/bin", "--setenv", "HOME", WORKDIR, "--setenv", "TMPDIR", WORKDIR,
        "--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONIOENCODING", "utf-8",
        "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
        "--ro-bind", interp.executable, "/usr/bin/python3",
        "--symlink", "python3", "/usr/bin/python",
        "--ro-bind", interp.stdlib, interp.stdlib,
    ]
    for libdir in interp.libdirs:
        args += ["--ro-bind", libdir, libdir]
    args += [
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
        # /proc/1 is PID 1's: hidden, so the program cannot reach its status descriptor.
        "--proc", "/proc", "--tmpfs", "/proc/1", *_proc_masks(),
        # Read-only, so no process of the run can write its /proc/<pid> files (oom_score_adj among them).
        "--remount-ro", "/proc",
        *(arg for name, source in _device_sources().items() for arg in ("--dev-bind", source, f"/dev/{name}")),
        "--size", str(limits.tmpfs_bytes), "--tmpfs", WORKDIR, "--chdir", WORKDIR,
    ]
    if code_fd is not None:
        args += ["--ro-bind-data", str(code_fd), f"{WORKDIR}/{PROGRAM}"]
    for name, fd in file_fds.items():
        args += ["--ro-bind-data", str(fd), f"{WORKDIR}/{name}"]
    args += ["--remount-ro", "/", "--seccomp", str(seccomp_fd), *argv]
    return args


def rlimits(limits: Limits, *, accounted: bool) -> list[tuple[int, int]]:
    """The per-process limits; with a cgroup, CPU time and memory are the cgroup's, and rlimits only a backstop."""
    cpu = math.ceil(limits.cpu_seconds) * CPU_BACKSTOP_FACTOR + 1 if accounted else int(limits.cpu_seconds)
    address_space = limits.memory_bytes * 4 if accounted else limits.memory_bytes
    return [
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_AS, address_space),
        (resource.RLIMIT_FSIZE, limits.tmpfs_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
        # bwrap and PID 1 take two of the slot user's processes.
        (resource.RLIMIT_NPROC, limits.processes + 2),
        (resource.RLIMIT_MSGQUEUE, 0),
        (resource.RLIMIT_MEMLOCK, 64 * 1024),
    ]


def run_python(
    code: str,
    *,
    files: Mapping[str, bytes] | None = None,
    stdin: bytes | None = None,
    limits: Limits | None = None,
    config: SandboxConfig | None = None,
    pool: WarmRuns | None = None,
) -> RunResult:
    """Run ``code`` as ``/sandbox/main.py`` with ``files`` bound read-only beside it (the default limits and
    configuration when none are given).

    With a ``pool`` (``warm.Pool``), the run takes one of its warm sandboxes when it has one made for
    these limits; otherwise, or if that sandbox died while it waited, the run starts cold as always.
    """
    limits = limits if limits is not None else Limits()
    config = config if config is not None else SandboxConfig()
    problem = sandbox_problem(config)
    if problem:
        return refused(problem)
    files = dict(files or {})
    for name in files:
        if "/" in name or "\n" in name or "\0" in name or name in {"", ".", "..", PROGRAM}:
            return refused(f"파일 이름 '{name}'은(는) 쓸 수 없습니다.")
    if pool is not None:
        warm = pool.run(code, files, stdin, limits=limits, config=config)
        if warm is not None:
            return warm
    backend, _ = enforcement(config)
    try:
        with slots.acquire(config, timeout=limits.wall_seconds, prepare=slot_preparer(config, backend)) as slot:
            uid, group = slot_user_and_group(config, backend, slot)
            return _run_in_slot(code, files, stdin, limits, config, uid, group)
    except slots.AllSlotsBusy:
        return refused("실행 자리가 모두 차 있어 이번 실행을 시작하지 못했습니다. 잠시 뒤 다시 실행하세요.")
    except (slots.SlotProblem, SetupFailed) as exc:
        return refused(str(exc))


class WarmRuns(Protocol):
    """What ``run_python`` asks of a pool of warm sandboxes (``warm.Pool``)."""

    def run(self, code: str, files: Mapping[str, bytes], stdin: bytes | None, *, limits: Limits,
            config: SandboxConfig) -> RunResult | None: ...


def slot_preparer(config: SandboxConfig, backend: cgroups.Backend | None) -> Callable[[int], None]:
    """What runs while a slot is first held: clear a group a crashed worker left there, check the slot's user."""
    root = os.geteuid() == 0
    scope = hashlib.sha256(str(slots.state_dir(config)).encode()).hexdigest()[:8]

    def prepare(slot: int) -> None:
        if backend is not None:
            backend.clear_slot(slot, scope, slots.noted(config, slot))
        if root:
            slots.check_slot_user(config.slot_uid_base + slot, bwrap=config.bwrap)

    return prepare


def slot_user_and_group(config: SandboxConfig, backend: cgroups.Backend | None,
                        slot: int) -> tuple[int | None, cgroups.RunGroup | None]:
    """The held slot's user (when root) and a new run group, its name noted in the slot before it exists."""
    uid = config.slot_uid_base + slot if os.geteuid() == 0 else None
    if backend is None:
        return uid, None
    name = cgroups.new_name()
    slots.note(config, slot, name)  # before the group exists: a crash then leaves a known name
    return uid, backend.group(name)


@dataclass
class _Watch:
    """What the runner saw while the run went on."""

    stdout: bytes = b""
    stderr: bytes = b""
    status: bytes = b""
    overflow: bool = False
    timed_out: bool = False
    cpu_exceeded: bool = False


def _run_in_slot(code: str, files: Mapping[str, bytes], stdin: bytes | None, limits: Limits,
                 config: SandboxConfig, uid: int | None, group: cgroups.RunGroup | None) -> RunResult:
    become_subreaper()
    process, status_r, started, _ = start_in_group(limits, config, uid, group, code=code, files=files, stdin=stdin)
    return watch_run(process, status_r, started, limits, uid, group)


def start_in_group(limits: Limits, config: SandboxConfig, uid: int | None, group: cgroups.RunGroup | None, *,
                   code: str | None, files: Mapping[str, bytes], stdin: bytes | None,
                   ) -> tuple[subprocess.Popen[bytes], int, float, int | None]:
    """Make the run's group with its limits, then ``start``; a start that fails removes the group again."""
    if group is not None:
        group.create(limits, processes=limits.processes + 1)
    try:
        return start(limits, config, uid, group, code=code, files=files, stdin=stdin)
    except BaseException:
        if group is not None:
            group.remove()
        raise


def watch_run(process: subprocess.Popen[bytes], status_r: int, started: float, limits: Limits,
              uid: int | None, group: cgroups.RunGroup | None, *, remove_group: bool = True) -> RunResult:
    """Watch a started run to its end (or a limit), leave nothing of it behind, and name its outcome.

    With ``remove_group`` false the caller removes the run's group (after the
    result is out: a warm run's pool does it on its own thread), and the
    result's ``page_cache_left_bytes`` stays unknown.
    """
    cache_left: int | None = None
    try:
        with killed_at_exit(process, uid, group) as ending:
            watch = _collect(process, status_r, limits, started, group)
            # bwrap waits for PID 1, which waits for the program: without a
            # cgroup, this rusage is all the CPU time the runner can know of.
            _, _, usage = os.wait4(process.pid, 0)
            process.returncode = 0
            ending.by_itself = bool(watch.status) and not (watch.timed_out or watch.overflow or watch.cpu_exceeded)
        wall_ms = (time.perf_counter() - started) * 1000
        measured = group.measure() if group is not None else None
    finally:
        if group is not None and remove_group:
            cache_left = group.remove()
    if group is not None and measured is not None:
        cpu_ns, peak, oom_kills = measured
        cpu_ms, accounting = cpu_ns / 1e6, group.backend.description
    else:
        cpu_ms, peak, oom_kills, accounting = (usage.ru_utime + usage.ru_stime) * 1000, None, 0, "rlimit"
    result = classify(watch, wall_ms=wall_ms, cpu_ms=cpu_ms, peak=peak, oom_kills=oom_kills,
                      accounting=accounting, limits=limits)
    result.page_cache_left_bytes = cache_left
    return result


def start(limits: Limits, config: SandboxConfig, uid: int | None, group: cgroups.RunGroup | None, *,
          code: str | None, files: Mapping[str, bytes], stdin: bytes | None,
          ) -> tuple[subprocess.Popen[bytes], int, float, int | None]:
    """Start bwrap, prepare its PID 1 while it waits, and let it go; return it, PID 1's status pipe, the start
    and, for a warm sandbox (``code`` is None), the job pipe its program, files and input are to be written to.
    """
    owned: list[int] = []
    try:
        seccomp_fd = seccomp.filter_fd(group is not None)
        owned.append(seccomp_fd)
        code_fd: int | None = None
        job_w: int | None = None
        stdin_source: int = subprocess.DEVNULL
        if code is None:
            stdin_source, job_w = os.pipe2(os.O_CLOEXEC)
            owned += [stdin_source, job_w]
        else:
            code_fd = _memfd("main.py", code.encode("utf-8"))
            owned.append(code_fd)
        file_fds = {name: _memfd(name, data) for name, data in files.items()}
        owned.extend(file_fds.values())
        if stdin is not None:
            stdin_source = _memfd("stdin", stdin)
            owned.append(stdin_source)
        info_r, info_w = os.pipe2(os.O_CLOEXEC)
        block_r, block_w = os.pipe2(os.O_CLOEXEC)
        status_r, status_w = os.pipe2(os.O_CLOEXEC)
        owned += [info_r, info_w, block_r, block_w, status_r, status_w]
        init_args = [str(status_w), *(["job"] if code is None else []),
                     *(f"{which}={value}" for which, value in rlimits(limits, accounted=group is not None))]
        argv = bwrap_argv(config, limits, seccomp_fd=seccomp_fd, code_fd=code_fd, file_fds=file_fds,
                          info_fd=info_w, block_fd=block_r,
                          argv=["/usr/bin/python3", "-E", "-s", "-S", "-c", INIT_SOURCE, *init_args])
        pass_fds = (seccomp_fd, *(fd for fd in (code_fd,) if fd is not None), *file_fds.values(),
                    info_w, block_r, status_w)
        started = time.perf_counter()
        _new_time_namespace()
        # Spawned without a preexec function, so without a time namespace (not root) the runner
        # forks by vfork: a worker of tens of MiB pays no page-table copy per run.
        try:
            with slots.spawning() as track, _as_slot_user(uid):
                process = subprocess.Popen(
                    argv, stdin=stdin_source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    pass_fds=pass_fds, env={},
                    start_new_session=True,
                )
                track(process.pid)
        finally:
            _restore_time_namespace()
        for fd in (info_w, block_r, status_w):
            os.close(fd)
            owned.remove(fd)
        try:
            child = _child_pid(info_r, process.pid)
            if child is None:
                # Never let PID 1 start unprepared (closing the block pipe would release it).
                _kill_run(process.pid, group)
            else:
                _prepare_child(child, limits, group)
                os.write(block_w, b"go")
        except BaseException:
            _kill_run(process.pid, group)
            os.wait4(process.pid, 0)
            slots.untrack(process.pid)
            raise
        owned.remove(status_r)
        if job_w is not None:
            owned.remove(job_w)
        return process, status_r, started, job_w
    finally:
        for fd in owned:
            os.close(fd)


def _new_time_namespace() -> None:
    """Start the next process this thread spawns in a time namespace of its own, its clocks near zero.

    CLOCK_MONOTONIC and CLOCK_BOOTTIME (and a process's start time in
    ``/proc/<pid>/stat``) otherwise count from the host's boot: its uptime.
    bubblewrap 0.8 has no option for it, so the runner (root: CAP_SYS_ADMIN and
    CAP_SYS_TIME) unshares the namespace for this thread's children and sets
    the offsets through ``/proc/<thread id>``. Offsets count from the host's
    clocks, not this process's (which may itself be in a time namespace), so
    they start from the offsets this process had when it loaded this module.
    The kernel refuses vfork into another time namespace, so the C library
    forks instead. Without root, runs see the host's clocks (stated in the README).
    """
    if os.geteuid() != 0 or not _time_namespaces:
        return
    now = {name: int(time.clock_gettime(clock)) for name, clock in TIME_CLOCKS.items()}
    _set_time_namespace({name: _BASE_OFFSETS.get(name, 0) + 1 - now[name] for name in TIME_CLOCKS})


def _restore_time_namespace() -> None:
    """Let what this thread spawns next (outside a run) see this process's clocks again."""
    if os.geteuid() == 0 and _time_namespaces:
        _set_time_namespace({name: _BASE_OFFSETS.get(name, 0) for name in TIME_CLOCKS})


def _set_time_namespace(offsets: dict[str, int]) -> None:
    if _libc.unshare(CLONE_NEWTIME) != 0:
        _time_namespaces.clear()  # no time namespaces on this kernel: stated, not retried each run
        return
    text = "".join(f"{name} {seconds} 0\n" for name, seconds in offsets.items())
    fd = os.open(f"/proc/{threading.get_native_id()}/timens_offsets", os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read_offsets() -> dict[str, int]:
    """This process's time namespace offsets from the host's clocks (none: zero)."""
    try:
        lines = Path("/proc/self/timens_offsets").read_text().splitlines()
    except OSError:
        return {}
    return {fields[0]: int(fields[1]) for fields in (line.split() for line in lines) if len(fields) == 3}


TIME_CLOCKS = {"monotonic": time.CLOCK_MONOTONIC, "boottime": time.CLOCK_BOOTTIME}
_time_namespaces = [True]
# Read when the module loads, before any run changed what this process's threads spawn into.
_BASE_OFFSETS = _read_offsets()


@contextmanager
def _as_slot_user(uid: int | None) -> Iterator[None]:
    """Let this thread alone take the slot user's ids (keeping root as saved uid) while it starts bwrap.

    Linux credentials belong to each thread; the raw syscalls change only the
    calling one (the C library's wrappers would change every thread of the
    worker). The child inherits them, and its exec of bwrap (not set-uid)
    makes them whole: real, effective and saved ids all the slot user's, no
    groups, no capabilities. Doing this here instead of through ``setpriv``
    saves an exec on every run. The thread takes root back afterwards.
    """
    if uid is None:
        yield
        return
    numbers = _credential_syscalls()
    groups = os.getgroups()
    _syscall(numbers["setgroups"], 0, None)
    try:
        _syscall(numbers["setresgid"], uid, uid, 0)
        try:
            _syscall(numbers["setresuid"], uid, uid, 0)
            try:
                yield
            finally:
                _syscall(numbers["setresuid"], 0, 0, 0)
        finally:
            _syscall(numbers["setresgid"], 0, 0, 0)
    finally:
        array = (ctypes.c_uint * len(groups))(*groups)
        _syscall(numbers["setgroups"], len(groups), array)


@functools.cache
def _credential_syscalls() -> dict[str, int]:
    import pyseccomp

    arch = pyseccomp.system_arch()
    return {name: pyseccomp.resolve_syscall(arch, name) for name in ("setgroups", "setresgid", "setresuid")}


def _syscall(number: int, *args: object) -> None:
    if _libc.syscall(number, *args) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def _child_pid(info_r: int, bwrap_pid: int) -> int | None:
    """Read the pid bwrap reports for the sandbox's PID 1, and check it is bwrap's own child."""
    data = b""
    while chunk := os.read(info_r, 4096):
        data += chunk
    try:
        child = int(json.loads(data)["child-pid"])
    except (ValueError, KeyError, TypeError):
        return None  # bwrap failed before starting; its error is on stderr
    return child if slots.parent_of(child) == bwrap_pid else None


def _prepare_child(pid: int, limits: Limits, group: cgroups.RunGroup | None) -> None:
    """While PID 1 waits to start: its cgroup, OOM score and IPC limits, all inherited by the program.

    The rlimits are set by PID 1 itself (the runner may lack CAP_SYS_RESOURCE,
    which ``prlimit`` on another user's process needs).
    """
    if group is not None:
        group.attach(pid)
    # If the host ever runs short of memory, a run goes first. Read back, so a write that did not
    # take never goes unnoticed; the run cannot lower it, since its /proc is mounted read-only.
    fd = os.open(f"/proc/{pid}/oom_score_adj", os.O_RDWR | os.O_CLOEXEC)
    try:
        os.write(fd, OOM_SCORE_ADJ)
        score = os.pread(fd, 16, 0).strip()
    except OSError:
        score = b""
    finally:
        os.close(fd)
    if score != OOM_SCORE_ADJ:
        raise SetupFailed("실행의 OOM 점수(oom_score_adj)를 설정하지 못해 실행하지 않습니다.")
    if os.geteuid() == 0:
        _set_ipc_limits(pid)


def _set_ipc_limits(pid: int) -> None:
    """Enter the run's IPC namespace on this thread only, write its SysV limits, and come back."""
    own = os.open("/proc/thread-self/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
    theirs = os.open(f"/proc/{pid}/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
    try:
        if _libc.setns(theirs, CLONE_NEWIPC) != 0:
            raise OSError(ctypes.get_errno(), "setns(ipc)")
        try:
            for name, value in IPC_LIMITS.items():
                fd = os.open(f"/proc/sys/kernel/{name}", os.O_WRONLY | os.O_CLOEXEC)
                try:
                    os.write(fd, str(value).encode())
                finally:
                    os.close(fd)
        finally:
            if _libc.setns(own, CLONE_NEWIPC) != 0:
                raise OSError(ctypes.get_errno(), "setns(ipc) back")
    finally:
        os.close(own)
        os.close(theirs)


def _collect(process: subprocess.Popen[bytes], status_r: int, limits: Limits, started: float,
             group: cgroups.RunGroup | None) -> _Watch:
    """Read output and PID 1's status until all close and bwrap has ended, or a limit is passed.

    The wall clock and the output cap are the runner's; with a cgroup, the
    tree's CPU time is read when it could first have reached the limit (the
    group may use one core at a time) and again until the run ends.
    """
    assert process.stdout is not None and process.stderr is not None
    buffers = {process.stdout.fileno(): bytearray(), process.stderr.fileno(): bytearray(), status_r: bytearray()}
    selector = selectors.DefaultSelector()
    for fd in buffers:
        selector.register(fd, selectors.EVENT_READ)
    pidfd = os.pidfd_open(process.pid)
    selector.register(pidfd, selectors.EVENT_READ)
    deadline = started + limits.wall_seconds
    cpu_limit_ns = int(limits.cpu_seconds * 1e9)
    cores = group.cores if group is not None else 1
    next_cpu_check = started + limits.cpu_seconds / cores
    watch = _Watch()
    waiting = len(buffers) + 1
    rounds = 0
    while waiting:
        now = time.perf_counter()
        if now >= deadline:
            watch.timed_out = True
            break
        if group is not None and now >= next_cpu_check:
            used = group.cpu_ns()
            if used >= cpu_limit_ns:
                watch.cpu_exceeded = True
                break
            next_cpu_check = now + max(0.01, (cpu_limit_ns - used) / 1e9 / cores)
        wake = min(deadline, next_cpu_check) if group is not None else deadline
        rounds += 1
        if rounds > PACE_AFTER_ROUNDS:
            # A program that writes a byte at a time would wake the runner for each byte: after a
            # few rounds, output is read at most every PACE_SECONDS, in large chunks (the pipe holds
            # what comes meanwhile, and a full pipe makes the writer wait, on its own clock).
            time.sleep(max(0.0, min(PACE_SECONDS, wake - now)))
            now = time.perf_counter()
        for key, _ in selector.select(timeout=max(0.0, wake - now)):
            if key.fd == pidfd:
                chunk = b""
            else:
                chunk = os.read(key.fd, READ_BYTES)
                buffers[key.fd] += chunk
            if not chunk:
                selector.unregister(key.fd)
                waiting -= 1
        if len(buffers[process.stdout.fileno()]) + len(buffers[process.stderr.fileno()]) > limits.output_bytes:
            watch.overflow = True
            break
    selector.close()
    os.close(pidfd)
    if watch.timed_out or watch.overflow or watch.cpu_exceeded:
        _kill_run(process.pid, group)
    out, err = bytes(buffers[process.stdout.fileno()]), bytes(buffers[process.stderr.fileno()])
    process.stdout.close()
    process.stderr.close()
    os.close(status_r)
    if watch.overflow:
        out = out[: limits.output_bytes]
        err = err[: max(0, limits.output_bytes - len(out))]
    watch.stdout, watch.stderr, watch.status = out, err, bytes(buffers[status_r])
    return watch


def _kill_run(pid: int, group: cgroups.RunGroup | None) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if group is not None:
        group.kill()


@dataclass
class _Ending:
    by_itself: bool = False  # PID 1 reported and the runner killed nothing


@contextmanager
def killed_at_exit(process: subprocess.Popen[bytes], uid: int | None,
                    group: cgroups.RunGroup | None) -> Iterator[_Ending]:
    """Whatever happens while watching, leave no process of this run behind.

    A run that ended by itself in a cgroup leaves nothing to sweep: the PID
    namespace is gone with PID 1, and removing the group checks it is empty.
    Otherwise the slot user's processes are swept (scanning /proc costs
    milliseconds, so it is not done on every run). Adopted zombies, of this
    run or of a worker that died, are reaped every time.
    """
    ending = _Ending()
    try:
        yield ending
    finally:
        if process.returncode is None:
            _kill_run(process.pid, group)
            os.wait4(process.pid, 0)
            process.returncode = -signal.SIGKILL
        slots.untrack(process.pid)
        if uid is not None and not (ending.by_itself and group is not None):
            slots.sweep(uid)
        slots.reap_orphans()


def classify(watch: _Watch, *, wall_ms: float, cpu_ms: float, peak: int | None, oom_kills: int,
             accounting: str, limits: Limits) -> RunResult:
    """Name the outcome from what the kernel and the runner saw, and say which of them decided."""
    exit_code: int | None = None
    sig: int | None = None
    try:
        word = int(watch.status.split(b"\n", 1)[0])
    except ValueError:
        word = None
    if word is not None and os.WIFEXITED(word):
        exit_code = os.WEXITSTATUS(word)
    elif word is not None and os.WIFSIGNALED(word):
        sig = os.WTERMSIG(word)
    cpu_limit_ms = limits.cpu_seconds * 1000
    if watch.overflow:
        status, basis = "output_limit", f"출력이 {limits.output_bytes}바이트를 넘어 실행기가 멈춤"
    elif watch.timed_out:
        status, basis = "timeout", f"실행기 시계로 {limits.wall_seconds:g}초가 지남"
    elif watch.cpu_exceeded:
        status, basis = "timeout", f"cgroup CPU 시간 {cpu_ms:.0f}ms가 한도 {cpu_limit_ms:.0f}ms에 이름"
    elif oom_kills:
        status, basis = "memory", f"cgroup 메모리 한도에서 커널이 프로세스 {oom_kills}개를 종료함(oom_kill)"
    elif word is None:
        status, basis = "killed", "PID 1이 종료 상태를 보고하지 못한 채 샌드박스가 끝남"
    elif sig in (signal.SIGXCPU, signal.SIGKILL) and cpu_ms >= cpu_limit_ms * CPU_REACHED:
        # Only when the CPU time counted for the run (nearly) reached the limit: a program can raise SIGXCPU
        # itself. "Nearly": the group's count and the kernel's rlimit check are read at different moments.
        status, basis = "timeout", f"CPU rlimit 신호 {signal.Signals(sig).name}, CPU {cpu_ms:.0f}ms"
    elif sig is not None:
        status, basis = "killed", f"커널이 보고한 종료 신호 {_signal_name(sig)}"
    else:
        status = "ok" if exit_code == 0 else "error"
        basis = f"커널이 보고한 종료 코드 {exit_code}"
    # The cap holds for what is stored: a byte the program wrote may become a mark of several.
    stdout, stderr, cut = cap(decode(watch.stdout), decode(watch.stderr), limits.output_bytes)
    return RunResult(
        status=status, exit_code=exit_code, signal=sig, stdout=stdout, stderr=stderr,
        wall_ms=round(wall_ms, 3), cpu_ms=round(cpu_ms, 3), truncated=watch.overflow or cut,
        peak_memory_bytes=peak, accounting=accounting, basis=basis,
    )


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
