"""Warm, single-use sandboxes (exercises/labs/sandbox/warm.py) against the real sandbox.

A warm run must be indistinguishable from a cold one in what it computes and
how it ends, must never share anything with another run, and must hold every
hostile case of the self-test; when the pool cannot serve, the run starts cold.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from exercises.labs import conf
from exercises.labs.sandbox import Limits, run_python, slots, warm
from exercises.labs.sandbox.limits import MIB
from exercises.labs.sandbox.runner import enforcement
from exercises.labs.sandbox.selftest import (
    CATALOGUE,
    SELFTEST_LIMITS,
    Hostile,
    check_one,
    run_selftest,
)
from tests.exercises.labs.helpers import groups_left

SMALL = Limits(cpu_seconds=1, wall_seconds=3.0, memory_bytes=64 * MIB)


@pytest.fixture
def pool() -> Iterator[warm.Pool]:
    with warm.Pool(conf.sandbox_config(), SMALL, size=2) as sandboxes:
        assert sandboxes.wait_ready(2, timeout=20), "the pool made no sandbox"
        yield sandboxes


def warm_run(pool: warm.Pool, code: str, **kwargs: object):
    """One run that must take a warm sandbox (it waits until one is ready)."""
    assert pool.wait_ready(1, timeout=20)
    used = pool.used
    result = run_python(code, limits=SMALL, config=pool.config, pool=pool, **kwargs)  # type: ignore[arg-type]
    assert pool.used == used + 1, "the run did not take a warm sandbox"
    return result


PROGRAM = """
import sys
print(open('data.txt', encoding='utf-8').read().strip(), sys.stdin.read().strip(), sys.argv, __name__)
print('to stderr', file=sys.stderr)
def f():
    raise ValueError('끝')
f()
"""


def test_a_warm_run_ends_as_a_cold_one_does(pool: warm.Pool) -> None:
    """Same program, files and input: the same output, traceback (from main.py, with its source line) and outcome."""
    kwargs = {"files": {"data.txt": "자료 한 줄\n".encode()}, "stdin": b"input"}
    cold = run_python(PROGRAM, limits=SMALL, config=pool.config, **kwargs)  # type: ignore[arg-type]
    hot = warm_run(pool, PROGRAM, **kwargs)
    assert (hot.status, hot.exit_code, hot.signal, hot.stdout, hot.stderr) == \
        (cold.status, cold.exit_code, cold.signal, cold.stdout, cold.stderr)
    assert hot.stdout == "자료 한 줄 input ['main.py'] __main__\n"
    assert '  File "/sandbox/main.py", line 6, in f' in hot.stderr and "raise ValueError('끝')" in hot.stderr
    assert hot.accounting == cold.accounting and hot.basis == cold.basis


def test_a_warm_run_without_input_reads_nothing_and_a_syntax_error_shows_as_python_shows_it(pool: warm.Pool) -> None:
    """No input: standard input is empty (as /dev/null); a syntax error has no traceback header, as cold."""
    assert warm_run(pool, "import sys; print(repr(sys.stdin.read()))").stdout == "''\n"
    broken = warm_run(pool, "def (:\n")
    assert broken.status == "error" and broken.stderr.startswith('  File "/sandbox/main.py", line 1')


def test_limits_and_outcomes_hold_in_a_warm_sandbox(pool: warm.Pool) -> None:
    """The wall clock starts at the job, and the CPU, memory and output limits end a warm run as they end a cold one."""
    loop = warm_run(pool, "while True: pass")
    assert loop.status == "timeout", (loop.status, loop.basis, loop.cpu_ms, loop.wall_ms, loop.signal)
    assert warm_run(pool, "x = bytearray(200 * 1024 * 1024)").status == "memory"
    flood = warm_run(pool, "print('x' * 10_000_000)")
    assert flood.status == "output_limit" and flood.truncated
    assert warm_run(pool, "import os; os.kill(os.getpid(), 9)").status == "killed"


STATE = """
import json, os, random
seen = os.path.exists('/sandbox/left-behind')
open('/sandbox/left-behind', 'w').write('from an earlier run')
print(json.dumps({
    "cgroup": open('/proc/self/cgroup').read(),
    "random": random.getrandbits(64),
    "urandom": os.urandom(16).hex(),
    "hash": hash('같은 글자'),
    "seen": seen,
}))
"""


def test_two_runs_never_share_a_sandbox_a_cgroup_or_random_state(pool: warm.Pool) -> None:
    """Each run gets a new sandbox: its own cgroup (gone after the run), tmpfs, hash seed and random state."""
    made = pool.made
    states = [json.loads(warm_run(pool, STATE).stdout) for _ in range(4)]
    assert not any(state["seen"] for state in states), "a run saw a file an earlier run left"
    for key in ("cgroup", "random", "urandom", "hash"):
        assert len({str(state[key]) for state in states}) == 4, f"two runs shared {key}"
    assert pool.made >= made + 4 - 2, "a used sandbox was not replaced by a new one"
    backend_paths = [line.split(":", 2)[2] for state in states for line in state["cgroup"].splitlines()
                     if "geungeo-run-" in line]
    assert backend_paths, "runs were not in a group of their own"
    assert pool.settle(timeout=10)
    # Each run's group was removed with its sandbox. Looked up by its own path under every hierarchy, not by a
    # walk of the tree: other test processes make and remove groups meanwhile, and a walk trips over those.
    hierarchies = [Path("/sys/fs/cgroup"), *Path("/sys/fs/cgroup").iterdir()]
    for path in backend_paths:
        left = [str(root / path.lstrip("/")) for root in hierarchies if (root / path.lstrip("/")).exists()]
        assert not left, f"a run's group outlived its run: {left}"


def test_a_pool_serves_only_its_own_limits_and_never_holds_more_than_its_size(pool: warm.Pool) -> None:
    """A run with other limits starts cold; the pool stays at its size however long it waits."""
    used = pool.used
    other = dataclasses.replace(SMALL, wall_seconds=2.5)
    assert run_python("print('cold')", limits=other, config=pool.config, pool=pool).stdout == "cold\n"
    assert pool.used == used
    time.sleep(0.3)
    assert pool.ready() == 2


def test_a_sandbox_that_died_while_waiting_is_replaced_by_a_cold_start(pool: warm.Pool) -> None:
    """A warm sandbox killed before its job is discarded; the run starts cold and still runs."""
    with pool._changed:
        for sandbox in pool._ready:
            os.killpg(sandbox.process.pid, 9)
    time.sleep(0.1)
    result = run_python("print('still runs')", limits=SMALL, config=pool.config, pool=pool)
    assert result.status == "ok" and result.stdout == "still runs\n"


def test_a_sandbox_idle_too_long_is_replaced_and_a_run_sees_little_idle_time() -> None:
    """Past ``max_idle`` a waiting sandbox is thrown away unused, so a run's clocks show at most that idle time."""
    with warm.Pool(conf.sandbox_config(), SMALL, size=1, max_idle=0.3) as sandboxes:
        assert sandboxes.wait_ready(1, timeout=20)
        time.sleep(1.2)
        assert sandboxes.made >= 2
        result = run_python("import time; print(time.monotonic())", limits=SMALL, config=sandboxes.config,
                            pool=sandboxes)
        if os.geteuid() == 0:  # a root runner gives each run a time namespace starting near zero
            assert float(result.stdout) < 3.0


