"""Thirty learners press Run at the same moment, through HTTP, against the server `make serve` runs.

Each learner (an API token) POSTs a run with its own Idempotency-Key, follows
``Retry-After`` on 429, and then learns that the run ended in one of two ways:
``poll`` asks every 250 ms (what the lab page did before the push), ``push`` asks
with ``?wait=true``, which the server holds until the run ends (what the page does
now, ``exercises/labs/push.py``). With ``--spread S`` each learner clicks at a
random moment within S seconds instead of all at once. The
figures are the records' own created -> finished times, plus the 429s, the runs
that never finished (lost) and the runs made twice (a key with two records, or a
task executed twice), read back from the database afterwards. The burst is
repeated ``--repeats`` times against the same server; each figure is the median
over the repeats with its min–max and p25–p75, beside the 1-minute load average
(the 429s, lost and twice counts are totals over all repeats).

    .venv/bin/python bench/http_runs.py [--database-url postgres://…] [--task-workers 1 2] \
        [--modes poll push] [--warm 0 1] [--learners 30] [--spread 1.0] [--clicks 1]

``--warm 0 1`` prints today's cold path (every run starts its sandbox after the click) beside runs
that take a warm single-use sandbox (``exercises/labs/sandbox/warm.py``), in one run of the bench.
One learner's click -> result: ``--learners 1 --clicks 20``.

Goals with two workers: p50 <= 400 ms, p95 <= 1 s, lost 0, twice 0.
The machine is shared: other processes' load shows in these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path

from _common import ROOT, add_repeats_flag, percentile, repeat
from _http import Client, Site

CODE = "total = sum(range(10_000))\nprint('합계', total)\n"
LAB = "replay-retry"


def one_learner(site: Site, token: str, barrier: threading.Barrier, out: dict, lock: threading.Lock,
                mode: str = "push", delay: float = 0.0, clicks: int = 1) -> None:
    """One learner: clicks Run ``clicks`` times, each after the last result and a learner's pause of 1 s."""
    client = Client(site.port, headers={"Authorization": f"Bearer {token}"})
    barrier.wait()
    time.sleep(delay)
    for click in range(clicks):
        if click:
            time.sleep(1.0)
        one_click(client, out, lock, mode)
    client.close()


def one_click(client: Client, out: dict, lock: threading.Lock, mode: str) -> None:
    key = uuid.uuid4().hex
    throttled = 0
    clicked = time.perf_counter()
    run_id = None
    for _ in range(60):
        status, headers, body = client.request("POST", f"/api/labs/{LAB}/runs", {"code": CODE, "step": "run"},
                                               headers={"Idempotency-Key": key})
        if status == 202:
            run_id = json.loads(body)["id"]
            break
        if status == 429:
            throttled += 1
            time.sleep(float(headers.get("retry-after", "1")))
            continue
        raise RuntimeError(f"POST run answered {status}: {body[:200]!r}")
    record = None
    deadline = time.monotonic() + 60
    while run_id is not None and time.monotonic() < deadline:
        if mode == "push":  # held by the server until the run ends; asked again at once if the hold ran out
            status, headers, body = client.request("GET", f"/api/labs/runs/{run_id}?wait=true")
        else:
            status, headers, body = client.request("GET", f"/api/labs/runs/{run_id}")
        record = json.loads(body)
        if record["finished_at"]:
            break
        if mode == "poll":
            time.sleep(0.25)  # the lab page polled every 250 ms
        elif "retry-after" in headers:  # not held: every hold slot of that process was taken
            time.sleep(float(headers["retry-after"]))
    seen = (time.perf_counter() - clicked) * 1000
    with lock:
        out["throttled"] += throttled
        if record and record["finished_at"]:
            created = datetime.fromisoformat(record["created_at"])
            finished = datetime.fromisoformat(record["finished_at"])
            out["server_ms"].append((finished - created).total_seconds() * 1000)
            out["client_ms"].append(seen)
            out["statuses"].add(record["status"])
        else:
            out["lost"] += 1
        out["ids"].append(run_id)


