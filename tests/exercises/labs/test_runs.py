"""Runs through the real queue: idempotent requests, backpressure, dead workers, sealed records, access."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from exercises.labs import execution, records, selectors, services
from exercises.labs.models import Lab, LabRun, SandboxHealth
from tests.conftest import signed_in
from tutor.errors import Refused, Throttled
from tutor.roles import Role


def post_run(client: Client, lab: Lab, *, key: str, code: str | None = None, step: str = "run", htmx: bool = True):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("labs:request-run", args=[lab.slug]),
        {"code": code if code is not None else lab.solution_code, "step": step, "idempotency_key": key},
        **extra,
    )


def test_double_submit_with_one_key_makes_one_run(learner_client: Client, replay_lab: Lab, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = post_run(learner_client, replay_lab, key="same-key")
        second = post_run(learner_client, replay_lab, key="same-key")
    assert first.status_code == second.status_code == 200
    assert LabRun.objects.count() == 1
    assert len(callbacks) == 1, "one task is enqueued, not two"


@pytest.mark.django_db(transaction=True)
def test_queued_run_is_executed_by_the_worker_and_sealed(learner: User, replay_lab: Lab, drain_queue) -> None:
    run = services.request_run(user=learner, lab=replay_lab, code=replay_lab.solution_code, step="run",
                               idempotency_key="k1", prediction="시도 3, 초안 1이 나올 것")
    assert run.status == LabRun.Status.QUEUED
    drain_queue()
    run.refresh_from_db()
    assert run.status == LabRun.Status.OK, run.stderr
    assert run.checks_passed == len(run.check_results) == 3
    assert run.interpreter.startswith("Python 3.")
    assert run.limits["wall_seconds"] == 5.0 and run.code_digest == services.code_digest(replay_lab.solution_code)
    assert run.prediction == "시도 3, 초안 1이 나올 것"
    assert records.check_seal(run).verified
    LabRun.objects.filter(pk=run.pk).update(stdout="시도 3, 초안 1 (고쳐 쓴 출력)")
    run.refresh_from_db()
    assert not records.check_seal(run).verified, "a changed record no longer matches its seal"


@pytest.mark.django_db(transaction=True)
def test_injected_failure_is_seen_as_an_assertion_error(learner: User, replay_lab: Lab, drain_queue) -> None:
    inject = replay_lab.step("inject")["inject"]
    code = replay_lab.solution_code.replace(inject["find"], inject["replace"])
    run = services.request_run(user=learner, lab=replay_lab, code=code, step="inject", idempotency_key="k2")
    drain_queue()
    run.refresh_from_db()
    assert run.status == LabRun.Status.ERROR
    assert run.stderr.strip().splitlines()[-1].startswith("AssertionError")
    assert all(check["passed"] for check in run.check_results)


def test_executing_a_run_twice_runs_it_once(learner: User, replay_lab: Lab, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        run = services.request_run(user=learner, lab=replay_lab, code="print('한 번')", step="run", idempotency_key="k3")
    execution.execute_run(run_id=run.pk)
    finished = LabRun.objects.get(pk=run.pk)
    execution.execute_run(run_id=run.pk)
    again = LabRun.objects.get(pk=run.pk)
    assert again.attempts == 1 and again.finished_at == finished.finished_at and again.stdout == "한 번\n"


def test_a_learner_has_at_most_two_runs_in_flight(learner_client: Client, learner: User, replay_lab: Lab,
                                                  django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        for key in ("a", "b"):
            assert post_run(learner_client, replay_lab, key=key).status_code == 200
        refused = post_run(learner_client, replay_lab, key="c")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "2"
    assert refused["HX-Retarget"] == "#problem-area"
    assert "이미 실행 중인 실습이 2개" in refused.content.decode()
    assert LabRun.objects.count() == 2


def live_workers(count: int) -> None:
    """``count`` live workers whose sandbox self-test passed (what the queue cap counts)."""
    for n in range(count):
        SandboxHealth.objects.create(ok=True, host="h", worker=f"h:{n}", detail=[])


def finished_runs(lab: Lab, user: User, count: int, seconds: float) -> None:
    now = timezone.now()
    LabRun.objects.bulk_create([
        LabRun(lab=lab, user=user, idempotency_key=f"done{n}", code="pass", code_digest="0" * 64,
               lab_version=lab.version, status=LabRun.Status.OK, started_at=now - timedelta(seconds=seconds),
               finished_at=now, attempts=1)
        for n in range(count)
    ])


@override_settings(LAB_QUEUE_PROMISE_SECONDS=1, LAB_QUEUE_FLOOR=2, LAB_WORKER_THREADS=3, LAB_MAX_QUEUE_DEPTH=2000)
def test_the_queue_admits_what_the_live_workers_start_within_the_promise_then_answers_429(
    make_user, replay_lab: Lab, django_capture_on_commit_callbacks
) -> None:
    """Two live workers of 3 threads, runs of 0.5 s, a promise of 1 s: 12 queued runs start in time, the 13th
    would not, so it gets 429 with the seconds until the queue is back under the cap; nothing is queued for it."""
    live_workers(2)
    finished_runs(replay_lab, make_user("earlier"), 5, seconds=0.5)
    capacity = selectors.run_queue_capacity()
    assert (capacity.runners, capacity.run_seconds, capacity.max_queued) == (6, 0.5, 12)
    with django_capture_on_commit_callbacks(execute=False):
        for n in range(12):
            services.request_run(user=make_user(f"busy{n}"), lab=replay_lab, code="pass", step="run", idempotency_key="x")
        with pytest.raises(Throttled) as refusal:
            services.request_run(user=make_user("late"), lab=replay_lab, code="pass", step="run", idempotency_key="x")
    assert refusal.value.retry_after == 1 and refusal.value.status == 429
    assert "1초 안에 시작할 수 없습니다" in str(refusal.value)
    response = signed_in(User.objects.get(username="late")).post(
        f"/api/labs/{replay_lab.slug}/runs", {"code": "pass"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="y")
    assert response.status_code == 429 and response["Retry-After"] == "1"
    assert LabRun.objects.in_flight().count() == 12, "the refused request is answered, not queued and dropped"


@override_settings(LAB_QUEUE_PROMISE_SECONDS=10, LAB_QUEUE_FLOOR=4, LAB_WORKER_THREADS=1, LAB_MAX_QUEUE_DEPTH=50)
def test_the_queue_cap_follows_the_workers_and_the_run_time_within_its_floor_and_ceiling(
    make_user, replay_lab: Lab
) -> None:
    """No live worker: only the floor waits. Slower runs admit fewer, more workers more; never past the ceiling."""
    assert selectors.run_queue_capacity().max_queued == 4
    assert selectors.run_queue_capacity().retry_after(4) == 10
    live_workers(1)
    finished_runs(replay_lab, make_user("slow"), 3, seconds=5.0)
    assert selectors.run_queue_capacity().max_queued == 4, "one thread, 5 s runs: 2 in 10 s, so the floor"
    LabRun.objects.all().delete()
    finished_runs(replay_lab, make_user("quick"), 3, seconds=0.5)
    assert selectors.run_queue_capacity().max_queued == 20
    assert selectors.run_queue_capacity().retry_after(25) == 3
    live_workers(4)  # five in all
    assert selectors.run_queue_capacity().max_queued == 50, "100 would start in time; the ceiling holds"


def test_a_killed_workers_run_is_retried_once_then_failed_with_a_reason(
    learner: User, replay_lab: Lab, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        run = services.request_run(user=learner, lab=replay_lab, code="pass", step="run", idempotency_key="k4")
    long_ago = timezone.now() - timedelta(minutes=10)
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.RUNNING, started_at=long_ago, attempts=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert services.settle_stale_runs() == [run.pk]
    run.refresh_from_db()
    assert run.status == LabRun.Status.QUEUED and len(callbacks) == 1
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.RUNNING, started_at=long_ago, attempts=2)
    services.settle_stale_runs()
    run.refresh_from_db()
    assert run.status == LabRun.Status.FAILED and "워커" in run.failure_reason
    assert records.check_seal(run).verified


def test_runs_are_refused_while_the_sandbox_self_test_fails(learner_client: Client, learner: User, replay_lab: Lab) -> None:
    SandboxHealth.objects.create(ok=False, worker="test:1", detail=[{"name": "fork_bomb", "contained": False, "status": "ok", "note": ""}])
    with pytest.raises(Refused, match="fork_bomb"):
        services.request_run(user=learner, lab=replay_lab, code="pass", step="run", idempotency_key="k5")
    response = post_run(learner_client, replay_lab, key="k6")
    assert response.status_code == 403 and "샌드박스" in response.content.decode()
    assert "실습 실행 환경 점검에 실패" in learner_client.get(reverse("labs:detail", args=[replay_lab.slug])).content.decode()
    assert not LabRun.objects.exists()


def test_oversized_code_is_refused_and_nothing_is_lost(learner_client: Client, replay_lab: Lab) -> None:
    response = post_run(learner_client, replay_lab, key="big", code="#" * (64 * 1024 + 1))
    assert response.status_code == 413
    assert "64 KiB" in response.content.decode() and "편집기에 그대로" in response.content.decode()
    assert not LabRun.objects.exists()


def test_run_without_javascript_redirects_to_the_record(learner_client: Client, replay_lab: Lab,
                                                        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        response = post_run(learner_client, replay_lab, key="nojs", htmx=False)
    run = LabRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("labs:run", args=[run.pk])
    page = learner_client.get(response["Location"]).content.decode()
    assert "대기" in page and "hx-get" in page


def test_lab_page_shows_starter_code_and_never_the_solution(learner_client: Client, replay_lab: Lab) -> None:
    page = learner_client.get(reverse("labs:detail", args=[replay_lab.slug])).content.decode()
    assert "data-code-editor" in page
    solution_only = set(replay_lab.solution_code.splitlines()) - set(replay_lab.starter_code.splitlines())
    assert not any(line.strip() and line in page for line in solution_only if len(line.strip()) > 12)
    api = learner_client.get(f"/api/labs/{replay_lab.slug}").json()
    assert "solution" not in str(api.keys()) and api["starter_code"] == replay_lab.starter_code
    # the steps go out as the stored step records cut to the schema's fields: nothing else of them leaves
    assert api["steps"] and all(set(step) == {"kind", "title", "html", "checks", "cases"} for step in api["steps"])
    body = str(api)
    assert not any(line.strip() and line in body for line in solution_only if len(line.strip()) > 12)


def test_download_sends_the_posted_code_as_a_file(learner_client: Client, replay_lab: Lab) -> None:
    response = learner_client.post(reverse("labs:download", args=[replay_lab.slug]), {"code": "print('내 코드')"})
    assert response["Content-Disposition"] == f'attachment; filename="{replay_lab.slug}.py"'
    assert response.content.decode() == "print('내 코드')"


@pytest.fixture
def finished_run(learner: User, replay_lab: Lab) -> LabRun:
    run = services.request_run(user=learner, lab=replay_lab, code="print(1)", step="run", idempotency_key="own")
    execution.execute_run(run_id=run.pk)
    return LabRun.objects.get(pk=run.pk)


def test_owner_sees_their_run_in_page_and_api(learner_client: Client, finished_run: LabRun) -> None:
    assert learner_client.get(reverse("labs:run", args=[finished_run.pk])).status_code == 200
    body = learner_client.get(f"/api/labs/runs/{finished_run.pk}").json()
    assert body["status"] == "ok" and body["stdout"] == "1\n" and body["record_verifies"] is True


def test_another_learner_gets_404_for_a_run_in_page_and_api(other_learner: User, finished_run: LabRun) -> None:
    client = signed_in(other_learner)
    assert client.get(reverse("labs:run", args=[finished_run.pk])).status_code == 404
    assert client.get(reverse("labs:run", args=[finished_run.pk]), HTTP_HX_REQUEST="true").status_code == 404
    response = client.get(f"/api/labs/runs/{finished_run.pk}")
    assert response.status_code == 404 and "print(1)" not in response.content.decode()


def test_instructor_of_the_cohort_sees_the_run_and_others_do_not(instructor: User, make_user, finished_run: LabRun) -> None:
    assert signed_in(instructor).get(f"/api/labs/runs/{finished_run.pk}").status_code == 200
    outsider = make_user("elsewhere", Role.INSTRUCTOR, in_cohort=False)
    assert signed_in(outsider).get(f"/api/labs/runs/{finished_run.pk}").status_code == 404
    admin = make_user("keeper2", Role.FIXTURE_ADMIN)
    assert signed_in(admin).get(reverse("labs:run", args=[finished_run.pk])).status_code == 404


def test_visitors_cannot_open_labs_or_runs(client: Client, finished_run: LabRun) -> None:
    response = client.get(reverse("labs:detail", args=[finished_run.lab.slug]))
    assert response.status_code == 302 and "/account/sign-in/" in response["Location"]
    assert client.get(f"/api/labs/runs/{finished_run.pk}").status_code == 401
    assert client.get(f"/api/labs/{finished_run.lab.slug}").status_code == 401


def test_api_run_request_needs_an_idempotency_key_and_repeats_safely(learner: User, replay_lab: Lab,
                                                                     django_capture_on_commit_callbacks) -> None:
    client = signed_in(learner)
    url = f"/api/labs/{replay_lab.slug}/runs"
    assert client.post(url, {"code": "pass"}, content_type="application/json").status_code == 422
    with django_capture_on_commit_callbacks(execute=False):
        first = client.post(url, {"code": "pass"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="api-1")
        second = client.post(url, {"code": "pass"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="api-1")
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] == second.json()["id"] and LabRun.objects.count() == 1
