"""A peer allocated to a submission opens each attached run's full record and seal, read-only and
without the author's name; anyone else, and any run not attached, gets 404 in pages and API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.labs import execution as lab_execution
from exercises.labs import services as lab_services
from exercises.labs.models import LabRun
from lessons.models import Lesson
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient


def finished_run(user: User, lab, key: str, code: str, capture) -> LabRun:
    with capture(execute=False):
        run = lab_services.request_run(user=user, lab=lab, code=code, step="run", idempotency_key=key,
                                       prediction="1이 찍힐 것")
    lab_execution.execute_run(run_id=run.pk)
    return LabRun.objects.get(pk=run.pk)


@pytest.fixture
def attached(course: list[Lesson], learner: User, other_learner: User,
             django_capture_on_commit_callbacks) -> tuple[Submission, LabRun, LabRun]:
    task = EvidenceTask.objects.get(slug="tr-practice")
    lab = task.lesson.labs.first()
    run = finished_run(other_learner, lab, "a", "print('붙인 실행 1')", django_capture_on_commit_callbacks)
    loose = finished_run(other_learner, lab, "b", "print('붙이지 않은 실행')", django_capture_on_commit_callbacks)
    services.save_draft(author=other_learner, task=task, text="실행을 붙입니다", run_ids=[run.pk], lines=[])
    submission = services.submit(author=other_learner, task=task, submit_key="s")
    services.save_draft(author=learner, task=task, text="내 글", run_ids=[], lines=[])
    services.submit(author=learner, task=task, submit_key="mine")
    services.record_practice_review(reviewer=learner, example=task.calibration_examples.filter(is_active=True).first(),
                                    judgements=insufficient(task))
    assert peer.allocate_peer_work(reviewer=learner, task=task).submission == submission
    return submission, run, loose


def test_an_allocated_peer_reads_the_attached_runs_full_record_and_seal(
    attached: tuple[Submission, LabRun, LabRun], learner: User, other_learner: User
) -> None:
    submission, run, _ = attached
    client = signed_in(learner)
    page = client.get(reverse("evidence:attached-run", args=[submission.pk, run.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "붙인 실행 1" in html and "1이 찍힐 것" in html and "봉인 확인됨" in html and run.seal in html
    assert "읽기만 할 수 있습니다" in html and "<form" not in html.split("<main", 1)[-1]
    assert other_learner.username not in html
    body = client.get(f"/api/evidence/submissions/{submission.pk}/runs/{run.pk}").json()
    assert body["code"] == "print('붙인 실행 1')" and body["seal"]["verified"] is True
    assert other_learner.username not in str(body)
    detail = client.get(reverse("evidence:submission", args=[submission.pk])).content.decode()
    assert reverse("evidence:attached-run", args=[submission.pk, run.pk]) in detail


def test_others_and_unattached_runs_get_404(attached: tuple[Submission, LabRun, LabRun], learner: User,
                                            make_user) -> None:
    submission, run, loose = attached
    stranger = signed_in(make_user("stranger"))
    assert stranger.get(reverse("evidence:attached-run", args=[submission.pk, run.pk])).status_code == 404
    assert stranger.get(f"/api/evidence/submissions/{submission.pk}/runs/{run.pk}").status_code == 404
    peer = signed_in(learner)
    assert peer.get(reverse("evidence:attached-run", args=[submission.pk, loose.pk])).status_code == 404
    assert peer.get(f"/api/evidence/submissions/{submission.pk}/runs/{loose.pk}").status_code == 404
    assert peer.get(reverse("labs:run", args=[run.pk])).status_code == 404, "the owner's own run page stays theirs"


def test_the_authors_instructor_reads_it_too(attached: tuple[Submission, LabRun, LabRun], instructor: User) -> None:
    submission, run, _ = attached
    assert signed_in(instructor).get(reverse("evidence:attached-run", args=[submission.pk, run.pk])).status_code == 200