def twice(site: Site) -> dict[str, int]:
    """Read back: runs per key, tasks executed more than once, run attempts above one."""
    script = (
        "import json\n"
        "from django.db.models import Count\n"
        "from django_tasks_db.models import DBTaskResult\n"
        "from exercises.labs.models import LabRun\n"
        "runs = LabRun.objects.filter(user__username__startswith='bench-learner-')\n"
        "print(json.dumps({'runs': runs.count(),\n"
        "  'keys_with_two_runs': runs.values('user', 'idempotency_key').annotate(n=Count('id')).filter(n__gt=1).count(),\n"
        "  'runs_attempted_twice': runs.filter(attempts__gt=1).count(),\n"
        "  'tasks_claimed_twice': sum(1 for ids in DBTaskResult.objects.values_list('worker_ids', flat=True) if len(ids) > 1)}))\n"
    )
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=site.env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def idle_cpu_percent(site: Site, seconds: float = 5.0) -> float:
    """CPU used by the idle task workers over ``seconds``, as a percentage of one core."""
    assert site.process is not None, "the server is not running"
    pids = subprocess.run(["pgrep", "-f", "manage.py worker", "-s", str(site.process.pid)],
                          capture_output=True, text=True).stdout.split()

    def ticks() -> int:
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except (OSError, IndexError):
                pass
        return total

    before = ticks()
    time.sleep(seconds)
    return (ticks() - before) / os.sysconf("SC_CLK_TCK") / seconds * 100 / max(1, len(pids))


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy since boot (every core; idle and iowait left out)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def own_seconds() -> float:
    """CPU seconds this bench (the learners' clients) spent, to take out of the machine's figure."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default=None, help="a scratch PostgreSQL database (default: SQLite)")
    parser.add_argument("--task-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--modes", nargs="+", choices=["poll", "push"], default=["poll", "push"])
    parser.add_argument("--spread", type=float, default=0.0,
                        help="each learner clicks at a random moment within this many seconds (0: all at once)")
    parser.add_argument("--worker-threads", type=int, nargs="+", default=[3],
                        help="runs each worker executes at once (LAB_WORKER_THREADS; the site's default is 3)")
    parser.add_argument("--warm", type=int, nargs="+", default=[1],
                        help="warm sandboxes per worker (LAB_WARM_SANDBOXES; 0 = every run cold, the site's "
                             "default is 1); give '0 N' to print the cold path beside the warm one in one run")
    parser.add_argument("--clicks", type=int, default=1,
                        help="runs each learner makes in a pass, one after another with a 1 s pause")
    add_repeats_flag(parser, default=3)
    args = parser.parse_args()
    for workers, per_worker, warm, mode in [(w, t, k, m) for w in args.task_workers for t in args.worker_threads
                                            for k in args.warm for m in args.modes]:
        slots = max(8, workers * (per_worker + warm))
        with Site(database_url=args.database_url, task_workers=workers, learners=args.learners,
                  env={"LAB_WORKER_THREADS": str(per_worker), "LAB_WARM_SANDBOXES": str(warm),
                       "LAB_SANDBOX_SLOTS": str(slots)}) as site:
            cpu = idle_cpu_percent(site)
            totals: dict = {"throttled": 0, "lost": 0, "statuses": set()}

            def one_pass(totals: dict = totals, mode: str = mode) -> dict[str, tuple[float, str]]:
                out: dict = {"throttled": 0, "lost": 0, "server_ms": [], "client_ms": [], "statuses": set(), "ids": []}
                lock = threading.Lock()
                barrier = threading.Barrier(len(site.tokens))
                rng = random.Random(7)
                busy, own = machine_busy_seconds(), own_seconds()
                threads = [threading.Thread(target=one_learner, args=(site, token, barrier, out, lock, mode,
                                                                      rng.uniform(0, args.spread), args.clicks))
                           for token in site.tokens]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                totals["throttled"] += out["throttled"]
                totals["lost"] += out["lost"]
                totals["statuses"] |= out["statuses"]
                server, client = out["server_ms"], out["client_ms"]
                site_cpu = (machine_busy_seconds() - busy) - (own_seconds() - own)
                return {
                    "created->finished p50": (percentile(server, 50), " ms"),
                    "created->finished p95": (percentile(server, 95), " ms"),
                    "created->finished max": (max(server), " ms"),
                    "click->seen finished p50": (percentile(client, 50), " ms"),
                    "click->seen finished p95": (percentile(client, 95), " ms"),
                    # Everything but the bench: web, workers, sandboxes, the database, the kernel's share.
                    "site CPU per run": (site_cpu * 1000 / max(1, len(client)), " ms"),
                }

            result = repeat(one_pass, args.repeats)
            counts = twice(site)
            print(f"database={site.vendor} mode={mode} task_workers={workers} threads_per_worker={per_worker} "
                  f"warm_per_worker={warm} learners={len(site.tokens)} clicks={args.clicks} "
                  f"spread={args.spread}s repeats={args.repeats} "
                  f"idle_worker_cpu={cpu:.1f}%_of_a_core")
            print("  (goal with 2 workers: created->finished p50 <= 400 ms, p95 <= 1000 ms)")
            for name in result.figures:
                print(f"  {result.line(name, digits=0)}")
            print(f"  429s={totals['throttled']} lost={totals['lost']} statuses={sorted(totals['statuses'])} "
                  f"runs={counts['runs']} made_twice={counts['keys_with_two_runs'] + counts['runs_attempted_twice']} "
                  f"tasks_claimed_twice={counts['tasks_claimed_twice']}")

if __name__ == "__main__":
    main()
