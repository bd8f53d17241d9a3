"""The attempt flow as an API: start from a paste, save marks, submit, read the feedback; the pages' rules."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from exercises.grounding.models import Attempt, Exercise
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db
ANSWER = "독서 모임 참가비는 5,000원입니다. 참가비 없이 독서 모임에 갈 수 있습니다."


def start(client: Client, key: str = "api-1", answer: str = ANSWER, slug: str = "bookshop"):
    return client.post(f"/api/grounding/exercises/{slug}/attempts", {"answer": answer}, content_type="application/json",
                       HTTP_IDEMPOTENCY_KEY=key)


def test_start_mark_submit_and_read_feedback(learner: User, bookshop: Exercise) -> None:
    """The whole flow through the API; the contradicted fee marked 자료없음 comes back 맞음 with the values check."""
    client = signed_in(learner)
    started = start(client)
    assert started.status_code == 201
    body = started.json()
    assert body["status"] == "draft" and body["feedback"] is None
    priced, free = body["claims"]
    assert start(client).json()["id"] == body["id"], "the same Idempotency-Key gives the same attempt"
    attempt_id = body["id"]
    assert client.get(f"/api/grounding/attempts/{attempt_id}/feedback").status_code == 409
    saved = client.post(f"/api/grounding/attempts/{attempt_id}/marks", {"marks": [
        {"claim": priced["id"], "judgement": "no_data", "lines": [8]},
        {"claim": free["id"], "judgement": "grounded", "lines": [8], "question": ""},
    ]}, content_type="application/json")
    assert saved.status_code == 200
    assert [c["cited_lines"] for c in saved.json()["claims"]] == [[8], [8]]
    submitted = client.post(f"/api/grounding/attempts/{attempt_id}/submit")
    assert submitted.status_code == 200 and submitted.json()["status"] == "submitted"
    feedback = client.get(f"/api/grounding/attempts/{attempt_id}/feedback").json()
    first, second = feedback["claims"]
    assert first["verdict"] == "right" and first["checks"][0]["name"] == "values"
    assert first["check"] == "values" and "원문과 어긋남" in first["basis"] and first["key_version"] is None
    # No check speaks, so the claim waits in an answer group for its instructor (the people side of the feedback).
    assert second["check"] == "" and second["basis"] == "강사 확인 대기" and second["key_version"] is None
    assert second["verdict"] == "unchecked" and second["checks"] == [] and second["compare"] == [[8, "독서 모임 참가비는 무료입니다."]]
    assert "compare" in second and second["explanation"] == ""
    again = client.post(f"/api/grounding/attempts/{attempt_id}/marks", {"marks": [{"claim": priced["id"], "judgement": "grounded"}]},
                        content_type="application/json")
    assert again.status_code == 409


def test_the_feedback_page_says_why_a_held_claim_is_not_judged(learner: User, bookshop: Exercise) -> None:
    """A claim a check holds at 확인 안 됨 with a reason ("행사 날에는 주차할 수 없어요" marked 근거 with no line: it may be a
    silence claim) shows that reason on the page, not only the generic 확인 안 됨 sentence."""
    client = signed_in(learner)
    body = start(client, key="held", answer="행사 날에는 주차할 수 없어요.").json()
    claim = body["claims"][0]["id"]
    marked = client.post(f"/api/grounding/attempts/{body['id']}/marks",
                         {"marks": [{"claim": claim, "judgement": "grounded"}]}, content_type="application/json")
    assert marked.status_code == 200
    assert client.post(f"/api/grounding/attempts/{body['id']}/submit").status_code == 200
    item = client.get(f"/api/grounding/attempts/{body['id']}/feedback").json()["claims"][0]
    assert item["verdict"] == "unchecked" and item["check"] == "no_lines"
    page = client.get(f"/exercises/attempts/{body['id']}/").content.decode()
    assert "원문에 없다는 주장이면 줄이 없어도" in page and "basis-held" in page


def test_bad_marks_are_refused_with_a_reason(learner: User, bookshop: Exercise) -> None:
    client = signed_in(learner)
    body = start(client).json()
    url = f"/api/grounding/attempts/{body['id']}/marks"
    claim = body["claims"][0]["id"]
    out_of_range = client.post(url, {"marks": [{"claim": claim, "lines": [99]}]}, content_type="application/json")
    assert out_of_range.status_code == 400 and "99번 줄은 없습니다" in out_of_range.json()["detail"]
    wrong_judgement = client.post(url, {"marks": [{"claim": claim, "judgement": "maybe"}]}, content_type="application/json")
    assert wrong_judgement.status_code == 422
    not_a_claim = client.post(url, {"marks": [{"claim": claim, "judgement": "not_claim"}]}, content_type="application/json")
    assert not_a_claim.status_code == 200 and not_a_claim.json()["claims"][0]["judgement"] == "not_claim"


def test_empty_or_too_long_paste_is_refused(learner: User, bookshop: Exercise) -> None:
    client = signed_in(learner)
    assert start(client, key="e", answer="  ").status_code == 400
    assert start(client, key="l", answer="가" * 8001).status_code == 413
    assert not Attempt.objects.exists()


def test_others_get_404_and_instructors_read_but_do_not_mark(learner: User, other_learner: User, instructor: User,
                                                            bookshop: Exercise) -> None:
    """Not yours: 404 for reading, marking, submitting and feedback; an instructor reads but cannot mark."""
    body = start(signed_in(learner)).json()
    attempt_id, claim = body["id"], body["claims"][0]["id"]
    other = signed_in(other_learner)
    for method, path in (("get", ""), ("get", "/feedback"), ("post", "/submit")):
        assert getattr(other, method)(f"/api/grounding/attempts/{attempt_id}{path}").status_code == 404
    mark = {"marks": [{"claim": claim, "judgement": "no_data"}]}
    assert other.post(f"/api/grounding/attempts/{attempt_id}/marks", mark, content_type="application/json").status_code == 404
    teacher = signed_in(instructor)
    assert teacher.get(f"/api/grounding/attempts/{attempt_id}").status_code == 200
    assert teacher.post(f"/api/grounding/attempts/{attempt_id}/marks", mark, content_type="application/json").status_code == 404
    assert teacher.post(f"/api/grounding/attempts/{attempt_id}/submit").status_code == 404
    assert Attempt.objects.get(pk=attempt_id).status == "draft"


def test_attempt_flow_is_in_openapi(client: Client) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/grounding/exercises/{slug}/attempts", "/api/grounding/attempts/{attempt_id}/marks",
                 "/api/grounding/attempts/{attempt_id}/submit", "/api/grounding/attempts/{attempt_id}/feedback"):
        assert path in paths
