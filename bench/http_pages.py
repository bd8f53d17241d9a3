"""Pages through HTTP against the server `make serve` runs: 1, 4 and 16 concurrent clients, and a burst.

Each client keeps one keep-alive connection (as a browser tab does) and asks
for the pages in a shuffled order; a small static file is asked in the same
rounds, so ``lesson/static`` is a ratio taken side by side. Then 60 clients
open fresh connections at the same instant (a class pressing Enter together)
and the connection errors are counted.

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

from _common import percentile
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
    args = parser.parse_args()
    with Site(database_url=args.database_url, task_workers=args.task_workers, learners=16) as site:
        run_clients(site, 4, 3)  # warm every gunicorn process and thread
        print(f"database={site.vendor} server=gunicorn (make serve) task_workers={args.task_workers}")
        print(f"{'clients':>7} {'page':<24} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
        for concurrency in (1, 4, 16):
            timings, errors = run_clients(site, concurrency, args.rounds)
            for name in PAGES:
                values = timings[name]
                print(f"{concurrency:>7} {name:<24} {len(values):>5} {percentile(values, 50):>8.1f} "
                      f"{percentile(values, 95):>8.1f} {percentile(values, 99):>8.1f}")
            ratio = percentile(timings["lesson"], 50) / percentile(timings["static"], 50)
            print(f"clients={concurrency} errors={errors} lesson_over_static_p50={ratio:.2f} (goal <= 3)")
        connection_errors, bad_status, p95 = burst(site)
        print(f"burst=60 connection_errors={connection_errors} non_200={bad_status} p95_ms={p95:.0f} (goal 0 errors)")


if __name__ == "__main__":
    main()
