"""Gates on the peer step: submit first, practise first where asked, never the same author twice, leases that
expire and can be given back once, balanced workload, and reproduction runs kept out of the reviewer's own work."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import peer, selectors, services
from exercises.evidence.models import EvidenceTask, PeerAllocation, Review
from exercises.labs import selectors as lab_selectors
from exercises.labs.models import LabRun
from exercises.labs.services import request_run
from lessons.models import CompletionRecord, Lesson
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient, submitted
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import AuditEntry
from tutor.rendering import render_inline_markdown


@pytest.fixture
def calibrated_task(course: list[Lesson]) -> EvidenceTask:
    return EvidenceTask.objects.get(slug="tr-practice")


def practise(user: User, task: EvidenceTask) -> None:
    services.record_practice_review(reviewer=user, example=task.calibration_examples.filter(is_active=True).first(),
                                    judgements=insufficient(task))


def test_without_a_submission_no_peer_work(learner: User, other_learner: User, instructor: User,
                                           task: EvidenceTask) -> None:
    """A learner who has not submitted the task is refused peer work, by page, service and instructor assignment,
    and so can never read a classmate's submission."""
    theirs = submitted(other_learner, task)
    with pytest.raises(Conflict, match="먼저 이 과제를 제출"):
        peer.allocate_peer_work(reviewer=learner, task=task)
    client = signed_in(learner)
    response = client.post(reverse("evidence:peer", args=[task.slug]))
    assert response.status_code == 409 and "먼저 이 과제를 제출" in response.content.decode()
    assert "먼저 이 과제를 제출" in client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    with pytest.raises(Conflict):
        peer.assign_peer(instructor=instructor, submission=theirs, reviewer=learner)
    assert not PeerAllocation.objects.exists()
    assert client.get(reverse("evidence:submission", args=[theirs.pk])).status_code == 404
    assert client.get(f"/api/evidence/submissions/{theirs.pk}").status_code == 404


def test_the_same_author_is_never_handed_twice_across_versions(learner: User, other_learner: User, instructor: User,
                                                               task: EvidenceTask) -> None:
    """After reviewing an author's version 1, the reviewer is not handed that author's version 2, neither by asking
    nor by an instructor's assignment."""
    submitted(learner, task, "내 글")
    first = submitted(other_learner, task, "판 1")
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    assert allocation.submission == first
    services.record_review(reviewer=learner, submission=first, kind="peer", judgements=insufficient(task), comment="")
    second = submitted(other_learner, task, "판 2")
    assert second.version == 2
    with pytest.raises(NotFound):
        peer.allocate_peer_work(reviewer=learner, task=task)
    with pytest.raises(Conflict, match="이미 이 작성자"):
        peer.assign_peer(instructor=instructor, submission=second, reviewer=learner)
    assert list(PeerAllocation.objects.filter(reviewer=learner).values_list("submission", flat=True)) == [first.pk]


