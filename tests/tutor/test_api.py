"""The JSON API: same rules as the pages, token before session, one problem+json error shape."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lessons import selectors
from lessons.models import CompletionRecord, Lesson, SelfReport
from lessons.services import set_lesson_published
from tests.conftest import signed_in
from tutor.services import issue_api_token, revoke_api_token

PROBLEM = "application/problem+json"


def answer_url(lesson: Lesson) -> str:
    key = lesson.current_version.self_checks.first().key
    return f"/api/lessons/{lesson.slug}/self-checks/{key}/answer"


def understood_url(lesson: Lesson) -> str:
    key = lesson.current_version.self_checks.first().key
    return f"/api/lessons/{lesson.slug}/self-checks/{key}/understood"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["code"] == code and body["title"] and body["detail"]
    assert "Traceback" not in response.content.decode()
    return body


def test_visitor_lists_published_lessons(client: Client, course: list[Lesson]) -> None:
    response = client.get("/api/lessons")
    assert response.status_code == 200
    slugs = [item["slug"] for item in response.json()]
    assert slugs[0] == "answer-from-sources" and "tool-calls" in slugs
    assert [item["order"] for item in response.json()] == sorted(item["order"] for item in response.json())


def test_one_lesson_carries_questions_but_no_answers(client: Client, lesson: Lesson) -> None:
    body = client.get(f"/api/lessons/{lesson.slug}").json()
    check = lesson.current_version.self_checks.first()
    assert body["self_checks"][0] == {"key": check.key, "kind": check.kind, "question": check.question}
    assert check.explanation not in json.dumps(body, ensure_ascii=False)
    assert "숙달이 아닙니다" in body["notice"]
    assert len(body["parts"]) == 12


def test_visitor_cannot_read_a_self_check_answer(client: Client, lesson: Lesson) -> None:
    """An anonymous visitor gets 401 and no part of the answer."""
    response = client.post(answer_url(lesson))
    assert_problem(response, 401, "sign_in_required")
    assert lesson.current_version.self_checks.first().explanation not in response.content.decode()


def test_a_get_reveals_nothing_and_records_nothing(learner_client: Client, lesson: Lesson) -> None:
    """Revealing is recorded, so it is a POST: a GET (a prefetch, a crawler) gets 405, no answer and no record."""
    response = learner_client.get(answer_url(lesson))
    assert response.status_code == 405
    assert lesson.current_version.self_checks.first().explanation not in response.content.decode()
    assert not CompletionRecord.objects.filter(lesson=lesson, kind="answer_revealed").exists()


def test_learner_reads_an_answer(learner_client: Client, lesson: Lesson) -> None:
    response = learner_client.post(answer_url(lesson))
    assert response.status_code == 200
    assert response.json()["explanation"] == lesson.current_version.self_checks.first().explanation


def test_unpublished_lesson_is_404_in_the_api_for_learners(learner_client: Client, instructor: User, lesson: Lesson) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    assert_problem(learner_client.get(f"/api/lessons/{lesson.slug}"), 404, "not_found")
    assert_problem(learner_client.post(answer_url(lesson)), 404, "not_found")
    assert lesson.slug not in [item["slug"] for item in learner_client.get("/api/lessons").json()]
    preview = signed_in(instructor).get(f"/api/lessons/{lesson.slug}").json()
    assert preview["is_published"] is False


def test_session_post_without_csrf_is_refused(learner: User, lesson: Lesson) -> None:
    client = signed_in(learner, enforce_csrf_checks=True)
    response = client.post(understood_url(lesson), {}, content_type="application/json")
    assert_problem(response, 403, "csrf_failed")
    assert not SelfReport.objects.exists()


def test_token_client_posts_without_csrf(learner: User, lesson: Lesson) -> None:
    """Token auth is checked first, so a token client is never caught by the CSRF check."""
    _, raw = issue_api_token(user=learner, name="스크립트")
    client = Client(enforce_csrf_checks=True)
    response = client.post(understood_url(lesson), {"confidence": 3}, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert response.status_code == 200, response.content
    assert SelfReport.objects.get(user=learner).confidence == 3


def test_wrong_or_revoked_token_is_refused(learner: User, lesson: Lesson) -> None:
    token, raw = issue_api_token(user=learner, name="스크립트")
    client = Client()
    assert_problem(client.get("/api/me/progress", HTTP_AUTHORIZATION="Bearer gt_wrong"), 401, "sign_in_required")
    revoke_api_token(user=learner, token_id=token.pk)
    assert_problem(client.get("/api/me/progress", HTTP_AUTHORIZATION=f"Bearer {raw}"), 401, "sign_in_required")


def test_progress_needs_sign_in_and_keeps_tracks_apart(client: Client, learner_client: Client, lesson: Lesson) -> None:
    assert_problem(client.get("/api/me/progress"), 401, "sign_in_required")
    learner_client.post(understood_url(lesson), {}, content_type="application/json")
    body = learner_client.get("/api/me/progress").json()
    entry = next(item for item in body["lessons"] if item["lesson"] == lesson.slug)
    assert set(entry) == {"lesson", "title", "completion", "self_report", "review"}
    assert entry["self_report"]["understood"] == 1
    assert entry["completion"]["opened_at"] is None  # a self-report is not a completion record
    assert "인증하지 않습니다" in body["notice"]


def test_invalid_input_is_a_422_problem_with_field_errors(learner_client: Client, lesson: Lesson) -> None:
    response = learner_client.post(understood_url(lesson), {"confidence": 9}, content_type="application/json")
    body = assert_problem(response, 422, "invalid_input")
    assert body["errors"][0]["loc"][-1] == "confidence"
    response = learner_client.post(understood_url(lesson), "not json", content_type="application/json")
    assert_problem(response, 400, "invalid_input")


def test_unknown_api_path_is_a_problem_not_a_page(client: Client, course: list[Lesson]) -> None:
    assert_problem(client.get("/api/no/such/thing"), 404, "not_found")


def test_unexpected_error_is_a_500_problem_without_traceback(
    client: Client, course: list[Lesson], monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(user: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(selectors, "visible_lessons", explode)
    response = client.get("/api/lessons")
    assert_problem(response, 500, "server_error")
    assert "secret internals" not in response.content.decode()


def test_openapi_document_lists_the_endpoints(client: Client, course: list[Lesson]) -> None:
    schema = client.get("/api/openapi.json").json()
    assert {"/api/lessons", "/api/lessons/{slug}", "/api/me/progress"} <= set(schema["paths"])
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and b"cdn" not in docs.content.lower()
