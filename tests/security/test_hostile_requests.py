"""Hostile requests against the foundation: forged posts, open redirects, probing for hidden lessons."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from lessons.models import Lesson, SelfReport
from lessons.services import set_lesson_published
from tests.conftest import PASSWORD, signed_in


def test_form_post_without_csrf_token_is_refused_in_korean(learner: User, lesson: Lesson) -> None:
    client = signed_in(learner, enforce_csrf_checks=True)
    key = lesson.current_version.self_checks.first().key
    response = client.post(reverse("lessons:understood", args=[lesson.slug, key]))
    assert response.status_code == 403
    assert "보안 확인(CSRF)에 실패했습니다" in response.content.decode()
    assert not SelfReport.objects.exists()


def test_sign_in_does_not_redirect_off_site(client: Client, learner: User) -> None:
    response = client.post(
        "/account/sign-in/?next=https://evil.example/", {"username": "learner", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_hidden_and_missing_lessons_answer_the_same(learner: User, lesson: Lesson) -> None:
    """A learner cannot tell an unpublished lesson from one that never existed."""
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    client = signed_in(learner)
    hidden = client.get(f"/lessons/{lesson.slug}/")
    missing = client.get("/lessons/never-existed/")
    assert hidden.status_code == missing.status_code == 404
    def scrub(body: bytes, slug: str) -> str:
        return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", body.decode().replace(slug, "SLUG"))

    assert scrub(hidden.content, lesson.slug) == scrub(missing.content, "never-existed")
    api_hidden = client.get(f"/api/lessons/{lesson.slug}")
    api_missing = client.get("/api/lessons/never-existed")
    assert api_hidden.status_code == api_missing.status_code == 404
    assert api_hidden.json() == api_missing.json()


def test_self_report_cannot_target_a_hidden_lesson(learner: User, lesson: Lesson) -> None:
    key = lesson.current_version.self_checks.first().key
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    response = signed_in(learner).post(f"/api/lessons/{lesson.slug}/self-checks/{key}/understood", {}, content_type="application/json")
    assert response.status_code == 404
    assert not SelfReport.objects.exists()


def test_file_names_cannot_escape_the_lesson(client: Client, lesson: Lesson) -> None:
    for name in ("..%2F..%2Fsettings.py", "../lesson.md", "%2Fetc%2Fpasswd"):
        assert client.get(f"/lessons/{lesson.slug}/files/{name}").status_code == 404


def test_a_huge_or_odd_slug_is_a_plain_404(client: Client, lesson: Lesson) -> None:
    assert client.get("/lessons/" + "a" * 5000 + "/").status_code == 404
    assert client.get("/api/lessons/" + "%00").status_code == 404
    assert client.get("/api/lessons/answer-from-sources%00").status_code == 404
    assert client.post("/api/lessons/answer-from-sources/self-checks/a%00b/answer").status_code in (401, 404)
