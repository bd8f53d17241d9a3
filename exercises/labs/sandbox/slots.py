"""Concurrency slots: at most ``config.slots`` runs at once on this host, each with its own user.

A slot is an exclusive ``flock`` on a file in the state folder, so it is
shared correctly between threads and between worker processes, and released
by the kernel if a worker dies. The folder is host-wide and, since the
runner may be root, treated as hostile ground: it must be a real folder
(checked with lstat, opened with O_NOFOLLOW) owned by the runner's user and
closed to everybody else, and lock files are opened with O_NOFOLLOW and
checked to be the runner's own plain files, so a link planted there by
another local user is never followed (the class of Judge0's CVE-2024-28185
and CVE-2024-28189).
"""

from __future__ import annotations

import fcntl
import grp
import logging
import os
import pwd
import shutil
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .limits import SandboxConfig

ROOT_STATE_DIR = Path("/run/geungeo-tutor-sandbox")

logger = logging.getLogger(__name__)


class AllSlotsBusy(Exception):
    pass


class SlotProblem(Exception):
    """The state folder or a slot's user is not safe to use; the message says why, in Korean."""


def default_state_dir() -> Path:
    """Root's folder is under /run; another user's is their runtime folder (or /tmp) with their uid."""
    if os.geteuid() == 0:
        return ROOT_STATE_DIR
    base = os.environ.get("XDG_RUNTIME_DIR") or "/tmp"
    return Path(base) / f"geungeo-tutor-sandbox-{os.geteuid()}"


def state_dir(config: SandboxConfig) -> Path:
    return Path(config.state_dir) if config.state_dir else default_state_dir()


_dir_fds: dict[tuple[int, str], int] = {}
_dir_lock = threading.Lock()


def state_dir_fd(config: SandboxConfig) -> int:
    """Open (creating it once, mode 0700) and check the state folder; return a descriptor to open locks under.

    Raise ``SlotProblem`` if the path is a link or not a folder, belongs to
    another user, is open to others, or sits in a folder others may replace it in.
    """
    path = state_dir(config)
    key = (os.getpid(), str(path))
    with _dir_lock:
        if key in _dir_fds:
            cached = _dir_fds.pop(key)
            try:
                now, held = os.lstat(path), os.fstat(cached)
                if (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino) and stat.S_ISDIR(now.st_mode):
                    _dir_fds[key] = cached
                    return cached
            except FileNotFoundError:
                pass
            os.close(cached)  # the folder went away or was replaced: check it again
        _check_parent(path.parent)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise SlotProblem(f"실행 상태 폴더 {path}를 만들 수 없습니다: {exc.strerror}") from exc
        before = os.lstat(path)
        _check_private_dir(path, before)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        after = os.fstat(fd)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            os.close(fd)
            raise SlotProblem(f"실행 상태 폴더 {path}가 확인하는 사이에 바뀌었습니다.")
        _dir_fds[key] = fd
        return fd


def _check_parent(parent: Path) -> None:
    info = os.stat(parent)
    others_may_replace = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX
    if info.st_uid not in (0, os.geteuid()) or others_may_replace:
        raise SlotProblem(f"실행 상태 폴더의 상위 폴더 {parent}를 다른 사용자가 바꿀 수 있어 쓰지 않습니다.")


def _check_private_dir(path: Path, info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise SlotProblem(f"실행 상태 폴더 {path}가 폴더가 아닙니다(링크 등). 지우고 다시 시작하세요.")
    if info.st_uid != os.geteuid():
        raise SlotProblem(f"실행 상태 폴더 {path}의 소유자(uid {info.st_uid})가 실행기와 달라 쓰지 않습니다.")
    if info.st_mode & 0o077:
        raise SlotProblem(f"실행 상태 폴더 {path}를 다른 사용자가 열 수 있어(권한 {stat.S_IMODE(info.st_mode):o}) 쓰지 않습니다.")


def open_lock(config: SandboxConfig, slot: int) -> int:
    """Open slot ``slot``'s lock file without following links; refuse anything but our own plain file."""
    dir_fd = state_dir_fd(config)
    name = f"slot-{slot}.lock"
    try:
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o600,
                     dir_fd=dir_fd)
    except OSError as exc:
        raise SlotProblem(f"실행 자리 잠금 파일 {name}을 열 수 없습니다(링크일 수 있음): {exc.strerror}") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_nlink != 1:
        os.close(fd)
        raise SlotProblem(f"실행 자리 잠금 파일 {name}이 실행기의 평범한 파일이 아니어서 쓰지 않습니다.")
    return fd


def note(config: SandboxConfig, slot: int, text: str) -> None:
    """Keep ``text`` (the name of the slot's current run group) in the slot's lock file; hold its lock."""
    fd = open_lock(config, slot)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode(), 0)
    finally:
        os.close(fd)  # a flock belongs to the lock's own descriptor, so closing this one keeps it


def noted(config: SandboxConfig, slot: int) -> str:
    """What ``note`` last kept for ``slot`` ("" if nothing)."""
    fd = open_lock(config, slot)
    try:
        return os.pread(fd, 256, 0).decode(errors="replace")
    finally:
        os.close(fd)


_verified_uids: set[int] = set()


