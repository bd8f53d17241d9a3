"""From the attacker's side: peer work is read only with a live lease, a one-character submission does not open
the peer step, and a version submitted after reading peer work is marked with its similarity to it."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, PeerAllocation, Submission
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import submitted
from tutor.errors import Conflict, TutorError

HER_SENTENCE = "2번 줄에 따르면 17시 방문 요청은 승인 전이므로 보류로 판단해야 합니다."


def reads(user: User, submission: Submission) -> list[int]:
    client = signed_in(user)
    return [client.get(reverse("evidence:submission", args=[submission.pk])).status_code,
            client.get(f"/api/evidence/submissions/{submission.pk}").status_code]


@override_settings(EVIDENCE_MIN_SUBMISSION_CHARS=20)
def test_a_dot_does_not_open_the_peer_step(learner: User, other_learner: User, task: EvidenceTask) -> None:
    """Submitting "." (or a few letters padded with invisible characters) is refused with a Korean message that
    keeps the draft, so the learner never gets a classmate's work that way; a real submission opens the gate."""
    submitted(other_learner, task, HER_SENTENCE)
    for text in (".", "좋아요\u200b\u200b\u200b\u3164\u3164\u3164" * 3):
        services.save_draft(author=learner, task=task, text=text, run_ids=[], lines=[])
        with pytest.raises(TutorError, match="글자나 숫자가 20자 이상"):
            services.submit(author=learner, task=task, submit_key=f"k-{len(text)}")
    response = signed_in(learner).post(reverse("evidence:submit", args=[task.slug]), {"submit_key": "page"})
    assert response.status_code == 400 and "글자나 숫자가 20자 이상" in response.content.decode()
    assert Submission.objects.get(author=learner).status == Submission.Status.DRAFT
    with pytest.raises(Conflict, match="먼저 이 과제를 제출"):
        peer.allocate_peer_work(reviewer=learner, task=task)
    submitted(learner, task, "내가 직접 쓴 증거: 2번 줄의 승인 조건을 근거로 판단했습니다.")
    assert peer.allocate_peer_work(reviewer=learner, task=task).submission.author == other_learner


def test_a_version_kept_from_before_the_minimum_does_not_open_the_gate(learner: User, other_learner: User,
                                                                       task: EvidenceTask) -> None:
    """A "." submitted before the minimum existed (written straight to the database) counts for nothing."""
    submitted(other_learner, task, HER_SENTENCE)
    Submission.objects.create(task=task, author=learner, version=1, status=Submission.Status.SUBMITTED, text=".",
                              rubric_version=task.current_rubric, submitted_at=timezone.now())
    with pytest.raises(Conflict, match="먼저 이 과제를 제출"):
        peer.allocate_peer_work(reviewer=learner, task=task)


def test_a_returned_or_expired_lease_no_longer_shows_the_work(make_user, learner: User, task: EvidenceTask) -> None:
    """With a returned lease, or one whose time ran out, the peer gets 404 for the work (page and API), so giving
    leases back one after another cannot walk through every classmate's work; a reviewed one stays readable."""
    first, second, third = (make_user(name) for name in ("first", "second", "third"))
    for person in (first, second, third):
        submitted(person, task, f"{person.username}의 증거 글: {HER_SENTENCE}")
    submitted(learner, task, "내가 직접 쓴 증거: 2번 줄의 승인 조건을 근거로 판단했습니다.")
    given_back = peer.allocate_peer_work(reviewer=learner, task=task)
    assert reads(learner, given_back.submission) == [200, 200]
    peer.give_back(reviewer=learner, allocation=given_back, reason="아는 사람 같아요")
    assert reads(learner, given_back.submission) == [404, 404]
    expiring = peer.allocate_peer_work(reviewer=learner, task=task)
    assert reads(learner, expiring.submission) == [200, 200]
    PeerAllocation.objects.filter(pk=expiring.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert reads(learner, expiring.submission) == [404, 404]
    peer.expire_leases()
    assert reads(learner, expiring.submission) == [404, 404]
    reviewed = peer.allocate_peer_work(reviewer=learner, task=task)
    services.record_review(reviewer=learner, submission=reviewed.submission, kind="peer",
                           judgements={c["key"]: "insufficient" for c in task.current_rubric.criteria}, comment="")
    assert reads(learner, reviewed.submission) == [200, 200]


def test_a_version_written_after_reading_peer_work_is_marked_with_its_similarity(
        learner: User, other_learner: User, make_user, instructor: User, task: EvidenceTask) -> None:
    """The learner submits a first version, reads a classmate's work, then submits version 2 with her sentence word
    for word: reviewers and instructors see "동료 작업을 읽은 뒤 제출" with a similarity of 100; a version written
    before reading carries no mark, and the author's own page does not accuse them."""
    hers = submitted(other_learner, task, HER_SENTENCE)
    first = submitted(learner, task, "처음 판: 자료를 아직 자세히 읽지 못했습니다.")
    assert first.peer_work_read == []
    peer.allocate_peer_work(reviewer=learner, task=task)
    copied = submitted(learner, task, "고친 판. " + HER_SENTENCE)
    assert copied.peer_work_read == [{"submission": hers.pk, "similarity": 100}]
    other = submitted(learner, task, "전혀 다른 내용의 셋째 판: 목록 전체를 내 말로 다시 정리했습니다.")
    assert other.peer_work_read[0]["similarity"] < 60
    reviewer = make_user("reviewer")
    submitted(reviewer, task, "검토자의 증거 글: 승인 전 요청은 보류입니다.")
    PeerAllocation.objects.create(submission=copied, reviewer=reviewer,
                                  expires_at=timezone.now() + datetime.timedelta(hours=1))
    for person in (reviewer, instructor):
        page = signed_in(person).get(reverse("evidence:submission", args=[copied.pk])).content.decode()
        assert "동료 작업을 읽은 뒤 제출" in page and "유사도 100%" in page
    assert "동료 작업을 읽은 뒤 제출" not in signed_in(instructor).get(
        reverse("evidence:submission", args=[first.pk])).content.decode()
    api = f"/api/evidence/submissions/{copied.pk}"
    assert signed_in(instructor).get(api).json()["read_peer_work_similarity"] == 100
    assert signed_in(learner).get(api).json()["read_peer_work_similarity"] is None
    queue = signed_in(instructor).get(reverse("evidence:queue")).content.decode()
    assert "동료 작업을 읽은 뒤 제출" in queue
    assert "동료 작업을 읽은 뒤 제출" not in signed_in(learner).get(
        reverse("evidence:submission", args=[copied.pk])).content.decode()
