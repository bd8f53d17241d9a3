"""Sandbox overhead: a bare ``python3 -I -S -c pass`` against the same program through the runner.

Three paths are measured in one run, each sandbox path interleaved with bare
runs, so machine noise hits them alike: bare, the full sandbox (per-run cgroup when the host offers one) and
the sandbox with cgroups turned off (the rlimit fallback). The cost of the
cgroup alone (make the group, set its limits, read its usage, remove it) is
timed apart. The CPU time each path costs (this process and every process
it waited for) is printed too: unlike the wall clock, it does not grow when
other work on the host delays each of the run's processes in turn. Last
line: ``ratio=<median sandboxed / median bare>``. Goal: ratio <= 2.0.
Figures on a shared machine are noisy; compare ratios taken side by side.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import subprocess
import time

from _common import percentile, setup_django, summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=200)
    args = parser.parse_args()
    setup_django()
    from exercises.labs import conf
    from exercises.labs.sandbox import run_python
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
    for _ in range(10):  # warm caches on every path
        for path in paths.values():
            path()
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
    print(f"enforcement: {bounded_by}")
    for name, values in times.items():
        print(summary(name, values))
    # CPU time spent on each path (this process and every process it waited for, directly
    # or through bwrap and PID 1): the cost of a run, which other load on the host does not change.
    for name, values in cpu.items():
        print(summary(f"cpu cost, {name}", values))
    if backend is not None:
        setup = []
        for _ in range(args.n):
            group = backend.group(0, "bench")
            started = time.perf_counter()
            group.create(limits, processes=limits.processes + 1)
            group.measure()
            group.remove()
            setup.append((time.perf_counter() - started) * 1000)
        print(summary("cgroup set-up + read + removal alone (no process)", setup))
    bare = statistics.median(times["bare"])
    overhead = [b - a for a, b in zip(times["bare"][: args.n], times["sandboxed"], strict=True)]
    print(f"overhead: median={statistics.median(overhead):.2f} ms p95={percentile(overhead, 95):.2f} ms")
    bare_cpu = statistics.median(cpu["bare"])
    print(f"cpu cost ratio={statistics.median(cpu['sandboxed']) / bare_cpu:.2f} "
          f"(without cgroup {statistics.median(cpu['sandboxed, no cgroup']) / bare_cpu:.2f})")
    print(f"ratio without cgroup={statistics.median(times['sandboxed, no cgroup']) / bare:.2f}")
    print(f"ratio={statistics.median(times['sandboxed']) / bare:.2f}")


def _cpu_ms() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) * 1000


def _ok(result: object) -> None:
    assert result.status == "ok", result  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
