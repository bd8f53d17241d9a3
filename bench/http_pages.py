"""Pages through HTTP against the server `make serve` runs: 1, 4 and 16 concurrent clients, and a burst.

Each client keeps one keep-alive connection (as a browser tab does) and asks
for the pages in a shuffled order; a small static file is asked in the same
rounds, so ``lesson/static`` is a ratio taken side by side. Then 60 clients
open fresh connections at the same instant (a class pressing Enter together)
and the connection errors are counted. Each concurrency level is repeated
``--repeats`` times; the table shows each figure as the median over the repeats
with its min–max, and the ratio line adds p25–p75 and the 1-minute load average.

    .venv/bin/python bench/http_pages.py [--database-url postgres://…] [--rounds 20]

Goals: lesson p50 <= 3 x static p50 in the same run; 0 connection errors in the burst.
The machine is shared: compare the ratios, not the milliseconds, between runs.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import defaultdict

from _common import add_repeats_flag, load1, percentile, repeat
from _http import Client, Site

PAGES = {
    "static": "/static/favicon.svg",
    "home": "/",
    "catalogue": "/lessons/",
    "lesson": "/lessons/answer-from-sources/",
    "lesson (signed in)": "/lessons/answer-from-sources/",
    "lab (signed in)": "/labs/replay-retry/",
    "my progress (signed in)": "/me/progress/",
    "api lessons": "/api/lessons",
}


def run_clients(site: Site, concurrency: int, rounds: int) -> tuple[dict[str, list[float]], int]:
    timings: dict[str, list[float]] = defaultdict(list)
    errors = 0
    lock = threading.Lock()
    barrier = threading.Barrier(concurrency)

    def client(index: int) -> None:
        nonlocal errors
        session = site.sessions[index % len(site.sessions)]
        visitor = Client(site.port)
        member = Client(site.port, headers={"Cookie": f"sessionid={session}"})
        order = [name for name in PAGES for _ in range(rounds)]
        random.Random(index).shuffle(order)
        barrier.wait()
        for name in order:
            http = member if "signed in" in name else visitor
            started = time.perf_counter()
            try:
                status, _, _ = http.request("GET", PAGES[name])
                ok = status == 200
            except OSError:
                ok = False
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                timings[name].append(elapsed)
                errors += 0 if ok else 1
        visitor.close()
        member.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return timings, errors


def burst(site: Site, size: int = 60) -> tuple[int, int, float]:
    """``size`` fresh connections at once; returns (connection errors, non-200 answers, p95 ms)."""
    barrier = threading.Barrier(size)
    results: list[tuple[str, float]] = []
    lock = threading.Lock()

    def one() -> None:
        barrier.wait()
        started = time.perf_counter()
        client = Client(site.port)
        try:
            status, _, _ = client.request("GET", "/lessons/answer-from-sources/")
            outcome = "ok" if status == 200 else "status"
        except OSError:
            outcome = "connection"
        finally:
            client.close()
        with lock:
            results.append((outcome, (time.perf_counter() - started) * 1000))

    threads = [threading.Thread(target=one) for _ in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return (sum(1 for o, _ in results if o == "connection"), sum(1 for o, _ in results if o == "status"),
            percentile([ms for _, ms in results], 95))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default=None, help="a scratch PostgreSQL database (default: SQLite)")
    parser.add_argument("--rounds", type=int, default=20, help="requests per page per client")
    parser.add_argument("--task-workers", type=int, default=2)
    add_repeats_flag(parser, default=3)
    args = parser.parse_args()
    with Site(database_url=args.database_url, task_workers=args.task_workers, learners=16) as site:
        run_clients(site, 4, 3)  # warm every gunicorn process and thread
        print(f"database={site.vendor} server=gunicorn (make serve) task_workers={args.task_workers}")
        print(f"each figure: median over {args.repeats} repeats [min–max]; load1 {load1():.2f} at the start")
        print(f"{'clients':>7} {'page':<24} {'p50 ms':>20} {'p95 ms':>20} {'p99 ms':>20}")
        for concurrency in (1, 4, 16):
            errors = 0

            def one_pass(concurrency: int = concurrency) -> dict[str, tuple[float, str]]:
                nonlocal errors
                timings, failed = run_clients(site, concurrency, args.rounds)
                errors += failed
                figures = {f"{name} p{q}": (percentile(timings[name], q), " ms") for name in PAGES for q in (50, 95, 99)}
                figures["lesson_over_static_p50"] = (percentile(timings["lesson"], 50) / percentile(timings["static"], 50), "")
                return figures

            result = repeat(one_pass, args.repeats)
            for name in PAGES:
                cells = " ".join(f"{result.short(f'{name} p{q}', 1):>20}" for q in (50, 95, 99))
                print(f"{concurrency:>7} {name:<24} {cells}")
            print(f"clients={concurrency} errors={errors} {result.line('lesson_over_static_p50')} (goal <= 3)")
        connection_errors, bad_status, p95 = burst(site)
        print(f"burst=60 connection_errors={connection_errors} non_200={bad_status} p95_ms={p95:.0f} (goal 0 errors)")


if __name__ == "__main__":
    main()
