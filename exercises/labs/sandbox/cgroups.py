"""One cgroup per run, holding the whole run: memory, process count and CPU time counted for the tree.

cgroup v2 is used where the unified hierarchy is mounted at /sys/fs/cgroup
and the runner's own cgroup already delegates memory, pids and cpu to its
children; otherwise the v1 memory, pids and cpuacct (and cpu, if mounted)
hierarchies, as on this project's machine. Groups are made under the
runner's own cgroup in each hierarchy, in a folder ``geungeo-tutor-sandbox``,
under a random name that says nothing (not the worker's pid, not a count of
its runs: the program reads its group's path in ``/proc/self/cgroup``). The
name is noted in the slot's lock file before the group is made, so a group
left by a crashed worker is found and emptied the next time that slot is
taken (with its lock held). The v1 cpu
group of a run is made directly under the runner's own cgroup, so that a run
competes for CPU like one process, as a bare interpreter would.

The memory limit counts anonymous memory, shmem, tmpfs and memfd pages; the
kernel's OOM killer then acts inside the group only, and its kill count is
the run's "out of memory" verdict. CPU time is the group's usage, so
children nobody waited for are counted too.

Before a group is removed, the page cache its run brought in is freed
(v1 ``memory.force_empty``, v2 ``memory.reclaim``): pages still charged to a
removed group keep it as a "dying" group, and the kernel stops making groups
at 65,535 of them.
"""

from __future__ import annotations

import functools
import os
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from .limits import Limits

FOLDER = "geungeo-tutor-sandbox"
PREFIX = "geungeo-run-"  # run groups are named PREFIX<16 random hex digits>
V1_CONTROLLERS = ("memory", "pids", "cpuacct", "cpu")
V1_REQUIRED = ("memory", "pids", "cpuacct")
CPU_PERIOD_US = 100_000
# The tree may use one core's worth of CPU at a time, so CPU time never runs ahead of the wall clock.
CPU_CORES = 1
# The runs' folder competes for CPU like this many processes (the default number of slots).
SLOTS_WEIGHT = 8
_cleared: set[tuple[int, str]] = set()


def new_name() -> str:
    """A run group's name: random, so it tells the run nothing about the worker or other runs."""
    return f"{PREFIX}{secrets.token_hex(8)}"


def is_run_name(name: str) -> bool:
    token = name.removeprefix(PREFIX)
    return name.startswith(PREFIX) and len(token) == 16 and all(c in "0123456789abcdef" for c in token)


@dataclass(frozen=True)
class Backend:
    version: int
    folders: dict[str, Path]  # v1: controller -> folder; v2: {"unified": folder}

    @property
    def description(self) -> str:
        if self.version == 2:
            return "cgroup v2 (memory, pids, cpu)"
        return f"cgroup v1 ({', '.join(self.folders)})"

    def group(self, name: str) -> RunGroup:
        """The group called ``name`` (see ``new_name``) in each hierarchy."""
        return RunGroup(self, {key: folder / name for key, folder in self.folders.items()})

    def clear_slot(self, slot: int, scope: str, noted: str) -> None:
        """Empty and remove the group a crashed worker left for ``slot`` of the same lock folder.

        ``noted`` is the name the slot's lock file holds (the last group made
        in that slot). Call with that slot's lock held: no live run can then
        own that group. Done the first time this process takes the slot (a
        restarted worker clears what its predecessor left); the processes of
        such a group are already gone with their bwrap, so what remains is at
        most an empty folder.
        """
        if (slot, scope) in _cleared:
            return
        _cleared.add((slot, scope))
        if not is_run_name(noted):
            return
        if any((folder / noted).is_dir() for folder in self.folders.values()):
            self.group(noted).remove()

    def dying_groups(self) -> int | None:
        """Memory groups removed but still held by charged pages: v2 counts ours, v1 only the host's total."""
        try:
            if self.version == 2:
                for line in _read(self.folders["unified"] / "cgroup.stat").splitlines():
                    key, _, value = line.partition(" ")
                    if key == "nr_dying_descendants":
                        return int(value)
                return None
            for line in _read("/proc/cgroups").splitlines():
                fields = line.split()
                if fields and fields[0] == "memory":
                    live = sum(1 for _ in os.walk(_cgroup_mounts()["memory"]))
                    return int(fields[2]) - live
        except (OSError, ValueError, KeyError):
            return None
        return None


