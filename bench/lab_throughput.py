"""Trivial sandboxed runs per second, with as many concurrent workers as cores.

Last line: ``runs_per_s=<value>``. Goal: >= 60 on 2 cores. Figures on a shared machine are
noisy: they count every other process on the host too.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from concurrent.futures import ThreadPoolExecutor

from _common import setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    setup_django()
    from exercises.labs import conf
    from exercises.labs.sandbox import run_python

    limits, config = conf.limits(), conf.sandbox_config()

    def one(_: int) -> str:
        return run_python("print('ok')", limits=limits, config=config).status

    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        list(pool.map(one, range(args.workers * 4)))  # warm up
        cpu_before = _cpu_seconds()
        started = time.perf_counter()
        statuses = list(pool.map(one, range(args.n)))
        elapsed = time.perf_counter() - started
        cpu = _cpu_seconds() - cpu_before
    failed = len([s for s in statuses if s != "ok"])
    print(f"workers={args.workers} runs={args.n} failed={failed} seconds={elapsed:.2f}")
    # CPU time per run (the worker and every process of the runs): what the runs cost,
    # whatever else the host is doing; cores / that cost is what the host could sustain.
    per_run = cpu / args.n
    print(f"cpu per run={per_run * 1000:.1f} ms; capacity on {os.cpu_count()} cores="
          f"{(os.cpu_count() or 1) / per_run:.1f} runs/s if nothing else runs")
    print(f"runs_per_s={args.n / elapsed:.1f}")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
