"""Start one sandboxed run and watch it: wall clock, output cap, exit status, cleanup.

The process tree: this runner (a subreaper) → ``bwrap`` (own session, killed
with its process group, dies if we die) → the program as PID 1 of a new PID
namespace. When the program or bwrap ends, the kernel tears the PID namespace
down, so nothing the program started can outlive the run. Being PID 1, the
program ignores signals sent from inside the sandbox that it has no handler
for; faults (SIGSEGV) and the CPU limit's SIGKILL still end it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import seccomp, slots
from .limits import Limits, SandboxConfig

WORKDIR = "/sandbox"
PROGRAM = "main.py"
# Fatal signals that a shell-style exit status of 128 + N stands for.
FATAL_SIGNALS = {int(s) for s in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE,
                                  signal.SIGILL, signal.SIGXCPU, signal.SIGXFSZ, signal.SIGTERM, signal.SIGSYS)}
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)


@dataclass
class RunResult:
    """The command-line contract of ``lab_run --json``, field for field."""

    status: str  # ok | error | timeout | memory | output_limit | killed | refused
    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    wall_ms: float
    cpu_ms: float | None
    truncated: bool

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def refused(reason: str) -> RunResult:
    return RunResult("refused", None, None, "", reason, 0.0, None, False)


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
    """Say in Korean why the sandbox cannot isolate here, or ``None`` if it can."""
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
        seccomp.filter_bpf()
        interpreter(config.python)
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        return f"샌드박스를 준비하지 못해 실습을 실행하지 않습니다: {exc}"
    return None


def become_subreaper() -> None:
    """Adopt any orphan of a run, so it is reaped here rather than left as a zombie elsewhere."""
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def bwrap_argv(config: SandboxConfig, limits: Limits, *, seccomp_fd: int, code_fd: int,
               file_fds: Mapping[str, int], argv: list[str]) -> list[str]:
    interp = interpreter(config.python)
    args = [
        config.bwrap,
        "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--as-pid-1",
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
        "--proc", "/proc",
        "--dev-bind", "/dev/null", "/dev/null", "--dev-bind", "/dev/zero", "/dev/zero",
        "--dev-bind", "/dev/urandom", "/dev/urandom",
        "--size", str(limits.tmpfs_bytes), "--tmpfs", WORKDIR, "--chdir", WORKDIR,
        "--ro-bind-data", str(code_fd), f"{WORKDIR}/{PROGRAM}",
    ]
    for name, fd in file_fds.items():
        args += ["--ro-bind-data", str(fd), f"{WORKDIR}/{name}"]
    args += ["--remount-ro", "/", "--seccomp", str(seccomp_fd), *argv]
    return args


def _enter_slot(uid: int | None, limits: Limits) -> None:
    """Run in the forked child before exec: limits first, then the slot's user, then death-with-parent."""
    cpu = int(limits.cpu_seconds)
    for which, value in (
        (resource.RLIMIT_CPU, (cpu, cpu)),  # PID 1 ignores SIGXCPU; the hard limit's SIGKILL ends it
        (resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)),
        (resource.RLIMIT_FSIZE, (limits.tmpfs_bytes, limits.tmpfs_bytes)),
        (resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)),
        (resource.RLIMIT_CORE, (0, 0)),
        # bwrap and its init take two of the slot user's processes.
        (resource.RLIMIT_NPROC, (limits.processes + 2, limits.processes + 2)),
    ):
        resource.setrlimit(which, value)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    # Set after the uid change, which would clear it.
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def decode(data: bytes) -> str:
    """Decode program output safely: invalid UTF-8 and NUL bytes never reach a page or a database."""
    return data.decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def run_python(
    code: str,
    *,
    files: Mapping[str, bytes] | None = None,
    stdin: bytes | None = None,
    limits: Limits = Limits(),
    config: SandboxConfig = SandboxConfig(),
) -> RunResult:
    """Run ``code`` as ``/sandbox/main.py`` with ``files`` bound read-only beside it."""
    problem = sandbox_problem(config)
    if problem:
        return refused(problem)
    files = dict(files or {})
    for name in files:
        if "/" in name or name in {"", ".", "..", PROGRAM}:
            return refused(f"파일 이름 '{name}'은(는) 쓸 수 없습니다.")
    try:
        with slots.acquire(config, timeout=limits.wall_seconds) as slot:
            uid = config.slot_uid_base + slot if os.geteuid() == 0 else None
            return _run_in_slot(code, files, stdin, limits, config, uid)
    except slots.AllSlotsBusy:
        return refused("실행 자리가 모두 차 있어 이번 실행을 시작하지 못했습니다. 잠시 뒤 다시 실행하세요.")


