"""Warm, single-use sandboxes: made before the code exists, each used for exactly one run, then destroyed.

A cold run pays for everything after the click: bwrap's namespaces and
mounts, the attach to its cgroup (on cgroup v1 often a kernel RCU grace
period, about 12 ms) and the interpreter's start (about 9 ms). A warm
sandbox has done all of that before any learner's code exists: its slot is
held, its cgroup made with the run's limits and PID 1 placed in it, its
rlimits set, seccomp loaded and the program's interpreter started, which
says so with one byte on PID 1's status channel before the pool offers the
sandbox. The interpreter then waits on its standard input, the job pipe. A run writes
its job there (the program, its files, its input), and the sandbox goes on
exactly as a cold one would: same namespaces, filter, limits, wall clock
(started when the job is written), output cap, outcome rules and cleanup
(``runner.watch_run``).

What differs, and why it is safe:
- ``main.py`` and the lab's files are written into the run's own tmpfs with
  mode 0444 instead of bound read-only, so the program could change its own
  copies (they are its own: nobody reads them after the run, and checks
  read only what the kernel and runner saw). They count in the tmpfs limit.
- The run's clocks start when the sandbox was made, not when the job came;
  a sandbox older than ``max_idle`` seconds is thrown away unused, so a run
  never sees more than that of idle time.
- Single use: a sandbox runs one job and is destroyed with its cgroup; the
  next run gets a new one (new namespaces, new group, new interpreter, new
  hash seed and random state). A sandbox whose job pipe closes without a
  job runs nothing.

A pool belongs to one worker process and holds at most ``size`` sandboxes
(its runner threads), each in a host-wide slot of its own. It makes them on
one thread of its own, which lives as long as the pool: bwrap's
``--die-with-parent`` ties each sandbox to the thread that started it.
Filling never waits for a slot (a cold run that needs one is never held
back by a sandbox that is only waiting), and a run with other limits, or
one that finds the pool empty, starts cold as before.
"""

from __future__ import annotations

import functools
import logging
import os
import select
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass

from . import cgroups, slots
from .limits import Limits, SandboxConfig
from .runner import (
    PROGRAM,
    RunResult,
    SetupFailed,
    become_subreaper,
    enforcement,
    killed_at_exit,
    sandbox_problem,
    slot_preparer,
    slot_user_and_group,
    start_in_group,
    watch_run,
)

logger = logging.getLogger(__name__)

# A sandbox waits at most this long for its job; then it is replaced, so a run's clocks show little idle time.
MAX_IDLE_SECONDS = 30.0
# A new sandbox's interpreter must say it is ready within this long, or the sandbox is destroyed unused.
READY_SECONDS = 5.0
# After a failed attempt to make one (no free slot, a setup problem), the pool waits this long, doubling.
RETRY_SECONDS = (0.05, 2.0)


@dataclass
class WarmSandbox:
    """One sandbox made ahead of its run: its bwrap, PID 1's status pipe, the job pipe, its slot and group."""

    limits: Limits
    process: subprocess.Popen[bytes]
    status_r: int
    job_w: int
    uid: int | None
    group: cgroups.RunGroup | None
    slot: ExitStack
    made: float

    def alive(self) -> bool:
        """Still waiting for its job (looked at without reaping it, so the run can still wait for it)."""
        try:
            return os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False


def make(config: SandboxConfig, limits: Limits) -> WarmSandbox:
    """Make one warm sandbox in a free slot, or raise ``slots.AllSlotsBusy`` / ``SlotProblem`` / ``SetupFailed``.

    Call on a thread that outlives the sandbox (``--die-with-parent``).
    """
    problem = sandbox_problem(config)
    if problem:
        raise SetupFailed(problem)
    become_subreaper()
    backend, _ = enforcement(config)
    stack = ExitStack()  # holds the slot for the sandbox's life: closed by its release or discard
    try:
        slot = stack.enter_context(slots.acquire(config, timeout=0, prepare=slot_preparer(config, backend)))
        uid, group = slot_user_and_group(config, backend, slot)
        process, status_r, _, job_w = start_in_group(limits, config, uid, group, code=None, files={}, stdin=None)
    except BaseException:
        stack.close()
        raise
    assert job_w is not None
    sandbox = WarmSandbox(limits, process, status_r, job_w, uid, group, stack, time.monotonic())
    if not _started(status_r, READY_SECONDS):
        discard(sandbox)
        raise SetupFailed("미리 준비한 샌드박스의 인터프리터가 시작되지 않았습니다.")
    sandbox.made = time.monotonic()
    return sandbox


