"""The runner against the real sandbox: per-run cgroups, outcomes from the kernel, the host side, visible output."""

from __future__ import annotations

import dataclasses
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from exercises.labs import conf, services
from exercises.labs.models import Lab, LabRun
from exercises.labs.sandbox import Limits, cgroups, run_python, runner, seccomp, slots
from exercises.labs.sandbox.limits import MIB
from exercises.labs.sandbox.output import visible
from exercises.labs.sandbox.runner import IPC_LIMITS, enforcement, interpreter
from exercises.labs.sandbox.selftest import FORK_ALLOCATE, FORK_BURN, MEMFD, SHM, check_dying_groups
from tests.exercises.labs.helpers import groups_left

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="slot users, cgroups and IPC limits need root")
SMALL = Limits(cpu_seconds=1, wall_seconds=3.0, memory_bytes=64 * MIB)


def run(code: str, *, limits: Limits = SMALL, **config_changes: object):
    config = dataclasses.replace(conf.sandbox_config(), **config_changes)
    return run_python(code, limits=limits, config=config)


def needs_cgroups() -> cgroups.Backend:
    backend, _ = enforcement(conf.sandbox_config())
    if backend is None:
        pytest.skip("this host offers no cgroup for runs (the rlimit fallback is tested separately)")
    return backend


# Outcomes come from the kernel, not from the program.

def test_an_exit_code_of_139_is_an_exit_code_not_a_segfault() -> None:
    result = run("import sys\nsys.exit(139)")
    assert (result.status, result.exit_code, result.signal) == ("error", 139, None)
    assert "종료 코드 139" in result.basis


def test_a_real_segfault_is_a_signal() -> None:
    result = run("import ctypes\nctypes.string_at(0)")
    assert (result.status, result.exit_code, result.signal) == ("killed", None, 11)


def test_printing_memory_error_is_not_out_of_memory() -> None:
    printed = run("import sys\nprint('MemoryError', file=sys.stderr)\nsys.exit(1)")
    raised = run("raise MemoryError('pretend')")
    assert printed.status == raised.status == "error"
    assert raised.stderr.rstrip().endswith("MemoryError: pretend")


def test_the_program_cannot_write_pid1s_status_channel() -> None:
    """/proc/1 is hidden from the program (same user as PID 1), so it cannot reach PID 1's descriptors."""
    result = run("import os\ntry:\n    os.listdir('/proc/1/fd')\n    print('listed')\nexcept OSError as e:\n"
                 "    print(type(e).__name__)\nraise SystemExit(4)")
    assert result.stdout.strip() == "FileNotFoundError" and result.exit_code == 4


def test_traceback_starts_at_main_py() -> None:
    result = run("def f():\n    raise ValueError('x')\nf()")
    assert result.stderr.splitlines()[1].startswith('  File "/sandbox/main.py", line 3')
    assert "<string>" not in result.stderr


def test_syntax_error_looks_like_python_main_py() -> None:
    result = run("x = (")
    assert result.status == "error" and "Traceback" not in result.stderr and "SyntaxError" in result.stderr


# A cgroup per run.

def test_memory_limit_holds_for_the_whole_tree() -> None:
    """Six children asking for 200 MiB each: the run's group stops them at its limit."""
    needs_cgroups()
    result = run(FORK_ALLOCATE)
    assert result.status in {"memory", "timeout"} and result.accounting.startswith("cgroup")
    assert result.peak_memory_bytes is not None and result.peak_memory_bytes <= SMALL.memory_bytes + 4 * MIB


def test_memfd_pages_are_counted() -> None:
    needs_cgroups()
    result = run(MEMFD)
    assert result.status == "memory", result.stdout
    assert "oom_kill" in result.basis and result.peak_memory_bytes <= SMALL.memory_bytes + 4 * MIB


