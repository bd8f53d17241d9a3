"""Release per review: a review reaches its author only once an instructor of the review's cohort released it;
a review written after a release waits for its own; instructors' notes travel with a release and never to peers."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Review, Submission
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import levels, submitted
from tutor.errors import NotFound
from tutor.models import AuditEntry, Cohort
from tutor.roles import Role


def author_sees(author: User, submission: Submission) -> str:
    page = signed_in(author).get(reverse("evidence:submission", args=[submission.pk])).content.decode()
    api = signed_in(author).get(f"/api/evidence/submissions/{submission.pk}").content.decode()
    return page + api


def test_a_late_peer_review_stays_hidden_until_it_is_released(learner: User, other_learner: User, instructor: User,
                                                              task: EvidenceTask) -> None:
    """After the first release, a peer review written later is not shown to the author until released itself."""
    mine = submitted(learner, task)
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="강사 의견 먼저")
    assert services.release_reviews(instructor=instructor, submission=mine) == 1
    assert "강사 의견 먼저" in author_sees(learner, mine)
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    late = services.record_review(reviewer=other_learner, submission=mine, kind="peer", judgements=levels(mine, -1),
                                  comment="늦게 온 동료 의견")
    assert "늦게 온 동료 의견" not in author_sees(learner, mine)
    rows = signed_in(instructor).get("/api/evidence/queue").json()
    assert [r["unreleased"] for r in rows if r["submission"] == mine.pk] == [1]
    response = signed_in(instructor).post(reverse("evidence:release-review", args=[late.pk]))
    assert response.status_code == 302
    assert "늦게 온 동료 의견" in author_sees(learner, mine)
    assert AuditEntry.objects.filter(action="review.release", detail__review=late.pk).exists()


def test_release_is_scoped_to_the_releasing_instructors_cohort(learner: User, instructor: User, make_user,
                                                               task: EvidenceTask) -> None:
    """A learner in two cohorts: one instructor's release leaves the other cohort's instructor review unreleased,
    and that instructor's review gets 404 from the first instructor."""
    other_cohort = Cohort.objects.create(name="둘째 기수")
    join(other_cohort, learner)
    second = make_user("teacher2", Role.INSTRUCTOR, in_cohort=False)
    join(other_cohort, second, "instructor")
    mine = submitted(learner, task)
    theirs = services.record_review(reviewer=second, submission=mine, kind="instructor", judgements=levels(mine, 0),
                                    comment="둘째 기수 강사의 의견")
    assert theirs.cohort == other_cohort
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="첫 기수 강사의 의견")
    assert services.release_reviews(instructor=instructor, submission=mine) == 1
    seen = author_sees(learner, mine)
    assert "첫 기수 강사의 의견" in seen and "둘째 기수 강사의 의견" not in seen
    client = signed_in(instructor)
    assert client.post(reverse("evidence:release-review", args=[theirs.pk])).status_code == 404
    assert client.post(f"/api/evidence/reviews/{theirs.pk}/release", content_type="application/json").status_code == 404
    with pytest.raises(NotFound):
        services.release_review(instructor=instructor, review=theirs)
    services.release_review(instructor=second, review=theirs)
    assert "둘째 기수 강사의 의견" in author_sees(learner, mine)


def test_another_cohorts_instructor_gets_404_for_release_and_settings(learner: User, instructor: User, make_user,
                                                                      cohort: Cohort, task: EvidenceTask) -> None:
    """An instructor who does not teach the learner's cohort cannot release its reviews or change its settings."""
    outsider = make_user("far", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="먼 기수"), outsider, "instructor")
    mine = submitted(learner, task)
    review = services.record_review(reviewer=instructor, submission=mine, kind="instructor",
                                    judgements=levels(mine, 0), comment="")
    client = signed_in(outsider)
    assert client.post(reverse("evidence:release", args=[mine.pk])).status_code == 404
    assert client.post(reverse("evidence:release-review", args=[review.pk])).status_code == 404
    assert client.post(f"/api/evidence/submissions/{mine.pk}/release", content_type="application/json").status_code == 404
    assert client.post(reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug]),
                       {"minimum": "0", "reason": "x"}).status_code == 404
    assert client.get(reverse("evidence:cohort-progress", args=[cohort.pk])).status_code == 404
    with pytest.raises(NotFound):
        services.set_min_peer_reviews(instructor=outsider, task=task, cohort=cohort, minimum=0, reason="x")
    review.refresh_from_db()
    assert review.released_at is None and not cohort.evidence_settings.exists()


def test_instructors_notes_stay_hidden_before_release_and_never_reach_peers(learner: User, other_learner: User,
                                                                          instructor: User,
                                                                          task: EvidenceTask) -> None:
    """A disagreement resolution and a flag's answer reach the author only with a release; the peer never sees
    them."""
    mine = submitted(learner, task)
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    peer_review = services.record_review(reviewer=other_learner, submission=mine, kind="peer",
                                         judgements=levels(mine, 0), comment="")
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, -1),
                           comment="")
    services.resolve_disagreement(instructor=instructor, submission=mine, reason="강사의 불일치 메모")
    peer_page = signed_in(other_learner).get(reverse("evidence:submission", args=[mine.pk])).content.decode()
    assert "강사의 불일치 메모" not in author_sees(learner, mine) and "강사의 불일치 메모" not in peer_page
    services.release_reviews(instructor=instructor, submission=mine)
    assert "강사의 불일치 메모" in author_sees(learner, mine)
    peer_review.refresh_from_db()
    criterion = mine.rubric_version.criteria[0]["key"]
    flag = services.flag_criterion(author=learner, review=peer_review, criterion=criterion, reason="다시 봐 주세요")
    services.resolve_flag(instructor=instructor, flag=flag, resolution="강사의 이의 답변")
    assert "강사의 이의 답변" not in author_sees(learner, mine)
    services.release_reviews(instructor=instructor, submission=mine)
    assert "강사의 이의 답변" in author_sees(learner, mine)
    for text in ("강사의 불일치 메모", "강사의 이의 답변"):
        assert text not in signed_in(other_learner).get(reverse("evidence:submission", args=[mine.pk])).content.decode()
        assert text not in signed_in(other_learner).get(f"/api/evidence/submissions/{mine.pk}").content.decode()


def test_self_reviews_never_wait_and_flags_need_a_released_review(learner: User, instructor: User,
                                                                 task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    own = services.record_review(reviewer=learner, submission=mine, kind="self", judgements=levels(mine, 0),
                                 comment="내 검토")
    assert "내 검토" in author_sees(learner, mine)
    assert not Review.objects.unreleased().filter(pk=own.pk).exists()
    theirs = services.record_review(reviewer=instructor, submission=mine, kind="instructor",
                                    judgements=levels(mine, 0), comment="")
    with pytest.raises(NotFound):
        services.flag_criterion(author=learner, review=theirs, criterion=mine.rubric_version.criteria[0]["key"],
                                reason="공개 전")