def _started(status_r: int, timeout: float) -> bool:
    """Wait for the interpreter's one byte "r" (its start and first compile done); anything else is a failure.

    Before the job nothing of a learner runs in the sandbox, so only PID 1's
    child can have written here: a status line instead means it ended.
    """
    readable, _, _ = select.select([status_r], [], [], timeout)
    return bool(readable) and os.read(status_r, 1) == b"r"


def job(code: str, files: Mapping[str, bytes], stdin: bytes | None) -> bytes:
    """The job as PID 1's child reads it: ``<kind> <length> <name>\\n`` then the bytes, for each part."""
    parts = [(b"f", PROGRAM.encode(), code.encode("utf-8"))]
    parts += [(b"f", name.encode("utf-8"), data) for name, data in files.items()]
    if stdin is not None:
        parts.append((b"i", b"-", stdin))
    return b"".join(b"%s %d %s\n%s" % (kind, len(data), name, data) for kind, name, data in parts)


def run(sandbox: WarmSandbox, code: str, files: Mapping[str, bytes], stdin: bytes | None, *,
        later: Callable[[Callable[[], None]], None] | None = None) -> RunResult | None:
    """Give the sandbox its one job and watch the run; ``None`` if the sandbox had died while it waited.

    The run's group is removed and its slot freed after the result is out: by
    ``later`` (the pool's thread) when given, else here before returning.
    """
    if not sandbox.alive():
        discard(sandbox)
        return None
    data = job(code, files, stdin)
    started = time.perf_counter()
    deadline = started + sandbox.limits.wall_seconds
    try:
        os.set_blocking(sandbox.job_w, False)
        view = memoryview(data)
        while view and time.perf_counter() < deadline:
            select.select([], [sandbox.job_w], [], max(0.0, deadline - time.perf_counter()))
            try:
                view = view[os.write(sandbox.job_w, view):]
            except BlockingIOError:
                continue
    except BrokenPipeError:
        pass  # the sandbox ended meanwhile: the watch below reports how
    finally:
        os.close(sandbox.job_w)
    try:
        # A job not taken in before the wall clock ran out is a timeout, like any other run.
        return watch_run(sandbox.process, sandbox.status_r, started, sandbox.limits, sandbox.uid, sandbox.group,
                         remove_group=False)
    finally:
        (later or _call)(functools.partial(_release, sandbox))


def _call(action: Callable[[], None]) -> None:
    action()


def _release(sandbox: WarmSandbox) -> None:
    """After a run: remove its group (the run has left it), then free its slot, whose note names that group."""
    try:
        if sandbox.group is not None:
            sandbox.group.remove()
    finally:
        sandbox.slot.close()


def discard(sandbox: WarmSandbox) -> None:
    """Destroy an unused sandbox: close its job pipe (it then runs nothing), kill it, remove its group, free its slot."""
    try:
        try:
            os.close(sandbox.job_w)
        except OSError:
            pass
        with killed_at_exit(sandbox.process, sandbox.uid, sandbox.group):
            pass  # never ran: killed, waited for, its user's processes swept
        for stream in (sandbox.process.stdout, sandbox.process.stderr):
            if stream is not None:
                stream.close()
        os.close(sandbox.status_r)
        if sandbox.group is not None:
            sandbox.group.remove()
    finally:
        sandbox.slot.close()


