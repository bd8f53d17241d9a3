"""The evidence API follows the same rules as the pages: 404 for what is not yours, no unreleased reviews,
no peer names."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from exercises.evidence import peer, services
from exercises.evidence.models import INSUFFICIENT, EvidenceTask, Submission
from tests.conftest import signed_in


@pytest.fixture
def submission(learner: User, task: EvidenceTask) -> Submission:
    services.save_draft(author=learner, task=task, text="내 증거", run_ids=[], lines=[])
    return services.submit(author=learner, task=task, submit_key="k")


def judgements(submission: Submission) -> dict[str, str]:
    return {c["key"]: INSUFFICIENT for c in submission.rubric_version.criteria}


def post(client, url: str, body: dict):
    return client.post(url, body, content_type="application/json")


def test_author_sees_own_and_others_get_404(learner: User, other_learner: User, submission: Submission) -> None:
    assert signed_in(learner).get(f"/api/evidence/submissions/{submission.pk}").json()["author"] == "나"
    assert [s["id"] for s in signed_in(learner).get("/api/evidence/submissions").json()] == [submission.pk]
    assert signed_in(other_learner).get(f"/api/evidence/submissions/{submission.pk}").status_code == 404
    assert signed_in(other_learner).get("/api/evidence/submissions").json() == []
    assert post(signed_in(other_learner), f"/api/evidence/submissions/{submission.pk}/reviews",
                {"judgements": judgements(submission)}).status_code == 404


def test_unreleased_instructor_review_never_reaches_the_author(learner: User, instructor: User, submission: Submission) -> None:
    teacher = signed_in(instructor)
    response = post(teacher, f"/api/evidence/submissions/{submission.pk}/reviews",
                    {"judgements": judgements(submission), "comment": "아직 비공개"})
    assert response.status_code == 201
    author_view = signed_in(learner).get(f"/api/evidence/submissions/{submission.pk}").content.decode()
    assert "아직 비공개" not in author_view
    assert post(signed_in(learner), f"/api/evidence/submissions/{submission.pk}/release", {}).status_code == 404
    assert post(teacher, f"/api/evidence/submissions/{submission.pk}/release", {}).status_code == 200
    assert "아직 비공개" in signed_in(learner).get(f"/api/evidence/submissions/{submission.pk}").content.decode()


def test_peer_names_never_appear_in_the_api(learner: User, other_learner: User, instructor: User,
                                            submission: Submission, task: EvidenceTask) -> None:
    services.save_draft(author=other_learner, task=task, text="동료 증거", run_ids=[], lines=[])
    services.submit(author=other_learner, task=task, submit_key="k2")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    peer_client = signed_in(other_learner)
    seen_by_peer = peer_client.get(f"/api/evidence/submissions/{submission.pk}").json()
    assert seen_by_peer["author"] == "익명 동료" and learner.username not in json.dumps(seen_by_peer, ensure_ascii=False)
    assert post(peer_client, f"/api/evidence/submissions/{submission.pk}/reviews", {"judgements": judgements(submission)}).status_code == 201
    services.release_reviews(instructor=instructor, submission=submission)
    seen_by_author = signed_in(learner).get(f"/api/evidence/submissions/{submission.pk}").json()
    assert other_learner.username not in json.dumps(seen_by_author, ensure_ascii=False)
    assert seen_by_author["reviews"][0]["reviewer"] == "익명 동료"


def test_queue_is_for_instructors_only(learner: User, instructor: User, submission: Submission) -> None:
    assert signed_in(learner).get("/api/evidence/queue").status_code == 404
    rows = signed_in(instructor).get("/api/evidence/queue").json()
    assert rows[0]["submission"] == submission.pk and rows[0]["state"] == "needs_review"


def test_flag_needs_a_released_review_of_own_work(learner: User, instructor: User, submission: Submission) -> None:
    services.record_review(reviewer=instructor, submission=submission, kind="instructor", judgements=judgements(submission), comment="")
    review = submission.reviews.get()
    criterion = submission.rubric_version.criteria[0]["key"]
    assert post(signed_in(learner), f"/api/evidence/reviews/{review.pk}/flags", {"criterion": criterion, "reason": "이유"}).status_code == 404
    services.release_reviews(instructor=instructor, submission=submission)
    assert post(signed_in(learner), f"/api/evidence/reviews/{review.pk}/flags", {"criterion": criterion, "reason": "이유"}).status_code == 201
