"""Concurrency slots: at most ``config.slots`` runs at once on this host, each with its own user.

A slot is an exclusive ``flock`` on a file, so it is shared correctly between
threads and between worker processes, and released by the kernel if a worker dies.
"""

from __future__ import annotations

import fcntl
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .limits import SandboxConfig


class AllSlotsBusy(Exception):
    pass


@contextmanager
def acquire(config: SandboxConfig, *, timeout: float) -> Iterator[int]:
    state = Path(config.state_dir)
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    while True:
        for number in range(config.slots):
            fd = os.open(state / f"slot-{number}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield number
            finally:
                os.close(fd)
            return
        if time.monotonic() >= deadline:
            raise AllSlotsBusy
        time.sleep(0.005)


@contextmanager
def hold(config: SandboxConfig, slot: int) -> Iterator[None]:
    """Wait for and take one particular slot (used to inspect it while no run is in it)."""
    state = Path(config.state_dir)
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(state / f"slot-{slot}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def processes_of(uid: int) -> list[int]:
    """Pids whose real uid is ``uid`` (read from /proc)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid:
                found.append(int(entry.name))
        except FileNotFoundError:
            continue
    return found


def sweep(uid: int, *, timeout: float = 5.0) -> None:
    """Kill every process the slot user still has and wait until none is left."""
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