@root_only
def test_sysv_shared_memory_has_small_limits_in_the_runs_namespace() -> None:
    needs_cgroups()
    limits = run("for n in ('shmmax', 'shmall', 'shmmni', 'msgmnb'):\n"
                 "    print(open('/proc/sys/kernel/' + n).read().strip())")
    assert limits.stdout.split() == [str(IPC_LIMITS[n]) for n in ("shmmax", "shmall", "shmmni", "msgmnb")]
    held = run(SHM)
    assert held.status == "ok" and "held 1" in held.stdout, held.stdout
    host_shmmax = Path("/proc/sys/kernel/shmmax").read_text().strip()
    assert host_shmmax != str(IPC_LIMITS["shmmax"]), "the host's limits stay as they were"


BURST = """
import time
while True:
    end = time.perf_counter() + 0.0005
    while time.perf_counter() < end:
        pass
    time.sleep(0.0003)
"""


def test_a_loop_beside_busy_processes_gets_its_whole_cpu_limit_and_is_named_a_timeout() -> None:
    """The CPU limit is the cgroup's exact count, not RLIMIT_CPU's tick sampling.

    Beside processes that wake and sleep often, the kernel charges a CPU-bound
    program whole ticks it shared. With RLIMIT_CPU as the limit, this loop was
    ended by SIGKILL at 945-954 ms of its 1 s here, and at 846-880 ms beside the
    parallel test suite, where the run was named "killed". It must run its full
    second and be named a CPU timeout, by the cgroup's count.
    """
    needs_cgroups()
    neighbours = [subprocess.Popen([sys.executable, "-c", BURST]) for _ in range(6)]
    try:
        time.sleep(0.2)
        result = run("while True:\n    pass", limits=Limits(cpu_seconds=1, wall_seconds=20.0, memory_bytes=64 * MIB))
    finally:
        for neighbour in neighbours:
            neighbour.kill()
            neighbour.wait()
    assert result.status == "timeout", result
    assert "cgroup CPU" in result.basis, result
    assert result.cpu_ms >= 1000, result


def test_cpu_time_of_children_nobody_waited_for_is_counted_and_bounded() -> None:
    needs_cgroups()
    result = run(FORK_BURN)
    assert result.status == "timeout"
    assert 100 <= result.cpu_ms <= SMALL.cpu_seconds * 1000 + 300, result
    if result.wall_ms < SMALL.wall_seconds * 1000:
        assert "cgroup CPU" in result.basis


def test_process_count_is_bounded_by_the_group() -> None:
    needs_cgroups()
    code = ("import os, time\nn = 0\ntry:\n    for _ in range(100):\n        if os.fork() == 0:\n"
            "            time.sleep(2)\n            os._exit(0)\n        n += 1\nexcept OSError:\n    pass\nprint(n)")
    result = run(code, limits=dataclasses.replace(SMALL, processes=8))
    assert result.status == "ok" and int(result.stdout) <= 8


def test_trivial_run_records_cgroup_usage_and_leaves_no_group(groups_made: list[str]) -> None:
    """A run is counted in a group of its own, and that group is removed when the run ends."""
    backend = needs_cgroups()
    result = run("print('hi')")
    assert result.status == "ok" and result.cpu_ms > 0 and result.peak_memory_bytes > 0
    assert groups_made, "the run made no group"
    assert groups_left(backend, groups_made) == [], "the run's group is removed"


def test_a_runs_cgroup_path_names_neither_the_worker_nor_a_count_of_runs() -> None:
    """The program reads its group's path; the name is random, not the worker's pid and run counter."""
    needs_cgroups()
    names = []
    for _ in range(2):
        result = run("print(open('/proc/self/cgroup').read())")
        paths = [line.split(":", 2)[2] for line in result.stdout.splitlines() if line.count(":") >= 2]
        names.append({path.rsplit("/", 1)[1] for path in paths} - {""})
    for found in names:
        assert len(found) == 1 and cgroups.is_run_name(next(iter(found))), found
        assert str(os.getpid()) not in next(iter(found))
    assert names[0] != names[1]