def _run_in_slot(code: str, files: Mapping[str, bytes], stdin: bytes | None, limits: Limits,
                 config: SandboxConfig, uid: int | None) -> RunResult:
    become_subreaper()
    owned: list[int] = []
    try:
        seccomp_fd = seccomp.filter_fd()
        owned.append(seccomp_fd)
        code_fd = _memfd("main.py", code.encode("utf-8"))
        owned.append(code_fd)
        file_fds = {name: _memfd(name, data) for name, data in files.items()}
        owned.extend(file_fds.values())
        stdin_source: int = subprocess.DEVNULL
        if stdin is not None:
            stdin_source = _memfd("stdin", stdin)
            owned.append(stdin_source)
        argv = bwrap_argv(config, limits, seccomp_fd=seccomp_fd, code_fd=code_fd, file_fds=file_fds,
                          argv=["/usr/bin/python3", "-E", "-s", "-S", PROGRAM])
        started = time.perf_counter()
        with slots.spawning() as track:
            process = subprocess.Popen(
                argv, stdin=stdin_source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(seccomp_fd, code_fd, *file_fds.values()), env={}, start_new_session=True,
                preexec_fn=functools.partial(_enter_slot, uid, limits),
            )
            track(process.pid)
    finally:
        for fd in owned:
            os.close(fd)
    with _killed_at_exit(process, uid):
        stdout, stderr, overflow, timed_out = _collect(process, limits, started)
        # bwrap waits for the program (PID 1 of its namespace), so this rusage
        # holds the program's CPU time and that of every child it waited for.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    wall_ms = (time.perf_counter() - started) * 1000
    cpu_ms = (usage.ru_utime + usage.ru_stime) * 1000
    return classify(
        exit_code=process.returncode, stdout=stdout, stderr=stderr, wall_ms=wall_ms, cpu_ms=cpu_ms,
        overflow=overflow, timed_out=timed_out, limits=limits,
    )


def _collect(process: subprocess.Popen[bytes], limits: Limits, started: float) -> tuple[bytes, bytes, bool, bool]:
    """Read both pipes until they close and the process has ended, the wall clock runs out,
    or the output cap is passed; kill the process group in the last two cases."""
    assert process.stdout is not None and process.stderr is not None  # started with PIPE
    buffers: dict[Any, bytearray] = {process.stdout: bytearray(), process.stderr: bytearray()}
    selector = selectors.DefaultSelector()
    for stream in buffers:
        selector.register(stream, selectors.EVENT_READ)
    pidfd = os.pidfd_open(process.pid)
    selector.register(pidfd, selectors.EVENT_READ)
    deadline = started + limits.wall_seconds
    overflow = timed_out = False
    waiting = len(buffers) + 1
    while waiting:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            timed_out = True
            break
        for key, _ in selector.select(timeout=remaining):
            if key.fileobj == pidfd:
                chunk = b""
            else:
                chunk = os.read(key.fd, 65536)
                buffers[key.fileobj] += chunk
            if not chunk:
                selector.unregister(key.fileobj)
                waiting -= 1
        if sum(len(b) for b in buffers.values()) > limits.output_bytes:
            overflow = True
            break
    selector.close()
    os.close(pidfd)
    if timed_out or overflow:
        _kill_group(process.pid)
    for stream in buffers:
        stream.close()
    out, err = bytes(buffers[process.stdout]), bytes(buffers[process.stderr])
    if overflow:
        out = out[: limits.output_bytes]
        err = err[: max(0, limits.output_bytes - len(out))]
    return out, err, overflow, timed_out


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def _killed_at_exit(process: subprocess.Popen[bytes], uid: int | None) -> Iterator[None]:
    """Whatever happens while watching, leave no process of this run behind."""
    try:
        yield
    finally:
        if process.returncode is None:
            _kill_group(process.pid)
            os.wait4(process.pid, 0)
            process.returncode = -signal.SIGKILL
        slots.untrack(process.pid)
        if uid is not None:
            slots.sweep(uid)
        slots.reap_orphans()


def classify(*, exit_code: int, stdout: bytes, stderr: bytes, wall_ms: float, cpu_ms: float | None,
             overflow: bool, timed_out: bool, limits: Limits) -> RunResult:
    """Name the outcome. An exit status of 128 + N from bwrap means the program died of signal N."""
    sig = exit_code - 128 if exit_code > 128 and (exit_code - 128) in FATAL_SIGNALS else None
    if exit_code < 0:  # bwrap itself was killed by us
        sig = -exit_code
    err_text = decode(stderr)
    if overflow:
        status = "output_limit"
    elif timed_out:
        status = "timeout"
    # A SIGKILL we did not send, after real CPU use, is the hard CPU limit
    # (PID 1 ignores the soft limit's SIGXCPU); tick-based accounting can read
    # low on a busy host, hence half the limit rather than all of it.
    elif sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_ms is not None and cpu_ms >= limits.cpu_seconds * 500):
        status = "timeout"  # the CPU limit
    elif _ran_out_of_memory(err_text):
        status = "memory"
    elif sig is not None:
        status = "killed"
    elif exit_code == 0:
        status = "ok"
    else:
        status = "error"
    return RunResult(
        status=status,
        exit_code=None if sig is not None else exit_code,
        signal=sig,
        stdout=decode(stdout),
        stderr=err_text,
        wall_ms=round(wall_ms, 3),
        cpu_ms=round(cpu_ms, 3) if cpu_ms is not None else None,
        truncated=overflow,
    )


def _ran_out_of_memory(stderr: str) -> bool:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return bool(lines) and (lines[-1].startswith("MemoryError") or "Cannot allocate memory" in lines[-1])
