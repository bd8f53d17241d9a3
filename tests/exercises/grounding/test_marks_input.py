"""One input path for marks: the marking page's form and the API's schema hand the service the same ``MarkIn``s,
and cited line numbers are read by one field for every page (``tutor.forms.LineNumbersField``)."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth.models import User

from exercises.grounding import services
from exercises.grounding.forms import MarksForm
from exercises.grounding.models import Attempt, Exercise
from exercises.grounding.schemas import MarkIn
from tests.conftest import signed_in
from tutor.forms import LineNumbersField

pytestmark = pytest.mark.django_db
ANSWER = "가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다. 행사 신청은 담당자 확인 뒤 확정됩니다."


def started(learner: User, bookshop: Exercise, key: str) -> Attempt:
    return services.start_attempt(user=learner, exercise=bookshop, answer_text=ANSWER, variant_key="",
                                  idempotency_key=key)


def marks_of(attempt: Attempt) -> list[tuple[str, str, list[int]]]:
    return [(c.judgement, c.question_key, c.cited_lines) for c in attempt.claims.order_by("order")]


def test_line_numbers_are_read_one_way() -> None:
    """Commas, spaces and 번 separate; the list is sorted without repeats; an empty box is no lines."""
    field = LineNumbersField(required=False)
    assert field.clean("7, 2 2번 5") == [2, 5, 7]
    assert field.clean("") == []
    assert field.clean("  ") == []


@pytest.mark.parametrize("typed", ["²", "１", "둘째", "-1", "9" * 5000, " ".join(str(n) for n in range(1, 52))])
def test_line_numbers_refuse_what_is_not_ascii_digits_or_too_many(typed: str) -> None:
    """A superscript, a full-width digit, a word, a sign, a 5,000-digit number or 51 lines: a Korean refusal."""
    with pytest.raises(forms.ValidationError) as refused:
        LineNumbersField(required=False).clean(typed)
    assert "줄" in str(refused.value)


def test_the_page_and_the_api_save_the_same_marks(learner: User, bookshop: Exercise) -> None:
    """The same marks sent by the page (typed text) and by the API (JSON) leave the same claims."""
    client = signed_in(learner)
    by_page, by_api = started(learner, bookshop, "page"), started(learner, bookshop, "api")
    page_claims = list(by_page.claims.order_by("order").values_list("pk", flat=True))
    api_claims = list(by_api.claims.order_by("order").values_list("pk", flat=True))
    question = bookshop.questions.first()
    assert question is not None
    sent = client.post(f"/exercises/attempts/{by_page.pk}/marks/", {
        f"judgement-{page_claims[0]}": "grounded", f"lines-{page_claims[0]}": "4, 2번",
        f"question-{page_claims[0]}": question.key,
        f"judgement-{page_claims[1]}": "no_data", f"lines-{page_claims[1]}": "",
    })
    assert sent.status_code == 302
    saved = client.post(f"/api/grounding/attempts/{by_api.pk}/marks", {"marks": [
        {"claim": api_claims[0], "judgement": "grounded", "lines": [4, 2], "question": question.key},
        {"claim": api_claims[1], "judgement": "no_data", "lines": []},
    ]}, content_type="application/json")
    assert saved.status_code == 200
    assert marks_of(by_page) == marks_of(by_api)
    assert marks_of(by_page)[0] == ("grounded", question.key, [2, 4]) and marks_of(by_page)[1][::2] == ("no_data", [])


def test_a_field_not_sent_is_not_a_mark(learner: User, bookshop: Exercise) -> None:
    """The autosave sends the claim that changed: the form's marks hold only the fields sent, as ``MarkIn``."""
    attempt = started(learner, bookshop, "sent")
    first, second, _third = attempt.claims.order_by("order").values_list("pk", flat=True)
    form = MarksForm({f"lines-{second}": "3"}, claim_ids=[first, second])
    assert form.is_valid()
    assert form.marks() == [MarkIn(claim=second, lines=[3])]


@pytest.mark.parametrize("field, value, message", [
    ("judgement", "근거", "판단은 근거, 자료없음, 보류, 주장 아님"),
    ("lines", "²", "숫자(0–9)"),
    ("lines", " ".join(str(n) for n in range(1, 60)), "50개까지"),
    ("lines", "99", "99번 줄은 없습니다"),
])
def test_a_bad_mark_on_the_page_is_a_korean_400_and_changes_nothing(
        learner: User, bookshop: Exercise, field: str, value: str, message: str) -> None:
    """A value the API's schema would refuse is refused by the page's form in Korean (never a 500), and the
    other marks of the same POST are not saved."""
    attempt = started(learner, bookshop, "bad")
    before = marks_of(attempt)
    first, second, _third = attempt.claims.order_by("order").values_list("pk", flat=True)
    client = signed_in(learner)
    client.raise_request_exception = False
    response = client.post(f"/exercises/attempts/{attempt.pk}/marks/",
                           {f"judgement-{first}": "grounded", f"{field}-{second}": value})
    assert response.status_code == 400 and message in response.content.decode()
    assert marks_of(attempt) == before