@dataclass
class RunGroup:
    backend: Backend
    paths: dict[str, Path]
    _start_cpu_ns: int = field(default=0)
    _start_oom: int = field(default=0)

    @property
    def v2(self) -> bool:
        return self.backend.version == 2

    @property
    def cores(self) -> int:
        """How many cores' worth of CPU the tree can use at once (its quota, or the host's cores)."""
        return CPU_CORES if self.v2 or "cpu" in self.paths else os.cpu_count() or 1

    def _path(self, controller: str) -> Path:
        return self.paths["unified" if self.v2 else controller]

    def create(self, limits: Limits, *, processes: int) -> None:
        """Make the group and set its limits; the caller then ``attach``es the run's first process."""
        for path in self.paths.values():
            path.mkdir()
        try:
            if self.v2:
                _write(self._path("memory") / "memory.max", limits.memory_bytes)
                _write_if_present(self._path("memory") / "memory.swap.max", 0)
                _write(self._path("pids") / "pids.max", processes)
                _write(self._path("cpu") / "cpu.max", f"{CPU_PERIOD_US * CPU_CORES} {CPU_PERIOD_US}")
            else:
                memory = self._path("memory")
                _write(memory / "memory.limit_in_bytes", limits.memory_bytes)
                _write_if_present(memory / "memory.memsw.limit_in_bytes", limits.memory_bytes)
                _write_if_present(memory / "memory.swappiness", 0)
                _write(self._path("pids") / "pids.max", processes)
                if "cpu" in self.paths:
                    _write(self._path("cpu") / "cpu.cfs_period_us", CPU_PERIOD_US)
                    _write(self._path("cpu") / "cpu.cfs_quota_us", CPU_PERIOD_US * CPU_CORES)
        except OSError:
            self.remove()
            raise

    def attach(self, pid: int) -> None:
        for path in self.paths.values():
            _write(path / "cgroup.procs", pid)

    def cpu_ns(self) -> int:
        if self.v2:
            for line in _read(f"{self._path('cpu')}/cpu.stat").splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * 1000
            return 0
        return int(_read(f"{self._path('cpuacct')}/cpuacct.usage"))

    def peak_memory(self) -> int | None:
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        try:
            return int(_read(f"{self._path('memory')}/{name}"))
        except (OSError, ValueError):
            return None

    def oom_kills(self) -> int:
        name = "memory.events" if self.v2 else "memory.oom_control"
        for line in _read(f"{self._path('memory')}/{name}").splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def measure(self) -> tuple[int, int | None, int]:
        """CPU time (ns), peak memory (bytes) and OOM kills of the run, read before the group goes."""
        return self.cpu_ns(), self.peak_memory(), self.oom_kills()

    def pids(self) -> list[int]:
        pids: set[int] = set()
        for path in self.paths.values():
            try:
                pids.update(int(p) for p in _read(f"{path}/cgroup.procs").split())
            except FileNotFoundError:
                continue
        return sorted(pids)

    def kill(self, *, timeout: float = 5.0) -> None:
        """SIGKILL every process in the group until it is empty."""
        if self.v2 and (self._path("memory") / "cgroup.kill").exists():
            _write(self._path("memory") / "cgroup.kill", 1)
        deadline = time.monotonic() + timeout
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.001)

    def page_cache(self) -> int:
        """Bytes of file pages (page cache) charged to the group, read from its ``memory.stat``."""
        key = "file" if self.v2 else "cache"
        try:
            for line in _read(f"{self._path('memory')}/memory.stat").splitlines():
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
        except (OSError, ValueError, KeyError):
            pass
        return 0

    def free_page_cache(self) -> int:
        """Free the page cache the run brought in (the group must be empty); return what is still charged."""
        cached = self.page_cache()
        if cached:
            try:
                if self.v2:
                    _write(self._path("memory") / "memory.reclaim", cached)
                else:
                    _write(self._path("memory") / "memory.force_empty", 0)
            except OSError:
                pass  # EAGAIN (v2): not all of it could be reclaimed; what is left is reported
            cached = self.page_cache()
        return cached

    def remove(self) -> int:
        """Kill what is left, free its page cache and remove the group; return the page cache left charged.

        (A killed process may take a moment to leave the group.)
        """
        self.kill()
        left = self.free_page_cache()
        for path in self.paths.values():
            for _ in range(500):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)
        return left


