"""The teacher's and learner's class pages at 5, 30 and 100 learners: time and HTML size, as a ratio to a static
file served by the same process (issue 19, point 6).

In-process (Django's test client, no network) on a fresh SQLite database in a
temporary directory, so it measures the page work: queries, Python and
templates. A static file is asked in the same rounds, so ``page/static`` is a
ratio taken side by side.

    .venv/bin/python bench/class_pages.py [--sizes 5 30 100] [--rounds 15]

Goal: each page at 100 learners within 3x its time at 5 learners.
The machine is shared: compare the ratios, not the milliseconds, between runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, percentile  # noqa: E402

PAGES = {
    "static": ("teacher", "/static/favicon.svg"),
    "queue": ("teacher", "/evidence/queue/"),
    "progress": ("teacher", "/evidence/cohorts/{cohort}/progress/"),
    "progress api": ("teacher", "/api/cohorts/{cohort}/progress"),
    "teacher home": ("teacher", "/"),
    "teacher todo api": ("teacher", "/api/me/todo"),
    "learner home": ("learner", "/"),
    "learner todo api": ("learner", "/api/me/todo"),
}


def grow(cohort, size: int, task, instructor) -> None:  # type: ignore[no-untyped-def]
    """Add learners until the cohort has ``size``: every other one submitted, each opened a lesson and ran a lab."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from exercises.evidence import peer, services
    from exercises.labs.models import Lab, LabRun
    from lessons.models import CompletionRecord, Lesson
    from lessons.services import record_completion
    from tutor.models import Membership, members_of

    lab, lesson = Lab.objects.get(slug="replay-retry"), Lesson.objects.with_current().first()
    for n in range(members_of(cohort).count(), size):
        user = User.objects.create_user(username=f"learner{n:03d}", password=uuid.uuid4().hex)
        Membership.objects.create(cohort=cohort, user=user)
        LabRun.objects.create(lab=lab, user=user, idempotency_key=uuid.uuid4().hex, code="print(1)",
                              code_digest="0" * 64, lab_version=lab.version, status=LabRun.Status.OK,
                              stdout="1\n", finished_at=timezone.now(), attempts=1)
        record_completion(user=user, lesson=lesson, kind=CompletionRecord.Kind.OPENED)
        if n % 2 == 0:
            services.save_draft(author=user, task=task, text=f"증거 글: 학습자 {n}번이 근거 줄을 인용해 쓴 제출입니다.",
                                run_ids=[], lines=[])
            services.submit(author=user, task=task, submit_key=uuid.uuid4().hex)
    for user in members_of(cohort).order_by("username")[:size // 4]:
        try:
            peer.allocate_peer_work(reviewer=user, task=task)
        except Exception:  # noqa: BLE001  (no work left or not submitted: fine for the bench)
            pass


def measure(clients: dict, url: str, rounds: int) -> tuple[float, int]:
    client = clients[url[0]]
    times, size = [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(url[1])
        times.append((time.perf_counter() - started) * 1000)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        size = len(body)
        assert response.status_code == 200, (url, response.status_code)
    return percentile(times, 50), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 30, 100])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    var = tempfile.mkdtemp(prefix="tutor-class-bench-")
    os.environ.update({"TUTOR_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "tutor.settings.serve", "LOG_LEVEL": "ERROR",
                       "REQUEST_LOG_LEVEL": "WARNING"})
    os.environ.pop("DATABASE_URL", None)
    os.chdir(ROOT)
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    from exercises.evidence import schedule
    from exercises.evidence.models import EvidenceTask
    from tutor.models import Cohort, Membership
    from tutor.roles import CohortRole

    for command in (("migrate", "--no-input"), ("load_course",), ("collectstatic", "--no-input")):
        call_command(*command, verbosity=0)
    cohort = Cohort.objects.create(name="벤치 기수")
    teacher = User.objects.create_user(username="teacher", password=uuid.uuid4().hex)
    Membership.objects.create(cohort=cohort, user=teacher, role=CohortRole.INSTRUCTOR)
    task = EvidenceTask.objects.active().first()
    schedule.set_schedule(instructor=teacher, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() + timedelta(days=1), peer_due_at=None)
    first: dict[str, float] = {}
    print(f"{'page':<18} {'learners':>8} {'p50 ms':>8} {'/static':>8} {'KB':>8} {'x at 5':>7}")
    for size in args.sizes:
        grow(cohort, size, task, teacher)
        clients = {"teacher": Client(HTTP_HOST="localhost"), "learner": Client(HTTP_HOST="localhost")}
        clients["teacher"].force_login(teacher)
        clients["learner"].force_login(User.objects.get(username="learner000"))
        results = {name: measure(clients, (who, url.format(cohort=cohort.pk)), args.rounds)
                   for name, (who, url) in PAGES.items()}
        static = results["static"][0]
        for name, (p50, size_bytes) in results.items():
            first.setdefault(name, p50)
            print(f"{name:<18} {size:>8} {p50:>8.1f} {p50 / static:>8.1f} {size_bytes / 1024:>8.1f} "
                  f"{p50 / first[name]:>7.2f}")


if __name__ == "__main__":
    main()
