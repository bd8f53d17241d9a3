"""POST Run → result ready, through the web stack, the database queue and a warm worker process.

Uses a fresh SQLite database in a temporary folder, starts the site's real
worker (``manage.py worker``) beside it, posts runs with Django's test client
(the full middleware stack, no network) and times each until its record is
finished. The runs are repeated ``--repeats`` times (``-n`` each); each repeat's p50
and p95 are printed as the median over repeats with min–max and p25–p75, beside the
1-minute load average. Goal: p50 <= 150 ms, p95 <= 400 ms.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any

from _common import ROOT, add_repeats_flag, percentile, repeat


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=30, help="runs per repeat")
    add_repeats_flag(parser)
    args = parser.parse_args()
    var = tempfile.mkdtemp(prefix="tutor-bench-")
    os.environ.update({"TUTOR_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "tutor.settings.dev", "DEBUG": "0"})
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from exercises.labs.models import Lab, LabRun, SandboxHealth

    call_command("migrate", verbosity=0)
    call_command("load_course", verbosity=0)
    user = User.objects.create_user("bench", password=uuid.uuid4().hex)
    lab = Lab.objects.get(slug="replay-retry")
    worker = subprocess.Popen([sys.executable, "manage.py", "worker"], cwd=ROOT, env=os.environ.copy(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not SandboxHealth.objects.exists():
            time.sleep(0.1)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        url = f"/labs/{lab.slug}/runs/"
        for _ in range(5):  # the first few warm the worker
            _post_and_wait(client, url, lab, LabRun)

        def one_pass() -> dict[str, tuple[float, str]]:
            timings = [_post_and_wait(client, url, lab, LabRun) for _ in range(args.n)]
            return {"e2e_p50_ms": (percentile(timings, 50), " ms"), "e2e_p95_ms": (percentile(timings, 95), " ms")}

        result = repeat(one_pass, args.repeats)
        statuses = set(LabRun.objects.values_list("status", flat=True))
        print(f"statuses={sorted(statuses)}")
        print(f"POST run -> record finished: {args.n} runs per repeat, over {args.repeats} repeats")
        result.print(digits=1)
    finally:
        worker.terminate()
        worker.wait(timeout=20)


def _post_and_wait(client: Any, url: str, lab: Any, LabRun: Any) -> float:
    """Post one run and wait until its record is finished; return the milliseconds it took."""
    started = time.perf_counter()
    response = client.post(url, {"code": lab.solution_code, "step": "run", "idempotency_key": uuid.uuid4().hex},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]
    run_id = LabRun.objects.latest("created_at").pk
    while LabRun.objects.filter(pk=run_id, finished_at__isnull=True).exists():
        time.sleep(0.002)
    return (time.perf_counter() - started) * 1000


if __name__ == "__main__":
    main()