class Pool:
    """At most ``size`` warm sandboxes for runs with ``limits`` under ``config``, refilled on a thread of its own.

    ``run`` (what ``run_python(pool=…)`` calls) takes the oldest ready sandbox
    for one run, or answers ``None`` so the run starts cold. ``close`` destroys
    the ones still waiting.
    """

    def __init__(self, config: SandboxConfig, limits: Limits, *, size: int,
                 max_idle: float = MAX_IDLE_SECONDS) -> None:
        self.config, self.limits, self.size, self.max_idle = config, limits, max(0, size), max_idle
        self._ready: list[WarmSandbox] = []
        self._releases: list[Callable[[], None]] = []
        self._releasing = False
        self._changed = threading.Condition()
        self._closed = False
        self.made = 0
        self.used = 0
        self._thread = threading.Thread(target=self._fill, name="warm-sandboxes", daemon=True)
        if self.size:
            self._thread.start()

    def run(self, code: str, files: Mapping[str, bytes], stdin: bytes | None, *, limits: Limits,
            config: SandboxConfig) -> RunResult | None:
        if limits != self.limits or config != self.config:
            return None
        sandbox = self._take()
        if sandbox is None:
            return None
        return run(sandbox, code, files, stdin, later=self._release_later)

    def settle(self, timeout: float) -> bool:
        """Wait until every finished run's group is removed and its slot free (for tests); say whether they are."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._releases or self._releasing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    def _release_later(self, release: Callable[[], None]) -> None:
        with self._changed:
            if self._closed:
                release()
                return
            self._releases.append(release)
            self._changed.notify_all()

    def ready(self) -> int:
        with self._changed:
            return len(self._ready)

    def wait_ready(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` sandboxes are ready (for benches and tests); say whether they are."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._ready) < count and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return len(self._ready) >= count

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._thread.is_alive():
            self._thread.join()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take(self) -> WarmSandbox | None:
        with self._changed:
            if self._closed or not self._ready:
                return None
            sandbox = self._ready.pop(0)
            self.used += 1
            self._changed.notify_all()
            return sandbox

    def _fill(self) -> None:
        """The pool's own thread: free what finished runs held, replace stale sandboxes, make missing ones."""
        retry = RETRY_SECONDS[0]
        try:
            while True:
                with self._changed:
                    stale = self._wait_for_work()
                    releases, self._releases = self._releases, []
                    self._releasing = bool(releases)
                self._settle(releases, stale)
                if self._closed:
                    break
                if self.ready() >= self.size:
                    continue
                try:
                    sandbox = make(self.config, self.limits)
                except Exception as exc:  # noqa: BLE001 - no free slot or a setup fault: runs start cold meanwhile
                    logger.debug("warm sandbox not made: %s", exc)
                    with self._changed:
                        self._changed.wait(retry)
                    retry = min(retry * 2, RETRY_SECONDS[1])
                    continue
                retry = RETRY_SECONDS[0]
                self.made += 1
                with self._changed:
                    self._ready.append(sandbox)
                    self._changed.notify_all()
        finally:
            with self._changed:
                left, self._ready = self._ready, []
                releases, self._releases = self._releases, []
                self._releasing = bool(releases)
            self._settle(releases, left)

    def _settle(self, releases: list[Callable[[], None]], unused: list[WarmSandbox]) -> None:
        """Free finished runs' groups and slots, destroy unused sandboxes; a fault is logged, never stops the pool."""
        try:
            for release in releases:
                try:
                    release()
                except Exception:
                    logger.exception("a warm run's group or slot could not be freed")
            for sandbox in unused:
                try:
                    discard(sandbox)
                except Exception:
                    logger.exception("a warm sandbox could not be destroyed")
        finally:
            with self._changed:
                self._releasing = False
                self._changed.notify_all()

    def _wait_for_work(self) -> list[WarmSandbox]:
        """Hold the lock; wait until a sandbox is missing, one grew stale, or the pool closes; take out the stale."""
        while not self._closed:
            if self._releases:
                return []
            now = time.monotonic()
            stale = [s for s in self._ready if now - s.made >= self.max_idle]
            if stale:
                self._ready = [s for s in self._ready if s not in stale]
                return stale
            if len(self._ready) < self.size:
                return []
            oldest = min(s.made for s in self._ready)
            self._changed.wait(max(0.01, oldest + self.max_idle - now))
        return []
