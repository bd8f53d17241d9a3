"""From the attacker's side: an instructor's disagreement note reaches the author only with the instructor review it
concerns, released by that review's cohort, and the audit page picks entries by whose records they are about, so a
learner who assists another cohort reads no unreleased note there."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Submission
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import levels, submitted
from tutor.models import Cohort
from tutor.roles import CohortRole, Role

NOTE = "강사의 비공개 불일치 메모"


def author_sees(author: User, submission: Submission) -> str:
    page = signed_in(author).get(reverse("evidence:submission", args=[submission.pk])).content.decode()
    api = signed_in(author).get(f"/api/evidence/submissions/{submission.pk}").content.decode()
    return page + api


def test_the_note_waits_for_its_instructor_review_and_that_reviews_cohort(
        learner: User, other_learner: User, instructor: User, make_user, cohort: Cohort, task: EvidenceTask) -> None:
    """The author also attends a second cohort. Its instructor releases what they may (nothing of the note's), and
    the note's instructor releases only the peer review: the note stays hidden both times. It reaches the author
    when the instructor review it concerns is released."""
    second = Cohort.objects.create(name="둘째 기수")
    join(second, learner)
    elsewhere = make_user("elsewhere", Role.INSTRUCTOR, in_cohort=False)
    join(second, elsewhere, CohortRole.INSTRUCTOR)
    mine = submitted(learner, task, "작성자의 증거 글")
    submitted(other_learner, task, "동료의 증거 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    peer_review = services.record_review(reviewer=other_learner, submission=mine, kind="peer",
                                         judgements=levels(mine, 0), comment="")
    instructor_review = services.record_review(reviewer=instructor, submission=mine, kind="instructor",
                                               judgements=levels(mine, -1), comment="")
    services.resolve_disagreement(instructor=instructor, submission=mine, reason=NOTE)
    services.release_reviews(instructor=elsewhere, submission=mine)
    assert NOTE not in author_sees(learner, mine)
    signed_in(instructor).post(reverse("evidence:release-review", args=[peer_review.pk]))
    peer_review.refresh_from_db()
    assert peer_review.released_at is not None
    assert NOTE not in author_sees(learner, mine)
    services.release_review(instructor=instructor, review=instructor_review)
    assert NOTE in author_sees(learner, mine)


def test_the_audit_page_never_shows_an_assistant_notes_about_classmates_or_themselves(
        learner: User, other_learner: User, instructor: User, make_user, cohort: Cohort, task: EvidenceTask) -> None:
    """The learner assists another cohort that their own instructor also teaches. Notes that instructor wrote about
    a classmate's work, and about the learner's own, stay off the learner's audit page; so do entries about the
    assisted cohort's records (reading the audit log is an instructor's permission, not an assistant's); what the
    learner did is there. The instructor sees all three."""
    assisted = Cohort.objects.create(name="조교로 돕는 기수")
    join(assisted, learner, CohortRole.ASSISTANT)
    join(assisted, instructor, CohortRole.INSTRUCTOR)
    learner.groups.add(*instructor.groups.all())
    helped = make_user("helped", in_cohort=False)
    join(assisted, helped)
    classmate_work = submitted(other_learner, task, "같은 기수 동료의 글")
    own_work = submitted(learner, task, "조교 학습자 본인의 글")
    helped_work = submitted(helped, task, "돕는 기수 학습자의 글")
    for work, note in ((classmate_work, "동료에 관한 메모"), (own_work, "본인에 관한 메모"),
                       (helped_work, "돕는 기수에 관한 메모")):
        services.resolve_disagreement(instructor=instructor, submission=work, reason=note)
    page = signed_in(learner).get(reverse("tutor:audit")).content.decode()
    assert "동료에 관한 메모" not in page and "본인에 관한 메모" not in page
    assert "돕는 기수에 관한 메모" not in page and "evidence.submit" in page
    teacher_page = signed_in(instructor).get(reverse("tutor:audit")).content.decode()
    assert "동료에 관한 메모" in teacher_page and "돕는 기수에 관한 메모" in teacher_page