@root_only
def test_a_group_left_by_a_crashed_worker_is_emptied_when_its_slot_is_taken(tmp_path: Path) -> None:
    """The slot's lock file holds the name of its last group; the next worker to take the slot removes it."""
    backend = needs_cgroups()
    config = dataclasses.replace(conf.sandbox_config(), state_dir=tmp_path / "state", slots=1)
    name = cgroups.new_name()
    slots.note(config, 0, name)
    stale = backend.group(name)
    stale.create(SMALL, processes=4)
    sleeper = subprocess.Popen(["sleep", "30"])
    stale.attach(sleeper.pid)
    result = run("print('next')", state_dir=config.state_dir, slots=1)
    assert result.status == "ok"
    assert sleeper.wait(timeout=5) == -9
    assert not any(p.exists() for p in stale.paths.values())


def test_the_page_cache_a_run_brought_in_is_freed_before_its_group_is_removed() -> None:
    """Pages left charged would keep the removed group dying; the runner frees them first, and the
    self-test's dying-group check passes."""
    needs_cgroups()
    config = conf.sandbox_config()
    target = Path(interpreter(config.python).stdlib) / "pydoc_data" / "topics.py"
    if not target.is_file():
        pytest.skip("this interpreter has no pydoc_data/topics.py to read")
    fd = os.open(target, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    result = run(f"print(len(open({str(target)!r}, 'rb').read()))")
    assert result.status == "ok" and int(result.stdout) == target.stat().st_size
    assert result.page_cache_left_bytes == 0
    verdict = check_dying_groups(config)
    assert verdict is not None and verdict.contained, verdict


@root_only
def test_an_oom_score_that_does_not_take_refuses_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner reads the score back: a write the kernel refused is not ignored."""
    monkeypatch.setattr(runner, "OOM_SCORE_ADJ", b"1001")  # out of range: the kernel refuses it
    result = run("print('ran')")
    assert result.status == "refused" and "oom_score_adj" in result.stderr and "ran" not in result.stdout


def test_byte_at_a_time_output_wakes_the_runner_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program writing one byte at a time cannot make the worker read (and spend CPU) once per byte."""
    calls = []

    class CountingSelector(selectors.DefaultSelector):
        def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
            calls.append(timeout)
            return super().select(timeout)

    monkeypatch.setattr(runner.selectors, "DefaultSelector", CountingSelector)
    code = ("import os, time\nfor i in range(20000):\n    os.write(1, b'x')\n    t = time.perf_counter()\n"
            "    while time.perf_counter() - t < 5e-5:\n        pass")
    result = run(code, limits=Limits(cpu_seconds=10, wall_seconds=20.0, memory_bytes=64 * MIB))
    assert result.status == "ok" and result.stdout == "x" * 20000
    bound = runner.PACE_AFTER_ROUNDS + result.wall_ms / 1000 / runner.PACE_SECONDS + 10
    assert len(calls) <= bound, (len(calls), bound)


def test_the_output_cap_counts_the_stored_text() -> None:
    """Each C0 control is stored as a three-byte mark: the cap holds for what is stored, and says it cut."""
    result = run("import sys\nsys.stdout.write('\\x01' * 30000)", limits=dataclasses.replace(SMALL, output_bytes=32 * 1024))
    assert result.status == "ok" and result.truncated
    assert len(result.stdout.encode()) <= 32 * 1024 and set(result.stdout) == {"\u2401"}


# seccomp as an allow-list.

def test_filter_refuses_by_default_and_denies_inotify() -> None:
    assert "inotify_init1" in seccomp.DENIED_SYSCALLS and "inotify_init1" not in seccomp.ALLOWED_SYSCALLS
    result = run("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                 "for n in (451, 457, 458, 462, 467, 444):\n    print(libc.syscall(n, 0, 0, 0, 0, 0), ctypes.get_errno())\n"
                 "print(libc.inotify_init1(0), ctypes.get_errno())")
    lines = result.stdout.splitlines()
    assert lines[:6] == ["-1 38"] * 6, "newer syscalls answer ENOSYS"
    assert lines[6] == "-1 1", "inotify answers EPERM"


def test_python_and_its_standard_library_work_under_the_allow_list() -> None:
    code = ("import json, sqlite3, subprocess, sys, threading, tempfile, hashlib, asyncio, socket, select\n"
            "a, b = socket.socketpair()\na.send(b'x')\nassert b.recv(1) == b'x'\n"
            "db = sqlite3.connect(':memory:')\ndb.execute('create table t(x)')\n"
            "t = threading.Thread(target=lambda: None)\nt.start()\nt.join()\n"
            "with tempfile.NamedTemporaryFile() as f:\n    f.write(b'x')\n"
            "out = subprocess.run([sys.executable, '-c', 'print(2)'], capture_output=True, text=True).stdout\n"
            "print(asyncio.run(asyncio.sleep(0, 'ok')), out.strip(), hashlib.sha256(b'').hexdigest()[:4])")
    result = run(code)
    assert result.status == "ok" and result.stdout.split() == ["ok", "2", "e3b0"], result.stderr


# Less of the host in /proc.

def test_host_describing_proc_entries_are_masked() -> None:
    code = ("for name in ('cmdline', 'meminfo', 'loadavg', 'uptime', 'stat', 'cpuinfo'):\n    try:\n"
            "        print(len(open('/proc/' + name).read()))\n    except OSError as exc:\n        print(type(exc).__name__)\n"
            "import os\nprint(len(os.listdir('/proc/pressure')), len(open('/proc/self/status').read()) > 0)")
    result = run(code)
    lines = result.stdout.splitlines()
    assert all(line in {"0", "PermissionError"} for line in lines[:6]), lines
    assert lines[6] == "0 True", "the program's own entries stay readable"


# Output made visible before it is stored.

def test_visible_marks_for_controls_bidi_and_zero_width() -> None:
    assert visible("a\x1b[31mb\x07\u202ec\u2066d\u200be\x9bf\tg\n\r") == (
        "a\u241b[31mb\u2407<U+202E>c<U+2066>d<U+200B>e<U+009B>f\tg\n\r")
    assert visible("한국어 그대로") == "한국어 그대로"


def test_visible_marks_every_format_character_hangul_filler_and_variation_selector() -> None:
    """Tag characters, Hangul fillers, variation selectors and every other Cf character become marks."""
    import unicodedata

    hidden = ("\U000E0001\U000E0041\U000E007F", "\u115f\u1160\u3164\uffa0", "\ufe00\ufe0f\U000E0100\U000E01EF",
              "\u0600\u06dd\u2061\U0001D173\U000110BD")
    for text in hidden:
        shown = visible(text)
        assert shown == "".join(f"<U+{ord(c):04X}>" for c in text), shown
    every_format = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    assert not set(visible("".join(every_format))) & set(every_format)
    assert visible("가각 e\u0301 👍🏽") == "가각 e\u0301 👍🏽", "letters, combining marks and emoji modifiers stay"


@pytest.mark.django_db(transaction=True)
def test_the_stored_record_holds_visible_output_and_cgroup_usage(learner: User, replay_lab: Lab,
                                                                 drain_queue) -> None:
    code = "print('\\x1b[2J\\u202e뒤집힘')"
    run_record = services.request_run(user=learner, lab=replay_lab, code=code, step="run", idempotency_key="vis")
    drain_queue()
    run_record.refresh_from_db()
    assert run_record.status == LabRun.Status.OK
    assert run_record.stdout == "\u241b[2J<U+202E>뒤집힘\n"
    assert run_record.outcome_basis and run_record.accounting
    if run_record.accounting.startswith("cgroup"):
        assert run_record.peak_memory_bytes > 0


# A safe host side.

def test_a_lock_planted_as_a_link_is_not_followed(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    target = tmp_path / "owned-by-attacker"
    (state / "slot-0.lock").symlink_to(target)
    result = run("print('ran')", state_dir=state, slots=1)
    assert result.status == "refused" and "링크" in result.stderr
    assert not target.exists()


def test_a_state_folder_that_is_a_link_or_open_to_others_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert run("print(1)", state_dir=link).status == "refused"
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    result = run("print(1)", state_dir=shared)
    assert result.status == "refused" and "다른 사용자" in result.stderr
    assert list(shared.iterdir()) == [], "no lock is created in it"


@root_only
def test_a_state_folder_owned_by_someone_else_is_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign"
    foreign.mkdir(mode=0o700)
    os.chown(foreign, 65534, 65534)
    result = run("print(1)", state_dir=foreign)
    assert result.status == "refused" and "소유자" in result.stderr


@root_only
def test_the_default_state_folder_is_roots_and_private() -> None:
    """Without a configured folder, root's runs keep their slot locks in /run, owned by root and closed to others.

    The suite's processes each configure their own folder (tutor/settings/test.py), so this run names none."""
    assert run("print(1)", state_dir=None, slots=1).status == "ok"
    info = os.lstat("/run/geungeo-tutor-sandbox")
    assert info.st_uid == 0 and info.st_mode & 0o777 == 0o700


@root_only
def test_a_slot_uid_with_an_account_is_refused(tmp_path: Path) -> None:
    result = run("print(1)", state_dir=tmp_path / "s", slots=1, slot_uid_base=65534)  # nobody
    assert result.status == "refused" and "nobody" in result.stderr


@root_only
def test_a_slot_uid_with_a_process_is_refused_and_the_process_left_alone(tmp_path: Path) -> None:
    uid = 63990
    squatter = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "30"])
    try:
        time.sleep(0.2)
        result = run("print(1)", state_dir=tmp_path / "s", slots=1, slot_uid_base=uid)
        assert result.status == "refused" and str(uid) in result.stderr
        assert squatter.poll() is None, "a process that is not ours is never killed"
    finally:
        squatter.kill()
        squatter.wait()


