"""Schedules per cohort and task, extensions, late marks and the opening time (issue 19, point 1)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from exercises.evidence import schedule, services
from exercises.evidence.content import read_tasks
from exercises.evidence.models import EvidenceTask, Extension, TaskSchedule
from tests.conftest import join, signed_in
from tutor.errors import TutorError
from tutor.models import AuditEntry, Cohort
from tutor.roles import CohortRole, Role

SEOUL = "+09:00"


def iso(delta: timedelta) -> str:
    return (timezone.localtime() + delta).isoformat(timespec="seconds")


def put_schedule(client: Client, cohort: Cohort, body: dict, slug: str = "afs-practice"):
    return client.put(f"/api/cohorts/{cohort.pk}/tasks/{slug}/schedule", body, content_type="application/json")


def extend(client: Client, cohort: Cohort, body: dict):
    return client.post(f"/api/cohorts/{cohort.pk}/extensions", body, content_type="application/json")


@pytest.fixture
def outsiders(make_user: Callable[..., User]) -> list[Client]:
    """A learner, an assistant of the cohort, another cohort's instructor and a visitor."""
    learner = make_user("outsider-learner")
    assistant = make_user("assistant", None, cohort_role=CohortRole.ASSISTANT)
    elsewhere = make_user("elsewhere", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), elsewhere, CohortRole.INSTRUCTOR)
    return [signed_in(learner), signed_in(assistant), signed_in(elsewhere), Client()]


def test_the_cohort_instructor_sets_a_schedule_and_a_small_cohort_is_flagged_at_once(
        instructor: User, learner: User, cohort: Cohort, task: EvidenceTask) -> None:
    """PUT …/schedule stores the times (Seoul offset kept as the same instant) and warns when the cohort's one
    learner can never get the peer minimum (one review by a classmate)."""
    body = {"opens_at": iso(timedelta(days=-1)), "due_at": iso(timedelta(days=2)), "peer_due_at": iso(timedelta(days=4))}
    response = put_schedule(signed_in(instructor), cohort, body)
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["warnings"] and "채울 수 없습니다" in data["warnings"][0]
    row = TaskSchedule.objects.get(cohort=cohort, task=task)
    assert row.due_at == timezone.datetime.fromisoformat(body["due_at"])
    assert AuditEntry.objects.filter(action="schedule.set").count() == 1


def test_nobody_but_the_cohorts_instructors_sets_a_schedule_or_an_extension(
        instructor: User, learner: User, cohort: Cohort, task: EvidenceTask, outsiders: list[Client]) -> None:
    """Learners, assistants, another cohort's instructors and visitors get 404 and change nothing."""
    body = {"due_at": iso(timedelta(days=2))}
    for client in outsiders:
        assert put_schedule(client, cohort, body).status_code == 404
        assert extend(client, cohort, {"username": "learner", "task": task.slug, "due_at": iso(timedelta(days=5)),
                                       "reason": "병가"}).status_code == 404
    assert not TaskSchedule.objects.exists() and not Extension.objects.exists()


def test_bad_times_are_refused_with_a_korean_message(instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """A time without an offset is 422; a due time before the opening is 400 with a Korean detail."""
    client = signed_in(instructor)
    assert put_schedule(client, cohort, {"due_at": "2027-03-09T23:59:00"}).status_code == 422
    response = put_schedule(client, cohort, {"opens_at": iso(timedelta(days=3)), "due_at": iso(timedelta(days=1))})
    assert response.status_code == 400 and "앞섭니다" in response.json()["detail"]
    assert put_schedule(client, cohort, {"due_at": iso(timedelta(days=1))}, slug="no-such-task").status_code == 404


def test_an_extension_moves_one_learners_due_time_with_a_reason_and_is_audited(
        instructor: User, learner: User, other_learner: User, cohort: Cohort, task: EvidenceTask) -> None:
    """The extended learner gets their own due time; a classmate keeps the cohort's; the reason is required."""
    client = signed_in(instructor)
    put_schedule(client, cohort, {"due_at": iso(timedelta(days=1))})
    new_due = iso(timedelta(days=5))
    assert extend(client, cohort, {"username": "learner", "task": task.slug, "due_at": new_due,
                                   "reason": " "}).status_code == 400
    response = extend(client, cohort, {"username": "learner", "task": task.slug, "due_at": new_due, "reason": "병가"})
    assert response.status_code == 201, response.content
    assert schedule.dates_for(learner, task).due_at == timezone.datetime.fromisoformat(new_due)
    assert schedule.dates_for(learner, task).extended
    assert schedule.dates_for(other_learner, task).due_at != schedule.dates_for(learner, task).due_at
    entry = AuditEntry.objects.get(action="schedule.extension")
    assert entry.reason == "병가"
    assert extend(client, cohort, {"username": "nobody", "task": task.slug, "due_at": new_due,
                                   "reason": "x"}).status_code == 404


def test_before_opening_the_task_is_readable_but_not_submittable(
        instructor: User, learner: User, cohort: Cohort, task: EvidenceTask) -> None:
    """Submitting before the opening time is refused in Korean with the opening time; the draft stays."""
    put_schedule(signed_in(instructor), cohort, {"opens_at": iso(timedelta(days=1)), "due_at": iso(timedelta(days=3))})
    assert signed_in(learner).get(f"/evidence/{task.slug}/").status_code == 200
    services.save_draft(author=learner, task=task, text="미리 쓴 글", run_ids=[], lines=[])
    with pytest.raises(TutorError, match="열립니다"):
        services.submit(author=learner, task=task, submit_key="early")
    assert services.submit.__name__ and learner.evidence_submissions.get().text == "미리 쓴 글"


def test_a_late_submission_is_accepted_and_marked_with_how_late(
        instructor: User, learner: User, cohort: Cohort, task: EvidenceTask) -> None:
    """After the due time the submission is accepted and says 기한 후 제출 with the delay; on time it does not."""
    put_schedule(signed_in(instructor), cohort, {"due_at": iso(timedelta(hours=-2, minutes=-5))})
    services.save_draft(author=learner, task=task, text="늦은 글", run_ids=[], lines=[])
    submission = services.submit(author=learner, task=task, submit_key="late")
    assert submission.status == "submitted" and submission.late_by is not None
    assert schedule.late_label(submission.late_by).startswith("기한 후 제출 (2시간 5분")
    page = signed_in(learner).get(f"/evidence/submissions/{submission.pk}/").content.decode()
    assert "기한 후 제출" in page
    assert schedule.late_label(None) == ""


def test_default_times_come_from_the_course_file(tmp_path: Path) -> None:
    """evidence.yaml's opens_at / due_at give the defaults; a time without an offset is Seoul time."""
    (tmp_path / "evidence.yaml").write_text(
        "tasks:\n  - slug: t1\n    kind: practice\n    title: 과제\n    due_at: '2027-03-09T23:59'\n"
        "    opens_at: '2027-03-02T09:00+09:00'\n"
        "    rubric:\n      criteria:\n        - key: c\n          title: 기준\n          levels:\n"
        "            - {key: a, label: 가, description: 설명}\n            - {key: b, label: 나, description: 설명}\n",
        encoding="utf-8")
    spec = read_tasks(tmp_path)[0]
    assert spec["default_due_at"].isoformat() == "2027-03-09T23:59:00+09:00"
    assert spec["default_opens_at"].utcoffset() == timedelta(hours=9)
    assert spec["default_peer_due_at"] is None