def test_a_sandbox_is_offered_only_once_its_interpreter_has_started(groups_made: list[str]) -> None:
    """A sandbox whose interpreter cannot start (here: 2 MiB of memory) is destroyed unused with its group and
    slot, and ``make`` says why, so a run never waits on an interpreter still starting or never to start."""
    config = conf.sandbox_config()
    with pytest.raises(warm.SetupFailed, match="인터프리터가 시작되지 않았습니다"):
        warm.make(config, dataclasses.replace(SMALL, memory_bytes=2 * MIB))
    for slot in range(config.slots):
        with slots.hold(config, slot, timeout=5) as held:
            assert held, f"slot {slot} is still held"
    backend, _ = enforcement(config)
    assert groups_left(backend, groups_made) == [], "the failed sandbox's group was left behind"


def test_a_closed_pool_leaves_no_process_group_or_slot_behind(groups_made: list[str]) -> None:
    """Closing destroys the waiting sandboxes: their slot users have no process left and every slot is free."""
    config = conf.sandbox_config()
    with warm.Pool(config, SMALL, size=2) as sandboxes:
        assert sandboxes.wait_ready(2, timeout=20)
        waiting = [s.uid for s in sandboxes._ready]
    for uid in waiting:
        if uid is not None:
            assert slots.processes_of(uid) == []
    for slot in range(config.slots):
        with slots.hold(config, slot, timeout=5) as held:
            assert held, f"slot {slot} is still held"
    backend, _ = enforcement(config)
    assert groups_left(backend, groups_made) == [], "a warm sandbox's group outlived the pool"


def test_the_self_test_passes_with_the_pool_on() -> None:
    """The worker's self-test, run as the worker runs it (its catalogue in warm sandboxes), passes whole."""
    verdicts = run_selftest(conf.sandbox_config(), warm=2)
    failed = [(v.name, v.status, v.note) for v in verdicts if not v.passed]
    assert not failed


@pytest.fixture(scope="module")
def selftest_pool() -> Iterator[warm.Pool]:
    with warm.Pool(conf.sandbox_config(), SELFTEST_LIMITS, size=2) as sandboxes:
        yield sandboxes


@pytest.mark.parametrize("hostile", CATALOGUE, ids=lambda h: h.name)
def test_hostile_program_is_contained_in_a_warm_sandbox(hostile: Hostile, selftest_pool: warm.Pool) -> None:
    """Every hostile case of the self-test is contained when it runs in a warm sandbox."""
    assert selftest_pool.wait_ready(1, timeout=20)
    used = selftest_pool.used
    verdict = check_one(hostile, limits=SELFTEST_LIMITS, config=selftest_pool.config, pool=selftest_pool)
    assert selftest_pool.used > used
    assert verdict.contained, f"{hostile.name}: {verdict.status} {verdict.note}"
