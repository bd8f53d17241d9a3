"""Sandbox overhead: a bare ``python3 -I -S -c pass`` against the same program through the runner.

Both are measured in one run, interleaved, so machine noise hits both alike.
Last line: ``ratio=<median sandboxed / median bare>``. Goal: ratio <= 2.5 and
p95 overhead <= 25 ms.
"""

from __future__ import annotations

import argparse
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

    limits, config = conf.limits(), conf.sandbox_config()
    python = config.python
    for _ in range(10):  # warm caches on both paths
        subprocess.run([python, "-I", "-S", "-c", "pass"], check=True)
        run_python("pass", limits=limits, config=config)
    bare, boxed = [], []
    for _ in range(args.n):
        started = time.perf_counter()
        subprocess.run([python, "-I", "-S", "-c", "pass"], check=True)
        bare.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        result = run_python("pass", limits=limits, config=config)
        boxed.append((time.perf_counter() - started) * 1000)
        assert result.status == "ok", result
    print(summary("bare python3 -I -S -c pass", bare))
    print(summary("sandboxed (bwrap + seccomp + rlimits)", boxed))
    overhead = [b - a for a, b in zip(bare, boxed, strict=True)]
    print(f"overhead: median={statistics.median(overhead):.2f} ms p95={percentile(overhead, 95):.2f} ms")
    print(f"ratio={statistics.median(boxed) / statistics.median(bare):.2f}")


if __name__ == "__main__":
    main()
