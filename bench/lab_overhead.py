"""Sandbox overhead: a bare ``python3 -I -S -c pass`` against the same program through the runner.

Four paths are measured in one run, each sandbox path interleaved with bare
runs, so machine noise hits them alike: bare, the full sandbox started cold (per-run cgroup when the host
offers one), the same with cgroups turned off (the rlimit fallback), and a run that takes a warm
single-use sandbox from a worker's pool (``warm.Pool``: made before the click, used once, destroyed).
A warm run is timed the way a learner meets it: from the program handed to ``run_python`` to its
classified result, with its sandbox already made (the pool refills between runs, untimed, as it does
between a class's clicks). Its CPU cost is the whole cost of a run, making and removal included. The cost of the
cgroup alone (make the group, set its limits, read its usage, remove it) is
timed apart. The CPU time each path costs (this process and every process
it waited for) is printed too: unlike the wall clock, it does not grow when
other work on the host delays each of the run's processes in turn. The cost
of attaching a process to a run's cgroup is timed apart too (the runner has no
per-phase timings, so a sleeping process is attached to a fresh group).

The whole measurement is repeated ``--repeats`` times (``-n`` runs of each path
each time); every figure is the median over the repeats with its min–max and
p25–p75, beside the 1-minute load average. Last line: ``ratio=<median
sandboxed / median bare>`` with its spread. Goal: ratio <= 2.0. Figures on a
shared machine are noisy; compare ratios taken side by side.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any

from _common import add_repeats_flag, repeat, setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=100, help="runs of each path per repeat")
    add_repeats_flag(parser)
    args = parser.parse_args()
    setup_django()
    from exercises.labs import conf
    from exercises.labs.sandbox import cgroups, run_python, warm
    from exercises.labs.sandbox.runner import enforcement

    limits, config = conf.limits(), conf.sandbox_config()
    fallback = dataclasses.replace(config, use_cgroups=False)
    backend, bounded_by = enforcement(config)
    python = config.python
    paths = {
        "bare": lambda: subprocess.run([python, "-I", "-S", "-c", "pass"], check=True),
        "sandboxed": lambda: _ok(run_python("pass", limits=limits, config=config)),
        "sandboxed, no cgroup": lambda: _ok(run_python("pass", limits=limits, config=fallback)),
    }
    pool = warm.Pool(config, limits, size=1)
    paths["sandboxed, warm"] = lambda: _ok(run_python("pass", limits=limits, config=config, pool=pool))

    def pool_ready() -> None:
        """Between warm runs, untimed: the last run's group removed and a fresh sandbox made."""
        if not (pool.settle(10) and pool.wait_ready(1, 10)):
            raise SystemExit("the warm pool did not refill within 10 s")

    for _ in range(10):  # warm caches on every path
        for name, path in paths.items():
            if name == "sandboxed, warm":
                pool_ready()
            path()

    def one_pass() -> dict[str, tuple[float, str]]:
        times: dict[str, list[float]] = {name: [] for name in paths}
        cpu: dict[str, list[float]] = {name: [] for name in paths}
        # Two passes, each interleaving one sandbox path with bare runs: a cgroup run right after a
        # run without one cost about 5 ms more (measured), and a site never mixes the two.
        for sandboxed in ("sandboxed", "sandboxed, no cgroup"):
            for _ in range(args.n):
                for name in ("bare", sandboxed):
                    cpu_before = _cpu_ms()
                    started = time.perf_counter()
                    paths[name]()
                    times[name].append((time.perf_counter() - started) * 1000)
                    cpu[name].append(_cpu_ms() - cpu_before)
        warm_bare, times["sandboxed, warm"], warm_cpu = _warm_block(paths["bare"], paths["sandboxed, warm"],
                                                                    pool_ready, args.n)
        cpu["sandboxed, warm"] = [max(0.0, warm_cpu - statistics.median(cpu["bare"]))]
        figures = {f"wall, {name}": (statistics.median(values), " ms") for name, values in times.items()}
        # CPU time spent on each path (this process and every process it waited for, directly
        # or through bwrap and PID 1): the cost of a run, which other load on the host does not change.
        figures.update({f"cpu cost, {name}": (statistics.median(values), " ms") for name, values in cpu.items()})
        if backend is not None:
            setup, attach = _cgroup_alone(backend, cgroups.new_name, limits, args.n)
            figures["cgroup set-up + read + removal alone (no process)"] = (statistics.median(setup), " ms")
            figures["cgroup attach alone (a sleeping process)"] = (statistics.median(attach), " ms")
        overhead = [b - a for a, b in zip(times["bare"][: args.n], times["sandboxed"], strict=True)]
        figures["overhead (sandboxed - bare)"] = (statistics.median(overhead), " ms")
        bare, bare_cpu = statistics.median(times["bare"]), statistics.median(cpu["bare"])
        figures["cpu cost ratio"] = (statistics.median(cpu["sandboxed"]) / bare_cpu, "")
        figures["cpu cost ratio without cgroup"] = (statistics.median(cpu["sandboxed, no cgroup"]) / bare_cpu, "")
        figures["ratio without cgroup"] = (statistics.median(times["sandboxed, no cgroup"]) / bare, "")
        figures["ratio"] = (statistics.median(times["sandboxed"]) / bare, "")
        # The warm run against the bare runs interleaved with it (goal <= 0.6x, aim 0.5x).
        figures["warm ratio"] = (statistics.median(times["sandboxed, warm"]) / statistics.median(warm_bare), "")
        return figures

    try:
        result = repeat(one_pass, args.repeats)
    finally:
        pool.close()
    print(f"enforcement: {bounded_by}; {args.n} runs per path per repeat, medians over {args.repeats} repeats")
    for name in result.figures:
        if name not in ("ratio", "warm ratio"):
            print(result.line(name))
    # Last lines, for scripts: ratio=<median over repeats of (median cold sandboxed / median bare)>,
    # then warm_ratio= for a run that found its warm sandbox ready.
    print(f"ratio={result.median('ratio'):.2f} ({result.line('ratio').split('(', 1)[1]}")
    print(f"warm_ratio={result.median('warm ratio'):.2f} ({result.line('warm ratio').split('(', 1)[1]}")


