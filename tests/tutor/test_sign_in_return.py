"""Sign-in returns to the page the learner was on, never to another site, and shows no developer note."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from lessons.models import Lesson
from tests.conftest import signed_in


def test_sign_in_page_has_no_developer_note(client: Client, db: None) -> None:
    """The demo-account file is for developers (README), not a line on the learner's sign-in page."""
    page = client.get(reverse("tutor:sign-in")).content.decode()
    assert "demo-accounts" not in page and "make serve" not in page


def test_an_expired_session_on_a_form_post_returns_to_the_form_page(client: Client, course: list[Lesson]) -> None:
    """A plain POST without a session sends sign-in back to the page the form was on (its Referer)."""
    url = reverse("evidence:submit", args=["afs-practice"])
    response = client.post(url, {"submit_key": "x"}, HTTP_REFERER="http://testserver/evidence/afs-practice/")
    assert response.status_code == 302
    assert response["Location"].endswith("?next=%2Fevidence%2Fafs-practice%2F")


def test_an_htmx_request_returns_to_the_current_page_and_a_foreign_referer_to_home(
        client: Client, course: list[Lesson]) -> None:
    """htmx names its page; a Referer on another host is never a place to return to."""
    response = client.post(reverse("labs:request-run", args=["replay-retry"]), {},
                           HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://testserver/labs/replay-retry/")
    assert response.status_code == 401
    assert "next=%2Flabs%2Freplay-retry%2F" in response.content.decode()
    foreign = client.post(reverse("evidence:submit", args=["afs-practice"]), {},
                          HTTP_REFERER="https://evil.example/evidence/afs-practice/")
    assert foreign["Location"].endswith("?next=%2F")


def test_signing_in_with_next_lands_on_that_page(client: Client, learner) -> None:
    """The sign-in form carries next and the redirect goes there."""
    from tests.conftest import PASSWORD
    page = client.get(reverse("tutor:sign-in") + "?next=/me/progress/").content.decode()
    assert 'name="next" value="/me/progress/"' in page and "보던 페이지로 돌아갑니다" in page
    response = client.post(reverse("tutor:sign-in"), {"username": "learner", "password": PASSWORD,
                                                      "next": "/me/progress/"})
    assert response.status_code == 302 and response["Location"] == "/me/progress/"
    assert signed_in(learner).get("/me/progress/").status_code == 200


def test_the_nav_sign_in_link_carries_the_page_but_never_the_sign_in_page_itself(client: Client,
                                                                                 course: list[Lesson]) -> None:
    """From a lesson the header link returns there; on the sign-in page it does not point back at itself."""
    lesson = course[0]
    page = client.get(reverse("lessons:detail", args=[lesson.slug])).content.decode()
    assert f'href="/account/sign-in/?next=/lessons/{lesson.slug}/"' in page
    own = client.get(reverse("tutor:sign-in")).content.decode()
    assert "?next=/account/sign-in/" not in own
