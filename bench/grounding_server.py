"""``POST /api/grounding/suggest`` through the server ``make serve`` starts, with concurrency.

Starts ``manage.py serve`` (web server and worker, dev settings with the suggest rate limit
raised so the benchmark measures work, not refusals) on a fresh database in a temporary
folder, makes a learner with an API token, then sends, from ``--threads`` clients at once:

- realistic requests: 5 claims from the labelled sets against their source;
- requests at the limits: value-dense and word-dense text of the maximum size, each with
  a source the server has not seen (cold caches).

It prints p50/p95/max per kind and the share of answers that were not 200. The machine
has two cores shared with other work; figures taken while other jobs run are noisy.
Usage: python bench/grounding_server.py [--threads 4] [--requests 200]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grounding_eval
from _common import ROOT, percentile

BENCH = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout


def _post(url: str, token: str, body: dict) -> tuple[int, float]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, (time.perf_counter() - started) * 1000


def _bodies(requests: int) -> tuple[list[dict], list[dict]]:
    from exercises.grounding.schemas import (
        MAX_CLAIM_CHARS,
        MAX_CLAIMS,
        MAX_LINE_CHARS,
        MAX_SOURCE_CHARS,
    )

    items = grounding_eval._claims_of(grounding_eval.DATA / "grounding_eval.yaml", "own")
    items += grounding_eval._claims_of(grounding_eval.DATA / "grounding_chat_dev.yaml", "chat-dev")
    by_source: dict[str, list[dict]] = {}
    for item in items:
        by_source.setdefault(item["source"], []).append(item)
    realistic = []
    groups = list(by_source.values())
    while len(realistic) < requests:
        group = groups[len(realistic) % len(groups)]
        start = (len(realistic) // len(groups) * 5) % max(1, len(group) - 5)
        realistic.append({"source": "\n".join(group[0]["lines"]),
                          "claims": [i["claim"] for i in group[start:start + 5]]})
    limits = []
    lines = MAX_SOURCE_CHARS // MAX_LINE_CHARS
    for k in range(max(8, requests // 10)):
        make = grounding_eval._dense_values if k % 2 else grounding_eval._dense_words
        source = "\n".join(make(MAX_LINE_CHARS - 1, 1000 * k + n) for n in range(lines))
        limits.append({"source": source, "claims": [make(MAX_CLAIM_CHARS, 77 * k + n) for n in range(MAX_CLAIMS)]})
    return realistic, limits


def _run(url: str, token: str, bodies: list[dict], threads: int) -> tuple[list[float], int]:
    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = list(pool.map(lambda body: _post(url, token, body), bodies))
    return [ms for _, ms in results], sum(1 for status, _ in results if status != 200)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tutor.settings.dev")
    with tempfile.TemporaryDirectory(prefix="grounding-bench-") as var:
        env = {**os.environ, "TUTOR_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "grounding_bench_settings",
               "PYTHONPATH": os.pathsep.join([str(BENCH), str(ROOT)])}
        env.pop("DATABASE_URL", None)
        _manage(env, "migrate", "--no-input", "-v", "0")
        _manage(env, "load_course")
        token = _manage(env, "shell", "-c", (
            "from django.contrib.auth.models import User; from tutor.services import issue_api_token; "
            "u = User.objects.create_user('bench', password='bench-only-' + 'x' * 12); "
            "print(issue_api_token(user=u, name='bench')[1])")).strip().splitlines()[-1]
        port = _free_port()
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}/api/grounding/suggest"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.2)
            realistic, limits = _bodies(args.requests)
            _run(url, token, realistic[:20], args.threads)  # warm the process: the sources are analysed once
            timings, failed = _run(url, token, realistic, args.threads)
            print(f"suggest 5 claims through the server, {args.threads} clients: n={len(timings)} "
                  f"p50={statistics.median(timings):.1f} ms p95={percentile(timings, 95):.1f} ms "
                  f"max={max(timings):.1f} ms non-200={failed}")
            at_limits, failed_limits = _run(url, token, limits, 1)
            print(f"suggest at the limits, new source each time, one client: n={len(at_limits)} "
                  f"p50={statistics.median(at_limits):.1f} ms p95={percentile(at_limits, 95):.1f} ms "
                  f"max={max(at_limits):.1f} ms non-200={failed_limits}")
            print(f"server_suggest_p95_ms={percentile(timings, 95):.1f}")
            print(f"server_limits_max_ms={max(at_limits):.1f}")
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