@root_only
def test_uid_base_does_not_overlap_the_old_scheme() -> None:
    config = conf.sandbox_config()
    assert config.slot_uid_base >= 61000 + 8 or config.slot_uid_base + config.slots <= 61000


@root_only
def test_a_zombie_of_a_slot_user_is_not_a_live_process() -> None:
    """A slot user's exited-but-unreaped process is not counted as left behind; a live one is.

    A killed worker's sandbox processes go to the host's init, and an init
    that never reaps (this machine's) would otherwise refuse the slot for ever.
    """
    from exercises.labs.sandbox.slots import processes_of

    uid = conf.sandbox_config().slot_uid_base + 900  # beyond every slot, so no run uses it
    zombie = os.fork()
    if zombie == 0:
        os.setuid(uid)
        os._exit(0)
    live = subprocess.Popen(["sleep", "30"], user=uid)
    try:
        deadline = time.monotonic() + 5
        while Path(f"/proc/{zombie}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert processes_of(uid) == [live.pid]
    finally:
        live.kill()
        live.wait()
        os.waitpid(zombie, 0)
    assert processes_of(uid) == []


@root_only
def test_a_sandbox_a_killed_worker_left_waiting_is_ended_when_its_slot_is_next_taken() -> None:
    """bwrap's child waits for its parent before ``--die-with-parent`` is armed, so a worker killed in that
    moment leaves it waiting for ever as the slot user (a CI run's next worker then refused every run).
    The first take of the slot ends such sandbox processes; a process of that uid that is no sandbox's
    still makes the slot refused, and is not touched."""
    config = conf.sandbox_config()
    uid = config.slot_uid_base + 901  # beyond every slot, so no run uses it
    stuck = subprocess.Popen([config.bwrap, "--unshare-all", "--unshare-user", "--new-session", "--ro-bind", "/", "/",
                              "sleep", "600"], user=uid, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while len(slots.processes_of(uid)) < 2:  # bwrap outside and what runs in its namespace
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert all(slots.is_sandbox_process(pid, config.bwrap) for pid in slots.processes_of(uid))
        slots._verified_uids.discard(uid)
        slots.check_slot_user(uid, bwrap=config.bwrap)
        assert slots.processes_of(uid) == []
    finally:
        if stuck.poll() is None:
            stuck.kill()
        stuck.wait()
    foreign = subprocess.Popen(["sleep", "30"], user=uid + 1)
    try:
        slots._verified_uids.discard(uid + 1)
        with pytest.raises(slots.SlotProblem, match="도는 프로세스가 있어"):
            slots.check_slot_user(uid + 1, bwrap=config.bwrap)
        assert foreign.poll() is None
    finally:
        foreign.kill()
        foreign.wait()