def _warm_block(bare: Callable[[], object], warm_run: Callable[[], object], pool_ready: Callable[[], None],
                n: int) -> tuple[list[float], list[float], float]:
    """Warm runs interleaved with bare ones: each one's wall clock as the learner meets it (its sandbox made,
    untimed, before), and the CPU per pair over the whole block, the pool's making and removal on its thread
    and in its children included (the caller takes a bare run's CPU off to leave the warm run's whole cost).
    """
    bare_ms: list[float] = []
    warm_ms: list[float] = []
    pool_ready()
    cpu_before = _cpu_ms()
    for _ in range(n):
        started = time.perf_counter()
        bare()
        bare_ms.append((time.perf_counter() - started) * 1000)
        pool_ready()
        started = time.perf_counter()
        warm_run()
        warm_ms.append((time.perf_counter() - started) * 1000)
    pool_ready()
    return bare_ms, warm_ms, (_cpu_ms() - cpu_before) / n


def _cgroup_alone(backend: Any, new_name: Callable[[], str], limits: Any, n: int) -> tuple[list[float], list[float]]:
    """Time the run group's own cost with no run: set-up + read + removal, and attaching a process.

    The runner exposes no per-phase timings, so the attach is measured alone: a sleeping
    process is moved into a fresh group (what the runner does to PID 1 before the program starts).
    A pause before each attach lets the kernel's last attach age out, as between real runs.
    """
    setup: list[float] = []
    attach: list[float] = []
    for _ in range(n):
        group = backend.group(new_name())
        started = time.perf_counter()
        group.create(limits, processes=limits.processes + 1)
        group.measure()
        group.remove()
        setup.append((time.perf_counter() - started) * 1000)
    for _ in range(n):
        group = backend.group(new_name())
        group.create(limits, processes=limits.processes + 1)
        sleeper = subprocess.Popen(["sleep", "30"])
        try:
            time.sleep(0.02)
            started = time.perf_counter()
            group.attach(sleeper.pid)
            attach.append((time.perf_counter() - started) * 1000)
        finally:
            sleeper.kill()
            sleeper.wait()
            group.remove()
    return setup, attach


def _cpu_ms() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) * 1000


def _ok(result: object) -> None:
    assert result.status == "ok", result  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
