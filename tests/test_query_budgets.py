"""Query budgets: every page and API read runs the same number of queries as data grows.

Each endpoint is asked with small data and with grown data: a learner with 0,
5 and 50 records (lab runs, grounding attempts, completion records,
self-reports, evidence), an instructor's cohort of 5 learners and of 50. The
counts for 5 and 50 must be equal, and 50 records may cost at most
``PREFETCHES`` more queries than none (a prefetch runs only when there are
rows to attach to); a query per row would show as a difference.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from exercises.evidence import services as evidence
from exercises.evidence.models import EvidenceTask
from exercises.grounding import services as grounding
from exercises.grounding.models import Attempt, Exercise
from exercises.labs.models import Lab, LabRun
from lessons.models import CompletionRecord, Lesson, PartKey, SelfCheck
from lessons.services import record_completion, report_understood
from tests.conftest import signed_in
from tutor.models import Cohort, members_of

pytestmark = pytest.mark.django_db

# A page with records shows sections an empty one leaves out (the latest submission and what it waits for,
# its reviews, resume points): each is a fixed query or prefetch, read once however many records follow.
PREFETCHES = 6
ANSWER = "서점은 오전 10시에 문을 엽니다. 일요일에는 쉽니다. 배송은 무료입니다."


def give_records(user: User, count: int) -> None:
    """``count`` records of each kind the learner's pages list: runs, attempts, completions, reports."""
    lab = Lab.objects.get(slug="replay-retry")
    now = timezone.now()
    LabRun.objects.bulk_create([
        LabRun(lab=lab, user=user, idempotency_key=uuid.uuid4().hex, code=f"print({n})", code_digest="0" * 64,
               lab_version=lab.version, status=LabRun.Status.OK, stdout=f"{n}\n", finished_at=now, attempts=1)
        for n in range(count)
    ])
    exercises = list(Exercise.objects.all())
    for n in range(count):
        exercise = exercises[n % len(exercises)]
        attempt = grounding.start_attempt(user=user, exercise=exercise, answer_text=ANSWER,
                                          variant_key="", idempotency_key=uuid.uuid4().hex)
        if n % 2:
            grounding.submit_attempt(user=attempt.user, attempt=attempt)
    lessons = list(Lesson.objects.with_current())
    for lesson in lessons:
        record_completion(user=user, lesson=lesson, kind=CompletionRecord.Kind.OPENED)
        for part in list(PartKey.values)[: count // len(lessons) + 1]:
            record_completion(user=user, lesson=lesson, kind=CompletionRecord.Kind.PART_REACHED, item=part)
    for check in SelfCheck.objects.filter(version__lesson__in=lessons)[:count]:
        report_understood(user=user, self_check=check)
    for task in EvidenceTask.objects.active()[: max(1, count // 10)]:
        evidence.save_draft(author=user, task=task, text="증거 글", run_ids=[], lines=[])
        evidence.submit(author=user, task=task, submit_key=uuid.uuid4().hex)


def count_queries(client: Client, url: str) -> int:
    connection.queries_log.clear()  # the log keeps at most 9,000 queries; a full one counts nothing
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


LEARNER_URLS = [
    "/", "/lessons/", "/lessons/answer-from-sources/", "/me/progress/", "/labs/replay-retry/",
    "/exercises/bookshop/", "/evidence/afs-practice/", "/account/api-tokens/",
    "/api/lessons", "/api/lessons/answer-from-sources", "/api/me/progress", "/api/labs/replay-retry",
    "/api/evidence/submissions",
]


@pytest.mark.parametrize("url", LEARNER_URLS)
def test_a_learners_pages_cost_the_same_with_0_and_50_records(url: str, course: list[Lesson], learner: User) -> None:
    """The learner's own pages and API reads do not grow with the learner's history."""
    client = signed_in(learner)
    client.get(url)  # first-request work (sessions, caches) is not the budget
    empty = count_queries(client, url)
    give_records(learner, 5)
    five = count_queries(client, url)
    give_records(learner, 45)
    assert count_queries(client, url) == five
    assert five - empty <= PREFETCHES


def test_one_run_and_one_attempt_cost_the_same_among_50(course: list[Lesson], learner: User) -> None:
    """A single record's page and API read does not depend on how many others exist."""
    give_records(learner, 1)
    run, attempt = LabRun.objects.get(user=learner), Attempt.objects.filter(user=learner).first()
    client = signed_in(learner)
    urls = [f"/labs/runs/{run.pk}/", f"/api/labs/runs/{run.pk}", f"/exercises/attempts/{attempt.pk}/",
            f"/api/grounding/attempts/{attempt.pk}"]
    before = {url: count_queries(client, url) for url in urls}
    give_records(learner, 50)
    assert {url: count_queries(client, url) for url in urls} == before


def cohort_of(size: int, make_user: Callable[..., User], cohort: Cohort, prefix: str) -> None:
    for n in range(size):
        give_records(make_user(f"{prefix}{n}"), 2)


INSTRUCTOR_URLS = [
    "/evidence/cohorts/{cohort}/progress/", "/account/audit/",
    "/evidence/queue/",
    "/evidence/export.csv",
    "/api/evidence/queue", "/evidence/gradebook.csv",
]


def test_an_instructors_pages_cost_the_same_for_5_and_50_learners(
    course: list[Lesson], make_user: Callable[..., User], instructor: User, cohort: Cohort
) -> None:
    """Cohort progress, the queue, the export and the audit log: constant in the cohort's size.

    One cohort serves every page (building 50 learners' records is most of this test's time); the comparison
    names each page whose count moved."""
    urls = [url.format(cohort=cohort.pk) for url in INSTRUCTOR_URLS]
    cohort_of(5, make_user, cohort, "small")
    client = signed_in(instructor)
    for url in urls:
        client.get(url)
    small = {url: count_queries(client, url) for url in urls}
    cohort_of(45, make_user, cohort, "large")
    assert members_of(cohort).count() == 50
    assert {url: count_queries(client, url) for url in urls} == small


def light_learners(size: int, make_user: Callable[..., User], prefix: str) -> None:
    """Learners with one run, one opened lesson and, for every other one, a submission (issue 19's class pages)."""
    lab, lesson = Lab.objects.get(slug="replay-retry"), Lesson.objects.with_current().first()
    task = EvidenceTask.objects.active().first()
    for n in range(size):
        user = make_user(f"{prefix}{n}")
        LabRun.objects.create(lab=lab, user=user, idempotency_key=uuid.uuid4().hex, code="print(1)",
                              code_digest="0" * 64, lab_version=lab.version, status=LabRun.Status.OK,
                              stdout="1\n", finished_at=timezone.now(), attempts=1)
        record_completion(user=user, lesson=lesson, kind=CompletionRecord.Kind.OPENED)
        if n % 2:
            evidence.save_draft(author=user, task=task, text="증거 글", run_ids=[], lines=[])
            evidence.submit(author=user, task=task, submit_key=uuid.uuid4().hex)


CLASS_URLS = ["/api/cohorts/{cohort}/progress", "/evidence/cohorts/{cohort}/progress/?show=behind",
              "/evidence/cohorts/{cohort}/progress.csv", "/api/me/todo", "/", "/evidence/queue/"]


def test_class_pages_cost_the_same_for_5_and_100_learners(
    course: list[Lesson], make_user: Callable[..., User], instructor: User, cohort: Cohort
) -> None:
    """Cohort progress (page, API, CSV), the teacher's to-do and home, and the queue: constant for 5 or 100."""
    from exercises.evidence import schedule

    task = EvidenceTask.objects.active().first()
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() - timedelta(hours=1), peer_due_at=None)
    urls = [url.format(cohort=cohort.pk) for url in CLASS_URLS]
    light_learners(5, make_user, "small")
    client = signed_in(instructor)
    for url in urls:
        client.get(url)
    small = {url: count_queries(client, url) for url in urls}
    light_learners(95, make_user, "large")
    assert members_of(cohort).count() == 100
    assert {url: count_queries(client, url) for url in urls} == small


def test_a_submission_page_costs_the_same_with_one_and_three_peer_reviews(
    course: list[Lesson], make_user: Callable[..., User], instructor: User,
) -> None:
    """The instructor's submission page reads its reviews, their judgements and the people behind them in a fixed
    number of queries however many peers reviewed."""
    from exercises.evidence import peer
    from exercises.evidence.models import EvidenceTask
    from tests.exercises.evidence.helpers import levels, submitted

    task = EvidenceTask.objects.get(slug="afs-practice")
    author = make_user("author")
    submission = submitted(author, task, "검토받을 증거 글입니다. 2번 줄과 4번 줄을 인용했습니다.")
    url = f"/evidence/submissions/{submission.pk}/"
    teacher = signed_in(instructor)

    def review_by(name: str) -> None:
        reviewer = make_user(name)
        submitted(reviewer, task, f"{name}의 증거 글입니다. 충분히 길게 적었습니다.")
        peer.assign_peer(instructor=instructor, submission=submission, reviewer=reviewer)
        evidence.record_review(reviewer=reviewer, submission=submission, kind="peer", judgements=levels(submission, 0),
                               comment=f"{name}의 의견")

    review_by("peer1")
    teacher.get(url)
    one = count_queries(teacher, url)
    review_by("peer2")
    review_by("peer3")
    assert count_queries(teacher, url) == one
