"""Attempts at grounding exercises: paste, split, mark, submit, feedback; limits, idempotency and access."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from exercises.grounding import services
from exercises.grounding.models import Attempt, ClaimMark, Exercise
from exercises.grounding.schemas import MarkIn
from lessons.models import CompletionRecord, SelfReport
from tests.conftest import signed_in
from tests.exercises.grounding.helpers import typed
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import AuditEntry
from tutor.roles import Role

ANSWER = (
    "가람책방은 토요일 오후 5시에도 문을 엽니다(2번 줄). 주차는 무료입니다. "
    "행사 신청은 담당자가 확인한 뒤에 확정됩니다(7번 줄)."
)


def start(user: User, exercise: Exercise, text: str = ANSWER, key: str = "k", variant: str = "") -> Attempt:
    return services.start_attempt(user=user, exercise=exercise, answer_text=text, variant_key=variant, idempotency_key=key)


def mark(attempt: Attempt, order: int, **fields: str) -> None:
    claim = attempt.claims.get(order=order)
    services.mark_claims(user=attempt.user, attempt=attempt, marks=typed({claim.pk: fields}))


def test_pasted_answer_is_split_into_claims_with_offsets(learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    claims = list(attempt.claims.all())
    assert len(claims) == 3
    for claim in claims:
        assert attempt.answer_text[claim.start:claim.end] == claim.text


def test_claims_are_linked_to_their_questions_automatically(learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    assert [c.question_key for c in attempt.claims.all()] == ["visit-1700", "parking-free", "apply-confirmed"]


def test_submitting_the_same_paste_twice_makes_one_attempt(learner_client: Client, bookshop: Exercise) -> None:
    url = reverse("grounding:start", args=[bookshop.slug])
    for _ in range(2):
        response = learner_client.post(url, {"answer": ANSWER, "idempotency_key": "once"})
        assert response.status_code == 302
    assert Attempt.objects.count() == 1


def test_too_long_or_empty_paste_keeps_the_text_with_the_message_beside_the_field(
        learner_client: Client, bookshop: Exercise) -> None:
    """A refused paste comes back on the exercise page: the text in the field, the reason next to it."""
    url = reverse("grounding:start", args=[bookshop.slug])
    long_text = "토요일은 영업합니다. " + "가" * 8001
    long = learner_client.post(url, {"answer": long_text, "idempotency_key": "long"})
    page = long.content.decode()
    assert long.status_code == 413 and "8000자까지" in page
    assert 'id="answer-error"' in page and 'aria-invalid="true"' in page
    assert escape(long_text) in page and "주장으로 나누기" in page
    empty = learner_client.post(url, {"answer": "   ", "idempotency_key": "empty"})
    assert empty.status_code == 400 and "비어 있습니다" in empty.content.decode()
    only_greeting = learner_client.post(url, {"answer": "안녕하세요!\nQ. 토요일에 여나요?", "idempotency_key": "hi"})
    assert only_greeting.status_code == 400 and "주장을 찾지 못했습니다" in only_greeting.content.decode()
    assert not Attempt.objects.exists()


def test_submission_is_a_completion_record_never_a_grade(learner: User, bookshop: Exercise) -> None:
    attempt = services.submit_attempt(user=learner, attempt=start(learner, bookshop))
    assert CompletionRecord.objects.filter(user=learner, kind="exercise_attempted", item="bookshop").count() == 1
    assert not SelfReport.objects.exists()
    text = str(attempt.feedback)
    for word in ("mastered", "숙달", "합격", "점수"):
        assert word not in text


def test_only_the_author_writes_an_attempt_even_past_the_page(learner: User, other_learner: User, instructor: User,
                                                              bookshop: Exercise) -> None:
    """The writers check the author themselves: another learner or an instructor calling them gets the page's
    404 for marks, merge, split and submit, and the attempt is unchanged; the author's submit is audited."""
    attempt = start(learner, bookshop)
    claim = attempt.claims.get(order=1)
    for someone in (other_learner, instructor):
        with pytest.raises(NotFound):
            services.mark_claims(user=someone, attempt=attempt, marks=[MarkIn(claim=claim.pk, judgement="grounded")])
        with pytest.raises(NotFound):
            services.merge_with_next(user=someone, attempt=attempt, claim_id=claim.pk)
        with pytest.raises(NotFound):
            services.split_claim(user=someone, attempt=attempt, claim_id=claim.pk, before="오후")
        with pytest.raises(NotFound):
            services.submit_attempt(user=someone, attempt=attempt)
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.DRAFT and attempt.claims.count() == 3
    assert attempt.claims.get(order=1).judgement == ""
    assert not AuditEntry.objects.filter(action="grounding.submit").exists()
    services.submit_attempt(user=learner, attempt=attempt)
    services.submit_attempt(user=learner, attempt=attempt)
    entries = AuditEntry.objects.filter(action="grounding.submit")
    assert [(e.actor_id, e.target_id) for e in entries] == [(learner.pk, str(attempt.pk))]