def _read(path: Path | str) -> str:
    """Read a small cgroup file with two syscalls (this is on every run's path)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        return os.read(fd, 65536).decode()
    finally:
        os.close(fd)


def _write(path: Path | str, value: object) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.write(fd, str(value).encode())
    finally:
        os.close(fd)


def _write_if_present(path: Path, value: object) -> None:
    try:
        _write(path, value)
    except FileNotFoundError:
        pass


@dataclass(frozen=True)
class Detection:
    backend: Backend | None
    reason: str  # why there is none, in Korean; "" when there is one


@functools.cache
def detect() -> Detection:
    """Find where this process may make run groups, once per process."""
    if not os.path.exists("/proc/self/cgroup"):
        return Detection(None, "cgroup을 찾을 수 없습니다")
    own = _own_cgroups()
    mounts = _cgroup_mounts()
    if "unified" in mounts and mounts["unified"] == Path("/sys/fs/cgroup"):
        return _detect_v2(mounts["unified"], own.get("", "/"))
    return _detect_v1(mounts, own)


def _detect_v2(mount: Path, own: str) -> Detection:
    here = mount / own.lstrip("/")
    try:
        delegated = set((here / "cgroup.subtree_control").read_text().split())
    except OSError:
        delegated = set()
    if not {"memory", "pids", "cpu"} <= delegated or not os.access(here, os.W_OK):
        return Detection(None, "cgroup v2에서 memory·pids·cpu가 이 프로세스에 위임되지 않았습니다")
    return _probe(Backend(2, {"unified": here / FOLDER}))


def _detect_v1(mounts: dict[str, Path], own: dict[str, str]) -> Detection:
    folders = {}
    for controller in V1_CONTROLLERS:
        if controller not in mounts or controller not in own:
            continue
        here = mounts[controller] / own[controller].lstrip("/")
        if os.access(here, os.W_OK):
            # A run's cpu group sits right under the runner's own group, so each run weighs
            # like one process against the rest of the host (a shared folder would make all
            # runs together weigh like one, or favour a lone run over bare processes).
            folders[controller] = here if controller == "cpu" else here / FOLDER
    missing = [c for c in V1_REQUIRED if c not in folders]
    if missing:
        why = "root가 아니어서" if os.geteuid() != 0 else "마운트되지 않았거나 쓸 수 없어서"
        return Detection(None, f"cgroup v1 {', '.join(missing)}에 실행 그룹을 만들 수 없습니다 ({why})")
    return _probe(Backend(1, folders))


def _probe(backend: Backend) -> Detection:
    """Make and remove one group, so a host that only looks capable is found out before the first run."""
    try:
        for folder in backend.folders.values():
            folder.mkdir(mode=0o755, exist_ok=True)
        _share_cpu_like_slots(backend)
        probe = backend.group(new_name())
        probe.create(Limits(), processes=4)
        probe.remove()
    except OSError as exc:
        return Detection(None, f"실행 그룹을 만들지 못했습니다: {exc.strerror or exc}")
    return Detection(backend, "")


def _share_cpu_like_slots(backend: Backend) -> None:
    """On v2, weigh the folder holding every run like ``SLOTS_WEIGHT`` busy processes, not like one.

    (On v1 each run's cpu group is made beside the runner's, so needs no weight.)
    """
    if backend.version == 2:
        _write(backend.folders["unified"] / "cpu.weight", 100 * SLOTS_WEIGHT)


def _own_cgroups() -> dict[str, str]:
    """Controller → this process's cgroup path ("" is the unified hierarchy)."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            own[controller] = path
    return own


def _cgroup_mounts() -> dict[str, Path]:
    """Controller → mount point of its hierarchy ("unified" for cgroup2)."""
    mounts: dict[str, Path] = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fstype, _source, options = (right.split() + ["", "", ""])[:3]
        mountpoint = Path(left.split()[4])
        if fstype == "cgroup2":
            mounts.setdefault("unified", mountpoint)
        elif fstype == "cgroup":
            for option in options.split(","):
                if option in V1_CONTROLLERS:
                    mounts.setdefault(option, mountpoint)
    return mounts
