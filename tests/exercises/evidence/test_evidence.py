"""Evidence: autosaved drafts, idempotent submission with recorded versions, self and instructor reviews as
separate records, release before the author sees them, and 404 for everyone else."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import INSUFFICIENT, EvidenceTask, Review, Submission
from exercises.labs.models import LabRun
from exercises.labs.services import request_run
from lessons.models import Lesson
from lessons.selectors import progress_of
from lessons.services import load_course
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient, submitted
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import AuditEntry
from tutor.roles import Role


def all_levels(submission: Submission, level: str = INSUFFICIENT) -> dict[str, str]:
    return {c["key"]: level for c in submission.rubric_version.criteria}


def test_every_lesson_has_three_kinds_of_task_with_a_rubric(course: list[Lesson]) -> None:
    for lesson in course:
        kinds = sorted(EvidenceTask.objects.filter(lesson=lesson).values_list("kind", flat=True))
        assert kinds == ["explain", "practice", "transfer"], lesson.slug
    assert all(t.current_rubric and t.current_rubric.criteria for t in EvidenceTask.objects.all())


def test_draft_autosaves_and_submitting_twice_makes_one_submission(learner_client: Client, learner: User, task: EvidenceTask) -> None:
    response = learner_client.post(reverse("evidence:draft", args=[task.slug]), {"text": "초안 글", "lines": ""}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "초안 저장됨" in response.content.decode()
    page = learner_client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert "초안 글" in page
    for _ in range(2):
        learner_client.post(reverse("evidence:submit", args=[task.slug]), {"submit_key": "same"})
    submission = Submission.objects.get(author=learner)
    assert submission.status == "submitted" and submission.rubric_version == task.current_rubric
    if task.fixture:
        assert submission.fixture_version == task.fixture.current_version


def test_submit_seals_the_text_on_the_screen_even_before_its_autosave_arrives(
        learner_client: Client, learner: User, task: EvidenceTask) -> None:
    """The 제출 post carries the form: the last sentence typed within the autosave's delay is in the
    submission, and an autosave of version 1 sent before 제출 but served after it is refused (409)
    instead of opening version 2 with the older text."""
    draft_url, submit_url = reverse("evidence:draft", args=[task.slug]), reverse("evidence:submit", args=[task.slug])
    older = "재현 기록을 붙였습니다. 시도 3에서 초안 1이 나왔습니다."
    newest = older + " 마지막 줄: 표와 출력이 맞습니다."
    assert learner_client.post(draft_url, {"text": older, "lines": "", "version": "1"},
                               HTTP_HX_REQUEST="true").status_code == 200
    page = learner_client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert 'name="version" value="1"' in page
    response = learner_client.post(submit_url, {"text": newest, "lines": "", "version": "1", "submit_key": "k1"},
                                   HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    late = learner_client.post(draft_url, {"text": older, "lines": "", "version": "1"}, HTTP_HX_REQUEST="true")
    assert late.status_code == 409 and "이미 제출했습니다" in late.content.decode()
    assert [(s.version, s.status, s.text) for s in Submission.objects.filter(author=learner)] == [
        (1, "submitted", newest)]
    page = learner_client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert 'name="version" value="2"' in page  # the next page writes the next version


@override_settings(EVIDENCE_MIN_SUBMISSION_CHARS=20)
def test_a_refused_submit_keeps_the_saved_draft_as_it_was(learner: User, task: EvidenceTask) -> None:
    """Too short to submit: nothing is sealed and the stored draft is not replaced by the refused text."""
    services.save_draft(author=learner, task=task, text="저장된 초안입니다. " * 5, run_ids=[], lines=[])
    with pytest.raises(TutorError, match="이상 있어야"):
        services.submit(author=learner, task=task, submit_key="short",
                        draft_fields={"text": "짧음", "run_ids": [], "lines": [], "move_citations": False,
                                      "version": 1})
    draft = Submission.objects.get(author=learner)
    assert draft.status == "draft" and draft.text.startswith("저장된 초안입니다.")


def test_resubmission_makes_a_new_version_and_keeps_the_old(learner: User, task: EvidenceTask) -> None:
    first = submitted(learner, task, "첫 판")
    second = submitted(learner, task, "둘째 판")
    assert (first.version, second.version) == (1, 2)
    first.refresh_from_db()
    assert first.text == "첫 판" and first.status == "submitted"


def test_empty_or_oversized_drafts_are_refused_with_messages(learner: User, task: EvidenceTask) -> None:
    with pytest.raises(TutorError, match="20000자"):
        services.save_draft(author=learner, task=task, text="가" * 20001, run_ids=[], lines=[])
    with pytest.raises(TutorError, match="제출할 글이 없습니다"):
        services.submit(author=learner, task=task, submit_key="empty")


def test_only_own_lab_runs_can_be_attached(learner: User, other_learner: User, course: list[Lesson]) -> None:
    task = EvidenceTask.objects.filter(attach_runs=True).first()
    lab = task.lesson.labs.first()
    foreign = request_run(user=other_learner, lab=lab, code="print(1)", step="run", idempotency_key="x")
    with pytest.raises(NotFound):
        services.save_draft(author=learner, task=task, text="글", run_ids=[foreign.pk], lines=[])
    own = request_run(user=learner, lab=lab, code="print(2)", step="run", idempotency_key="y")
    draft = services.save_draft(author=learner, task=task, text="글", run_ids=[own.pk], lines=[])
    assert list(draft.lab_runs.all()) == [own]
    assert LabRun.objects.count() == 2


def test_self_and_instructor_reviews_are_separate_records(learner: User, instructor: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task)
    mine = services.record_review(reviewer=learner, submission=submission, kind="self", judgements=all_levels(submission), comment="")
    key = submission.rubric_version.criteria[0]["levels"][-1]["key"]
    theirs = services.record_review(reviewer=instructor, submission=submission, kind="instructor",
                                    judgements=all_levels(submission, key), comment="좋습니다")
    assert Review.objects.count() == 2 and mine.judgements != theirs.judgements
    with pytest.raises(Conflict):
        services.record_review(reviewer=instructor, submission=submission, kind="instructor", judgements=all_levels(submission), comment="")
    assert AuditEntry.objects.about(submission).filter(action="review.instructor", actor=instructor).exists()


def test_every_criterion_must_be_judged_and_insufficient_is_valid(learner: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task)
    with pytest.raises(TutorError, match="근거 부족 / 보류"):
        services.record_review(reviewer=learner, submission=submission, kind="self", judgements={}, comment="")
    services.record_review(reviewer=learner, submission=submission, kind="self", judgements=all_levels(submission), comment="")


def test_reviews_reach_the_author_only_after_release(learner: User, instructor: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task)
    services.record_review(reviewer=instructor, submission=submission, kind="instructor",
                           judgements=all_levels(submission), comment="강사 의견 비공개")
    author = signed_in(learner)
    url = reverse("evidence:submission", args=[submission.pk])
    assert "강사 의견 비공개" not in author.get(url).content.decode()
    assert not any("강사 검토" in r for e in progress_of(learner) for r in e.reviews)
    assert all("강사" not in r for item in author.get("/api/me/progress").json()["lessons"] for r in item["review"]["records"])
    services.release_reviews(instructor=instructor, submission=submission)
    assert "강사 의견 비공개" in author.get(url).content.decode()
    assert any("강사 검토" in r for e in progress_of(learner) for r in e.reviews)
    assert AuditEntry.objects.about(submission).filter(action="review.release").exists()


def test_others_get_404_and_outside_instructors_cannot_review(learner: User, other_learner: User, make_user,
                                                              fixture_admin: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task)
    url = reverse("evidence:submission", args=[submission.pk])
    for user in (other_learner, fixture_admin, make_user("far", Role.INSTRUCTOR, in_cohort=False)):
        client = signed_in(user)
        assert client.get(url).status_code == 404
        assert client.post(reverse("evidence:review", args=[submission.pk]), {}).status_code == 404
        assert client.post(reverse("evidence:release", args=[submission.pk])).status_code == 404
    outsider = make_user("far2", Role.INSTRUCTOR, in_cohort=False)
    with pytest.raises(NotFound):
        services.record_review(reviewer=outsider, submission=submission, kind="instructor", judgements=all_levels(submission), comment="")


def test_other_learners_drafts_never_show(learner: User, other_learner: User, task: EvidenceTask) -> None:
    draft = services.save_draft(author=learner, task=task, text="남의 초안 비밀", run_ids=[], lines=[])
    client = signed_in(other_learner)
    assert client.get(reverse("evidence:submission", args=[draft.pk])).status_code == 404
    assert "남의 초안 비밀" not in client.get(reverse("evidence:task", args=[task.slug])).content.decode()


def test_submission_markdown_is_sanitised(learner_client: Client, learner: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task, "**굵게** <script>alert(1)</script> <img src=x onerror=alert(2)>")
    page = learner_client.get(reverse("evidence:submission", args=[submission.pk])).content.decode()
    assert "<strong>굵게</strong>" in page and "<script>alert(1)" not in page and "<img src=x" not in page


def test_changed_rubric_shows_standard_changed(learner_client: Client, learner: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task)
    url = reverse("evidence:submission", args=[submission.pk])
    assert "기준 변경됨" not in learner_client.get(url).content.decode()
    from exercises.evidence.models import RubricVersion

    criteria = [dict(c, title=c["title"] + " (고침)") for c in task.current_rubric.criteria]
    task.current_rubric = RubricVersion.objects.create(task=task, number=2, criteria=criteria, digest="x")
    task.save()
    assert "기준 변경됨" in learner_client.get(url).content.decode()
    submission.refresh_from_db()
    assert submission.rubric_version.number == 1


def test_peer_allocation_is_just_in_time_never_own_never_twice(learner: User, other_learner: User, make_user,
                                                               task: EvidenceTask) -> None:
    theirs = submitted(other_learner, task)
    submitted(learner, task)
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    assert allocation.submission == theirs
    assert peer.allocate_peer_work(reviewer=learner, task=task) == allocation, "an open allocation is returned again"
    services.record_review(reviewer=learner, submission=theirs, kind="peer", judgements=all_levels(theirs), comment="")
    with pytest.raises(NotFound):
        peer.allocate_peer_work(reviewer=learner, task=task)  # only their own remains
    late = make_user("late")
    late_submission = submitted(late, task)
    assert peer.allocate_peer_work(reviewer=learner, task=task).submission == late_submission


def test_peer_is_anonymous_both_ways(learner: User, other_learner: User, instructor: User, task: EvidenceTask) -> None:
    theirs = submitted(other_learner, task)
    submitted(learner, task, "내 글")
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    page = signed_in(learner).get(reverse("evidence:submission", args=[theirs.pk])).content.decode()
    assert "익명 동료" in page and other_learner.username not in page
    services.record_review(reviewer=learner, submission=theirs, kind="peer", judgements=all_levels(theirs), comment="동료 의견")
    services.release_reviews(instructor=instructor, submission=theirs)
    author_page = signed_in(other_learner).get(reverse("evidence:submission", args=[theirs.pk])).content.decode()
    assert "동료 의견" in author_page and learner.username not in author_page
    assert allocation.reproductions.count() == 0


def test_a_peer_without_allocation_gets_404(learner: User, other_learner: User, task: EvidenceTask) -> None:
    theirs = submitted(other_learner, task)
    assert signed_in(learner).get(reverse("evidence:submission", args=[theirs.pk])).status_code == 404
    with pytest.raises(NotFound):
        services.record_review(reviewer=learner, submission=theirs, kind="peer", judgements=all_levels(theirs), comment="")


def test_flag_one_criterion_and_resolve_with_a_reason(learner: User, other_learner: User, instructor: User,
                                                      task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    review = services.record_review(reviewer=other_learner, submission=mine, kind="peer", judgements=all_levels(mine), comment="")
    criterion = mine.rubric_version.criteria[0]["key"]
    with pytest.raises(NotFound):
        services.flag_criterion(author=learner, review=review, criterion=criterion, reason="아직 공개 전")
    services.release_reviews(instructor=instructor, submission=mine)
    review.refresh_from_db()
    assert review.released_at is not None
    flag = services.flag_criterion(author=learner, review=review, criterion=criterion, reason="2번 줄을 인용했습니다")
    with pytest.raises(Conflict):
        services.flag_criterion(author=learner, review=review, criterion=criterion, reason="다시")
    services.rate_helpful(author=learner, review=review, helpful=True)
    services.rate_helpful(author=learner, review=review, helpful=True)  # a retry changes nothing
    [rated] = AuditEntry.objects.about(review).filter(action="evidence.rate_helpful")
    assert rated.actor == learner and rated.after == {"helpful": True}
    with pytest.raises(NotFound):
        services.rate_helpful(author=other_learner, review=review, helpful=False)
    review.refresh_from_db()
    assert review.helpful is True
    with pytest.raises(NotFound):
        services.resolve_flag(instructor=other_learner, flag=flag, resolution="x")
    services.resolve_flag(instructor=instructor, flag=flag, resolution="인용이 맞습니다. 충족으로 봅니다.")
    flag.refresh_from_db()
    assert flag.resolved_by == instructor and AuditEntry.objects.filter(action="flag.resolve").exists()


@pytest.mark.django_db(transaction=True)
def test_peer_reproduces_an_attached_run_in_the_sandbox(learner: User, other_learner: User, drain_queue) -> None:
    load_course(content_dir=settings.CONTENT_DIR)
    task = EvidenceTask.objects.get(slug="tr-practice")
    lab = task.lesson.labs.first()
    run = request_run(user=other_learner, lab=lab, code="print('같은 출력')", step="run", idempotency_key="orig")
    drain_queue()
    services.save_draft(author=other_learner, task=task, text="실행을 붙입니다", run_ids=[run.pk], lines=[])
    theirs = services.submit(author=other_learner, task=task, submit_key="s")
    submitted(learner, task, "내 글")
    services.record_practice_review(reviewer=learner, example=task.calibration_examples.first(),
                                    judgements=insufficient(task))
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    reproduction = peer.reproduce_run(reviewer=learner, allocation=allocation, run=run)
    assert reproduction.status == "pending"
    drain_queue()
    reproduction.refresh_from_db()
    assert reproduction.status == "reproduced", "the worker settled it when the re-run ended, before any page"
    assert theirs.lab_runs.count() == 1


def test_a_review_cites_what_each_judgement_rests_on(learner: User, instructor: User, task: EvidenceTask) -> None:
    submission = submitted(learner, task, "2번 줄에 따라 17시 방문은 근거입니다.")
    first = submission.rubric_version.criteria[0]["key"]
    response = signed_in(instructor).post(reverse("evidence:review", args=[submission.pk]), {
        **{f"criterion-{k}": v for k, v in all_levels(submission).items()},
        f"citation-{first}": "\"2번 줄에 따라\"라는 문장", "citation-unknown": "무시됨", "comment": "",
    })
    assert response.status_code == 302
    review = Review.objects.get()
    assert review.citations == {first: "\"2번 줄에 따라\"라는 문장"}