def test_submitted_attempt_cannot_be_changed_and_resubmission_keeps_every_attempt(learner: User, bookshop: Exercise) -> None:
    first = services.submit_attempt(user=learner, attempt=start(learner, bookshop, key="a"))
    with pytest.raises(Conflict):
        mark(first, 1, judgement="no_data")
    assert services.submit_attempt(user=first.user, attempt=first).submitted_at == first.submitted_at
    second = start(learner, bookshop, key="b")
    assert (first.number, second.number) == (1, 2) and Attempt.objects.count() == 2


def test_a_save_that_read_the_attempt_before_it_was_submitted_changes_nothing_after(
        learner: User, bookshop: Exercise) -> None:
    """An autosave sent before 제출 but served after it holds a stale draft: it is refused, the seal stands.

    The request read the attempt as a draft; the submit sealed it meanwhile. The save must read the
    status again under the lock, not trust the copy it was given, or it rewrites a sealed attempt.
    """
    attempt = start(learner, bookshop)
    stale = Attempt.objects.get(pk=attempt.pk)  # what the autosave's request read: a draft
    claim = attempt.claims.get(order=1)
    services.submit_attempt(user=attempt.user, attempt=attempt, marks=typed({claim.pk: {"judgement": "grounded", "lines": "2"}}))
    for change in (lambda: services.mark_claims(user=stale.user, attempt=stale, marks=[MarkIn(claim=claim.pk, lines=[])]),
                   lambda: services.merge_with_next(user=stale.user, attempt=stale, claim_id=claim.pk),
                   lambda: services.split_claim(user=stale.user, attempt=stale, claim_id=claim.pk, before="토요일")):
        with pytest.raises(Conflict):
            change()
    claim.refresh_from_db()
    assert (claim.judgement, claim.cited_lines, attempt.claims.count()) == ("grounded", [2], 3)


def test_the_submit_saves_the_pages_marks_and_seals_them_in_one_step(
        learner_client: Client, learner: User, bookshop: Exercise) -> None:
    """The 제출 post carries every mark; feedback is on those marks, and pressing 제출 twice shows the feedback."""
    attempt = start(learner, bookshop)
    claims = list(attempt.claims.all())
    url = reverse("grounding:marks", args=[attempt.pk])
    form = {"submit": "1", "confirm_unjudged": "1"}
    form.update({f"judgement-{c.pk}": "" for c in claims})
    form.update({f"judgement-{claims[0].pk}": "grounded", f"lines-{claims[0].pk}": "2"})
    for _ in range(2):
        response = learner_client.post(url, form)
        assert response.status_code == 302 and response["Location"] == reverse("grounding:attempt", args=[attempt.pk])
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SUBMITTED
    assert attempt.claims.get(order=1).cited_lines == [2]
    assert attempt.feedback["claims"][0]["judgement"] == "grounded"


def test_submit_with_unjudged_claims_saves_the_marks_and_asks_first(
        learner_client: Client, learner: User, bookshop: Exercise) -> None:
    """Without the confirmation the marks are kept, the attempt stays a draft, and the page asks."""
    attempt = start(learner, bookshop)
    first = attempt.claims.get(order=1)
    response = learner_client.post(reverse("grounding:marks", args=[attempt.pk]),
                                   {"submit": "1", f"judgement-{first.pk}": "no_data"})
    assert response.status_code == 200 and "3개 중 1개 판단함" in response.content.decode()
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.DRAFT and attempt.claims.get(order=1).judgement == "no_data"


