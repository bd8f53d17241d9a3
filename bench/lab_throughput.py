"""Trivial sandboxed runs per second, with as many concurrent workers as cores.

The measurement is repeated ``--repeats`` times (``-n`` runs each); every figure is the
median over the repeats with its min–max and p25–p75, beside the 1-minute load average.
Last line: ``runs_per_s=<median>`` with its spread. Goal: >= 60 on 2 cores. Figures on a shared machine are
noisy: they count every other process on the host too.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from concurrent.futures import ThreadPoolExecutor

from _common import add_repeats_flag, repeat, setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=200, help="runs per repeat")
    add_repeats_flag(parser)
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

        failed: list[int] = []

        def one_pass() -> dict[str, tuple[float, str]]:
            cpu_before = _cpu_seconds()
            started = time.perf_counter()
            statuses = list(pool.map(one, range(args.n)))
            elapsed = time.perf_counter() - started
            cpu = _cpu_seconds() - cpu_before
            # CPU time per run (the worker and every process of the runs): what the runs cost,
            # whatever else the host is doing; cores / that cost is what the host could sustain.
            per_run = cpu / args.n
            failed.append(len([s for s in statuses if s != "ok"]))
            return {
                "cpu per run": (per_run * 1000, " ms"),
                f"capacity on {os.cpu_count()} cores if nothing else runs": ((os.cpu_count() or 1) / per_run, " runs/s"),
                "runs_per_s": (args.n / elapsed, ""),
            }

        result = repeat(one_pass, args.repeats)
    print(f"workers={args.workers} runs={args.n} per repeat, medians over {args.repeats} repeats; "
          f"failed={sum(failed)} of {args.n * len(failed)}")
    for name in result.figures:
        if name != "runs_per_s":
            print(result.line(name, digits=1))
    print(f"runs_per_s={result.median('runs_per_s'):.1f} ({result.line('runs_per_s', 1).split('(', 1)[1]}")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