@override_settings(EVIDENCE_PEER_LEASE_HOURS=8)
def test_a_lease_expires_and_then_cannot_be_reviewed(learner: User, other_learner: User, make_user,
                                                     task: EvidenceTask) -> None:
    """A lease runs for the configured hours; after that the review is refused, the lease is recorded as expired
    and the reviewer may ask for other work (never the same author)."""
    submitted(learner, task, "내 글")
    theirs = submitted(other_learner, task)
    before = timezone.now()
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    assert datetime.timedelta(hours=7, minutes=59) < allocation.expires_at - before <= datetime.timedelta(hours=8, seconds=5)
    PeerAllocation.objects.filter(pk=allocation.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    with pytest.raises(Conflict, match="기한이 지났거나"):
        services.record_review(reviewer=learner, submission=theirs, kind="peer", judgements=insufficient(task),
                               comment="")
    late = submitted(make_user("late"), task)
    assert peer.allocate_peer_work(reviewer=learner, task=task).submission == late
    allocation.refresh_from_db()
    assert allocation.end == PeerAllocation.End.EXPIRED
    assert AuditEntry.objects.filter(action="peer.lease_expired").exists()
    assert AuditEntry.objects.filter(action="peer.lease_given", actor=learner).count() == 2


def test_a_lease_can_be_given_back_once_with_a_reason(learner: User, other_learner: User, make_user,
                                                      task: EvidenceTask) -> None:
    """Giving back needs a reason and works once per task; the given-back author is not handed again."""
    submitted(learner, task, "내 글")
    submitted(other_learner, task)
    submitted(make_user("third"), task)
    first = peer.allocate_peer_work(reviewer=learner, task=task)
    with pytest.raises(TutorError, match="이유"):
        peer.give_back(reviewer=learner, allocation=first, reason=" ")
    client = signed_in(learner)
    response = client.post(reverse("evidence:give-back", args=[first.pk]), {"reason": "이 주제를 잘 몰라서"})
    assert response.status_code == 302
    second = peer.allocate_peer_work(reviewer=learner, task=task)
    assert second.submission.author_id != first.submission.author_id
    with pytest.raises(Conflict, match="한 번"):
        peer.give_back(reviewer=learner, allocation=second, reason="또")
    assert signed_in(other_learner).post(reverse("evidence:give-back", args=[second.pk]),
                                         {"reason": "남의 것"}).status_code == 404
    assert AuditEntry.objects.filter(action="peer.lease_returned", reason="이 주제를 잘 몰라서").exists()


def test_workload_is_balanced_across_submissions(make_user, task: EvidenceTask) -> None:
    """While one submission is leased, the next reviewer gets a submission nobody holds yet."""
    authors = [make_user(f"author{n}") for n in range(3)]
    works = [submitted(author, task, f"글 {n}") for n, author in enumerate(authors)]
    reviewers = [make_user(f"reviewer{n}") for n in range(2)]
    for reviewer in reviewers:
        submitted(reviewer, task, "검토자 글")
    handed = [peer.allocate_peer_work(reviewer=r, task=task).submission for r in reviewers]
    assert handed == works[:2]


def test_calibration_comes_first_and_is_its_own_record(learner: User, other_learner: User,
                                                       calibrated_task: EvidenceTask) -> None:
    """Where a task has example submissions, peer work waits for one practice review; the practice review is a
    separate record compared per criterion with the reference and its reasons."""
    task = calibrated_task
    submitted(other_learner, task)
    submitted(learner, task, "내 글")
    with pytest.raises(Conflict, match="연습 예시"):
        peer.allocate_peer_work(reviewer=learner, task=task)
    example = selectors.calibration_examples(task)[0]
    client = signed_in(learner)
    form = client.get(reverse("evidence:calibration", args=[task.slug, example.pk])).content.decode()
    assert "연습 검토 남기기" in form and render_inline_markdown(
        task.current_rubric.criteria[0]["levels"][0]["description"]) in form
    response = client.post(reverse("evidence:practise", args=[task.slug, example.pk]),
                           {f"criterion-{k}": v for k, v in insufficient(task).items()})
    assert response.status_code == 302
    page = client.get(reverse("evidence:calibration", args=[task.slug, example.pk])).content.decode()
    assert "참고 검토" in page and example.reasons[task.current_rubric.criteria[0]["key"]] in page
    assert "같음" in page and "다름" in page
    assert Review.objects.count() == 0
    assert AuditEntry.objects.filter(action="calibration.practice_review", actor=learner).exists()
    assert peer.allocate_peer_work(reviewer=learner, task=task).submission.author == other_learner


def test_reproduction_runs_appear_nowhere_among_the_reviewers_own_work(learner: User, other_learner: User,
                                                                        calibrated_task: EvidenceTask) -> None:
    """A reproduction run is marked as such: not in the reviewer's run history, not what their editor opens with,
    not attachable to their own evidence, and it writes no completion fact."""
    task = calibrated_task
    lab = task.lesson.labs.first()
    original = request_run(user=other_learner, lab=lab, code="print('작성자의 완성 코드')", step="run",
                           idempotency_key="orig")
    theirs = submitted(other_learner, task, run_ids=[original.pk])
    submitted(learner, task, "내 글")
    practise(learner, task)
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    assert allocation.submission == theirs
    reproduction = peer.reproduce_run(reviewer=learner, allocation=allocation, run=original)
    rerun = LabRun.objects.get(pk=reproduction.rerun_id)
    assert rerun.user == learner and rerun.purpose == LabRun.Purpose.REPRODUCTION
    assert lab_selectors.runs_of(learner, lab) == []
    assert lab_selectors.latest_code(learner, lab) == lab.starter_code
    assert selectors.attachable_runs(learner, task) == []
    assert not CompletionRecord.objects.filter(user=learner, kind=CompletionRecord.Kind.LAB_RUN).exists()
    with pytest.raises(NotFound):
        services.save_draft(author=learner, task=task, text="재현을 내 것으로", run_ids=[rerun.pk], lines=[])
    client = signed_in(learner)
    assert "작성자의 완성 코드" not in client.get(reverse("labs:detail", args=[lab.slug])).content.decode()
    assert f"#{rerun.pk} " not in client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert AuditEntry.objects.filter(action="peer.reproduce", actor=learner).exists()


def test_a_reproduction_compares_every_result_and_says_what_changed(learner: User, other_learner: User,
                                                                    calibrated_task: EvidenceTask) -> None:
    """Status, exit code, stdout, stderr and check results are compared, and a newer lab or fixture version since
    the original run is named."""
    lab = calibrated_task.lesson.labs.first()
    common = {"lab": lab, "code": "print(1)", "code_digest": "x", "status": "ok", "exit_code": 0, "stdout": "1\n",
              "stderr": "", "check_results": [{"id": "c1", "passed": True}]}
    original = LabRun.objects.create(user=other_learner, idempotency_key="a", lab_version=1,
                                     fixture_versions={"book-requests": {"number": 1, "digest": "d1"}}, **common)
    same = LabRun.objects.create(user=learner, idempotency_key="b", lab_version=1,
                                 fixture_versions={"book-requests": {"number": 1, "digest": "d1"}}, **common)
    assert peer.compare_runs(original, same) == ([], [])
    changed = LabRun.objects.create(user=learner, idempotency_key="c", lab_version=2,
                                    fixture_versions={"book-requests": {"number": 2, "digest": "d2"}},
                                    **{**common, "stderr": "경고", "check_results": [{"id": "c1", "passed": False}]})
    assert peer.compare_runs(original, changed) == (["stderr", "checks"], ["lab", "fixture:book-requests"])


def test_the_instructors_candidates_follow_the_same_gates_as_asking(make_user, instructor: User,
                                                                   calibrated_task: EvidenceTask) -> None:
    """The queue's reviewer list, read in bulk, offers exactly the learners the peer gates would let through:
    submitted, practised where the task asks, not the author, never handed this author; least loaded first."""
    task = calibrated_task
    author, ready, unpractised, absent, handed = (make_user(name) for name in
                                                  ("author", "ready", "unpractised", "absent", "handed"))
    mine = submitted(author, task)
    for person in (ready, unpractised, handed):
        submitted(person, task, f"{person.username} 글")
    for person in (ready, handed):
        practise(person, task)
    assert peer.allocate_peer_work(reviewer=handed, task=task).submission.author in (author, ready)

    def offered() -> list[str]:
        pool = selectors.reviewer_pool(instructor, [task.pk])
        return [c.user.username for c in pool.candidates_for(mine)]

    expected = [p.username for p in (ready, unpractised, absent, handed)
                if not peer.peer_refusal(p, task) and not peer.handed_authors(p, task).filter(
                    submission__author=author).exists()]
    assert offered() == expected
    assert "ready" in expected and "unpractised" not in expected and "absent" not in expected
    practise(unpractised, task)
    assert "unpractised" in offered()
