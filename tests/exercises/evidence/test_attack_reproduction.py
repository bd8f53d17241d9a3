"""From the attacker's side: a peer reviewer cannot forge a reproduction of the author's run in either direction.

The re-run is asked for by the server under a key no client can write, with the original's own code, and the
comparison covers the code, so a run the peer made beforehand never stands in for the reproduction.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Reproduction, Submission
from exercises.labs.models import LabRun
from exercises.labs.services import request_run
from lessons.models import Lesson
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient, submitted


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """tr-practice, not afs-practice: its lesson has a lab to run and reproduce, and calibration examples."""
    return EvidenceTask.objects.get(slug="tr-practice")


def finish(run: LabRun, stdout: str) -> None:
    """What the worker would record (the sandbox is not run here)."""
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.OK, exit_code=0, stdout=stdout, stderr="",
                                            check_results=[])


def setup(learner: User, other_learner: User, task: EvidenceTask, code: str) -> tuple[LabRun, Submission]:
    lab = task.lesson.labs.first()
    original = request_run(user=other_learner, lab=lab, code=code, step="run", idempotency_key="orig")
    theirs = submitted(other_learner, task, "작성자의 증거 글입니다", run_ids=[original.pk])
    submitted(learner, task, "검토자의 증거 글입니다")
    example = task.calibration_examples.filter(is_active=True).first()
    services.record_practice_review(reviewer=learner, example=example,
                                    judgements=insufficient(task))
    return original, theirs


@pytest.mark.parametrize(("honest", "forged_code", "forged_out"), [
    (True, "print('다른 결과')", "다른 결과\n"),      # an honest run made to read "재현 안 됨"
    (False, "print('주장한 결과')", "주장한 결과\n"),  # a run whose output was never produced made to read "재현됨"
], ids=["honest-original", "forged-original"])
def test_a_peers_own_run_under_the_old_key_never_stands_in_for_the_reproduction(
        learner: User, other_learner: User, task: EvidenceTask, honest: bool, forged_code: str,
        forged_out: str) -> None:
    """The peer submits their own run first under the key the rerun used to take (``reproduce-<allocation>-<run>``),
    by the API, then asks to reproduce: the server runs the original's code in a run of its own, and the
    reproduction's verdict follows what that run printed, never the peer's run."""
    original, theirs = setup(learner, other_learner, task, "print('작성자의 결과')")
    finish(original, "작성자의 결과\n" if honest else "주장한 결과\n")
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    assert allocation.submission == theirs
    client = signed_in(learner)
    response = client.post(f"/api/labs/{original.lab.slug}/runs", {"code": forged_code, "step": "run"},
                           content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY=f"reproduce-{allocation.pk}-{original.pk}")
    assert response.status_code == 202
    forged = LabRun.objects.get(pk=response.json()["id"])
    finish(forged, forged_out)
    reproduction = peer.reproduce_run(reviewer=learner, allocation=allocation, run=original)
    assert reproduction.rerun_id != forged.pk
    rerun = LabRun.objects.get(pk=reproduction.rerun_id)
    assert rerun.code == original.code and rerun.purpose == LabRun.Purpose.REPRODUCTION
    finish(rerun, "작성자의 결과\n")  # the sandbox runs the original's code
    settled = peer.settle_reproduction(reproduction=reproduction)
    expected = Reproduction.Status.REPRODUCED if honest else Reproduction.Status.DIFFERED
    assert settled.status == expected


def test_clients_cannot_write_keys_in_the_servers_namespace(learner: User, other_learner: User,
                                                            task: EvidenceTask) -> None:
    """A key starting with the server's prefix is refused with a Korean message, by page and API, so no run of a
    client's can be found under a key the server makes."""
    lab = task.lesson.labs.first()
    client = signed_in(learner)
    for key in ("server:abc", "SERVER:abc"):
        response = client.post(f"/api/labs/{lab.slug}/runs", {"code": "print(1)", "step": "run"},
                               content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == 400 and "요청 키" in response.json()["detail"]
        page = client.post(reverse("labs:request-run", args=[lab.slug]), {"code": "print(1)", "step": "run", "idempotency_key": key})
        assert page.status_code == 400
    assert not LabRun.objects.filter(user=learner).exists()


def test_a_rerun_of_other_code_is_never_a_verdict(learner: User, other_learner: User, task: EvidenceTask) -> None:
    """The comparison covers the code digest: a re-run of other code is recorded as "code" differing and reads
    "재현 실행 못 함", neither "재현됨" nor "재현 안 됨", even when every output matches."""
    original, _theirs = setup(learner, other_learner, task, "print('작성자의 결과')")
    finish(original, "작성자의 결과\n")
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    reproduction = peer.reproduce_run(reviewer=learner, allocation=allocation, run=original)
    LabRun.objects.filter(pk=reproduction.rerun_id).update(code="print('작성자의 결과') # 바뀜")
    finish(LabRun.objects.get(pk=reproduction.rerun_id), "작성자의 결과\n")
    settled = peer.settle_reproduction(reproduction=reproduction)
    assert "code" in settled.differences and settled.status == Reproduction.Status.COULD_NOT_RUN


def test_a_reproduction_settles_when_its_rerun_ends_and_no_page_view_settles_it(
        learner: User, other_learner: User, task: EvidenceTask) -> None:
    """Viewing the submission or polling the reproduction (GET) leaves it pending; the labs app telling the apps
    that the re-run ended settles it; a re-run that ended with nobody told (a worker died in between) is settled
    when a worker starts."""
    from django.apps import apps

    from exercises.labs.execution import tell_run_finished, tell_runs_finished_while_away
    from exercises.labs.hooks import RunListener
    from tutor import extensions

    original, theirs = setup(learner, other_learner, task, "print('작성자의 결과')")
    finish(original, "작성자의 결과\n")
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    reproduction = peer.reproduce_run(reviewer=learner, allocation=allocation, run=original)
    finish(LabRun.objects.get(pk=reproduction.rerun_id), "작성자의 결과\n")
    client = signed_in(learner)
    assert client.get(reverse("evidence:submission", args=[theirs.pk])).status_code == 200
    assert client.get(reverse("evidence:reproduction", args=[theirs.pk, original.pk])).status_code == 200
    reproduction.refresh_from_db()
    assert reproduction.status == Reproduction.Status.PENDING, "GET never writes"
    tell_runs_finished_while_away()
    reproduction.refresh_from_db()
    assert reproduction.status == Reproduction.Status.REPRODUCED
    assert apps.get_app_config("evidence") in extensions.providers(RunListener)  # what tell_run_finished calls
    Reproduction.objects.filter(pk=reproduction.pk).update(status=Reproduction.Status.PENDING)
    tell_run_finished(reproduction.rerun_id)
    reproduction.refresh_from_db()
    assert reproduction.status == Reproduction.Status.REPRODUCED