def check_slot_user(uid: int, *, bwrap: str) -> None:
    """Before a slot user's first run here, check that the uid is nobody's: no account, no group, no process.

    Called only while holding the slot's lock, so no run of ours is in it.
    A process of a sandbox found there (``is_sandbox_process``) outlived a
    worker that was killed while it started that sandbox: bwrap's child
    waits for its parent before ``--die-with-parent`` is armed, so a parent
    killed in that moment leaves it waiting for ever. It is ended here, the
    first time a worker takes the slot, as its group is (``clear_slot``).
    Any other process means the uid is someone else's, and the slot is refused.
    """
    if uid in _verified_uids:
        return
    for lookup, what in ((pwd.getpwuid, "사용자 계정"), (grp.getgrgid, "그룹")):
        try:
            entry = lookup(uid)
        except KeyError:
            continue
        raise SlotProblem(f"실행 자리 uid {uid}에 {what} '{entry[0]}'이 있어 쓰지 않습니다. "
                          "LAB_SANDBOX_UID_BASE를 아무도 쓰지 않는 범위로 바꾸세요.")
    found = processes_of(uid)
    foreign = [pid for pid in found if not is_sandbox_process(pid, bwrap)]
    if foreign:
        raise SlotProblem(f"실행 자리 uid {uid}로 도는 프로세스가 있어 쓰지 않습니다 (pid {foreign[:5]}).")
    if found:
        logger.warning("slot user %d: ending %d sandbox process(es) a stopped worker left: %s", uid, len(found), found)
        sweep(uid)
        if processes_of(uid):
            raise SlotProblem(f"실행 자리 uid {uid}에 멈춘 작업자가 남긴 프로세스를 끝내지 못해 쓰지 않습니다.")
    _verified_uids.add(uid)


def is_sandbox_process(pid: int, bwrap: str) -> bool:
    """Whether ``pid`` is part of a sandbox: bwrap itself, or a process in a PID namespace below this one's.

    Every process of a run is one of these (bwrap outside, PID 1 and the
    program inside their namespace); a process of the same uid that is
    neither was not started by a runner.
    """
    try:
        if os.path.realpath(f"/proc/{pid}/exe") == os.path.realpath(shutil.which(bwrap) or bwrap):
            return True
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"NSpid:"):
                    return len(line.split()) > 2
    except OSError:
        return False
    return False


@contextmanager
def acquire(config: SandboxConfig, *, timeout: float,
            prepare: Callable[[int], None] | None = None) -> Iterator[int]:
    """Take a free slot, waiting up to ``timeout``; ``prepare(slot)`` runs while holding it and may refuse it.

    A slot whose check fails is skipped; if no usable slot is left, the last
    check's ``SlotProblem`` is raised rather than waiting.
    """
    deadline = time.monotonic() + timeout
    while True:
        problem: SlotProblem | None = None
        unusable = 0
        for number in range(config.slots):
            fd = open_lock(config, number)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                if prepare is not None:
                    prepare(number)
            except SlotProblem as exc:
                os.close(fd)
                problem, unusable = exc, unusable + 1
                continue
            try:
                yield number
            finally:
                os.close(fd)
            return
        if problem is not None and unusable == config.slots:
            raise problem
        if time.monotonic() >= deadline:
            if problem is not None:
                raise problem
            raise AllSlotsBusy
        time.sleep(0.005)


@contextmanager
def hold(config: SandboxConfig, slot: int, *, timeout: float) -> Iterator[bool]:
    """Take one particular slot, waiting up to ``timeout`` (used to inspect it while no run is in it).

    Yields whether it was taken: a slot can stay held for long by a warm
    sandbox waiting for its run (``warm.py``), so nothing waits for one for ever.
    """
    fd = open_lock(config, slot)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.01)
        yield True
    finally:
        os.close(fd)


def processes_of(uid: int) -> list[int]:
    """Pids of live processes whose real uid is ``uid`` (read from /proc).

    Zombies are left out: they have exited, run nothing and hold no memory.
    They appear when a worker is killed and its sandbox's processes are
    handed to a host init that never reaps them (this machine's PID 1 is
    such an init); counting them would refuse the slot for ever.
    """
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid and not _is_zombie(entry.path):
                found.append(int(entry.name))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def _is_zombie(proc_dir: str) -> bool:
    """Read the state field of ``/proc/<pid>/stat`` (after the command name, which may hold spaces)."""
    with open(os.path.join(proc_dir, "stat"), "rb") as stat_file:
        fields = stat_file.read().rpartition(b")")[2].split()
    return bool(fields) and fields[0] in (b"Z", b"X")


def sweep(uid: int, *, timeout: float = 5.0) -> None:
    """Kill every process the (checked) slot user still has and wait until none is left."""
    deadline = time.monotonic() + timeout
    while (pids := processes_of(uid)) and time.monotonic() < deadline:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        reap_orphans()
        time.sleep(0.002)


_active: set[int] = set()
_active_lock = threading.Lock()


@contextmanager
def spawning() -> Iterator[Callable[[int], None]]:
    """Hold off the orphan reaper while a run starts its bwrap, and note the new pid before letting go.

    Without this, a bwrap that exits at once could be reaped by another
    thread's reaper before its own run had recorded it, and its status lost.
    """
    with _active_lock:
        yield _active.add


def untrack(pid: int) -> None:
    with _active_lock:
        _active.discard(pid)


def reap_orphans() -> None:
    """Reap zombies this subreaper adopted from finished runs (a sandboxed PID 1 whose bwrap was killed).

    Only exited session leaders that no run is watching are reaped: sandboxed
    programs lead their own session, while a child that other code started
    (and will wait for) does not, so it is never taken from its owner. Each
    zombie child is looked at on its own, so one that is not ours to reap
    never hides the others.
    """
    try:  # one syscall to see whether any child has exited at all, before scanning /proc
        if os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            return
    except ChildProcessError:
        return
    me = os.getpid()
    with _active_lock:
        _reap_unwatched(me)


def _reap_unwatched(me: int) -> None:
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        fields = _stat_fields(pid)
        if not fields or fields[0] != b"Z" or int(fields[1]) != me or int(fields[3]) != pid or pid in _active:
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def _stat_fields(pid: int) -> list[bytes]:
    """State, ppid, pgrp, session, … of a process (the fields after its name in /proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return []


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None