def test_merge_and_split_keep_offsets_into_the_paste(learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    first = attempt.claims.get(order=1)
    services.merge_with_next(user=attempt.user, attempt=attempt, claim_id=first.pk)
    merged = attempt.claims.get(order=1)
    assert attempt.claims.count() == 2 and merged.text == attempt.answer_text[merged.start:merged.end]
    assert "주차는" in merged.text
    services.split_claim(user=attempt.user, attempt=attempt, claim_id=merged.pk, before="주차는")
    assert attempt.claims.count() == 3
    for claim in attempt.claims.all():
        assert claim.text == attempt.answer_text[claim.start:claim.end]
    with pytest.raises(TutorError):
        services.split_claim(user=attempt.user, attempt=attempt, claim_id=merged.pk, before="없는낱말")


def test_cited_lines_outside_the_source_are_refused(learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    with pytest.raises(TutorError, match="99번 줄은 없습니다"):
        mark(attempt, 1, lines="2, 99")
    with pytest.raises(TutorError):
        mark(attempt, 1, lines="둘째 줄")
    assert attempt.claims.get(order=1).cited_lines == []


def test_marking_page_never_contains_the_answer_key(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    page = learner_client.get(reverse("grounding:attempt", args=[attempt.pk])).content.decode()
    for question in bookshop.questions.all():
        assert escape(question.explanation) not in page
    exercise_page = learner_client.get(reverse("grounding:detail", args=[bookshop.slug])).content.decode()
    assert all(escape(q.explanation) not in exercise_page for q in bookshop.questions.all())
    api = learner_client.get(f"/api/grounding/attempts/{attempt.pk}").json()
    assert api["feedback"] is None


def test_pasted_html_is_escaped_everywhere(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    hostile = "<script>alert(1)</script> 책방은 11시에 엽니다. <img src=x onerror=alert(2)> 주차는 무료입니다."
    attempt = start(learner, bookshop, text=hostile, key="xss")
    for url in (reverse("grounding:attempt", args=[attempt.pk]),):
        page = learner_client.get(url).content.decode()
        assert "<script>alert(1)" not in page and "<img src=x" not in page
        assert "&lt;script&gt;" in page
    services.submit_attempt(user=attempt.user, attempt=attempt)
    page = learner_client.get(reverse("grounding:attempt", args=[attempt.pk])).content.decode()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_another_learner_gets_404_and_instructors_see_attempts(learner: User, other_learner: User, instructor: User,
                                                                make_user, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    other = signed_in(other_learner)
    assert other.get(reverse("grounding:attempt", args=[attempt.pk])).status_code == 404
    assert other.get(f"/api/grounding/attempts/{attempt.pk}").status_code == 404
    claim = attempt.claims.first()
    assert other.post(reverse("grounding:marks", args=[attempt.pk]), {f"judgement-{claim.pk}": "no_data"}).status_code == 404
    teacher = signed_in(instructor)
    assert teacher.get(reverse("grounding:attempt", args=[attempt.pk])).status_code == 200
    assert teacher.post(reverse("grounding:marks", args=[attempt.pk]), {f"judgement-{claim.pk}": "no_data"}).status_code == 404
    listing = teacher.get(reverse("grounding:learner-attempts", args=[bookshop.slug, "learner"]))
    assert listing.status_code == 200 and "시도 1" in listing.content.decode()
    outsider = signed_in(make_user("far", Role.INSTRUCTOR, in_cohort=False))
    assert outsider.get(reverse("grounding:attempt", args=[attempt.pk])).status_code == 404
    assert outsider.get(reverse("grounding:learner-attempts", args=[bookshop.slug, "learner"])).status_code == 404
    assert ClaimMark.objects.get(pk=claim.pk).judgement == ""


def test_visitors_must_sign_in_for_exercises(client: Client, bookshop: Exercise) -> None:
    response = client.get(reverse("grounding:detail", args=[bookshop.slug]))
    assert response.status_code == 302 and "/account/sign-in/" in response["Location"]


def test_suggestions_are_shown_only_when_asked(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    attempt = start(learner, bookshop)
    page = learner_client.get(reverse("grounding:attempt", args=[attempt.pk])).content.decode()
    assert "근거 후보 (자동 힌트" not in page
    claim = attempt.claims.get(order=1)
    fragment = learner_client.get(reverse("grounding:suggestions", args=[attempt.pk, claim.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert "근거 후보" in fragment and "2번 줄" in fragment
    assert attempt.claims.get(order=1).cited_lines == [], "a suggestion is never filled in for the learner"
