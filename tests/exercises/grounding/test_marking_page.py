"""The marking page counts what is judged, never says it saved before a save succeeded, and asks (a page of its
own, no script) before submitting claims the learner has not judged."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from exercises.grounding import services
from exercises.grounding.models import Attempt, Exercise
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db
ANSWER = "가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다. 행사 신청은 담당자 확인 뒤 확정됩니다."


def started(learner: User, bookshop: Exercise) -> Attempt:
    return services.start_attempt(user=learner, exercise=bookshop, answer_text=ANSWER, variant_key="",
                                  idempotency_key="m1")


def test_the_page_counts_judged_claims_and_says_saved_only_after_a_save(learner: User, bookshop: Exercise) -> None:
    """Before any save the status is empty (no "저장했습니다."); the count reads "3개 중 0개 판단함", then 1 after a
    mark; an htmx save answers "저장했습니다."; the marks form names its attempt for the browser's kept copy."""
    attempt = started(learner, bookshop)
    client = signed_in(learner)
    page = client.get(f"/exercises/attempts/{attempt.pk}/").content.decode()
    assert "3개 중 0개 판단함" in page and "저장했습니다" not in page
    assert f'data-attempt="{attempt.pk}" data-keep-marks' in page
    first = attempt.claims.first()
    assert first is not None
    saved = client.post(f"/exercises/attempts/{attempt.pk}/marks/", {f"judgement-{first.pk}": "grounded"},
                        HTTP_HX_REQUEST="true")
    assert "저장했습니다." in saved.content.decode()
    assert "3개 중 1개 판단함" in client.get(f"/exercises/attempts/{attempt.pk}/").content.decode()


def test_submitting_with_unjudged_claims_asks_first(learner: User, bookshop: Exercise) -> None:
    """Submit with one of three claims judged: a confirmation page lists the two others and the attempt stays a
    draft (the mark is saved); confirming submits it."""
    attempt = started(learner, bookshop)
    first = attempt.claims.first()
    assert first is not None
    client = signed_in(learner)
    asked = client.post(f"/exercises/attempts/{attempt.pk}/marks/", {f"judgement-{first.pk}": "grounded", "submit": "1"})
    body = asked.content.decode()
    assert asked.status_code == 200 and "3개 중 1개 판단함" in body and "판단하지 않은 채로 제출하기" in body
    assert "주차는 무료입니다." in body and 'name="confirm_unjudged" value="1"' in body
    assert "<script>" not in body and "onclick" not in body
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.DRAFT and attempt.claims.get(pk=first.pk).judgement == "grounded"
    done = client.post(f"/exercises/attempts/{attempt.pk}/marks/", {"submit": "1", "confirm_unjudged": "1"})
    assert done.status_code == 302
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SUBMITTED


def test_submitting_with_every_claim_judged_does_not_ask(learner: User, bookshop: Exercise) -> None:
    """When every claim is judged (주장 아님 counts), submit goes straight to the feedback."""
    attempt = started(learner, bookshop)
    marks = {f"judgement-{c.pk}": "not_claim" for c in attempt.claims.all()}
    response = signed_in(learner).post(f"/exercises/attempts/{attempt.pk}/marks/", {**marks, "submit": "1"})
    assert response.status_code == 302
    attempt.refresh_from_db()
    assert attempt.status == Attempt.Status.SUBMITTED
