"""Trivial sandboxed runs per second, with as many concurrent workers as cores.

Last line: ``runs_per_s=<value>``. Goal: >= 60 on 2 cores. Figures on a shared machine are
noisy: they count every other process on the host too.
"""

from __future__ import annotations

import argparse
import os
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
        started = time.perf_counter()
        statuses = list(pool.map(one, range(args.n)))
        elapsed = time.perf_counter() - started
    failed = len([s for s in statuses if s != "ok"])
    print(f"workers={args.workers} runs={args.n} failed={failed} seconds={elapsed:.2f}")
    print(f"runs_per_s={args.n / elapsed:.1f}")


if __name__ == "__main__":
    main()
