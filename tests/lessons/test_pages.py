"""Lesson pages for visitors, learners and those who preview, and the two learner tracks."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from lessons.models import CompletionRecord, Lesson, SelfCheck, SelfReport
from lessons.services import set_lesson_published
from tests.conftest import signed_in

HX = {"HTTP_HX_REQUEST": "true"}


def first_check(lesson: Lesson) -> SelfCheck:
    return lesson.current_version.self_checks.first()


def test_visitor_reads_home_catalogue_and_lesson_text(client: Client, lesson: Lesson) -> None:
    for url in ("/", "/lessons/"):
        response = client.get(url)
        assert response.status_code == 200
        assert lesson.current_version.title in response.content.decode()
    page = client.get(reverse("lessons:detail", args=[lesson.slug])).content.decode()
    for part in lesson.current_version.parts:
        assert f'id="{part["anchor"]}"' in page
    assert "읽기는 숙달이 아닙니다" in page


def test_lesson_page_never_contains_self_check_answers(client: Client, learner_client: Client, lesson: Lesson) -> None:
    """Answers and explanations reach the browser only when a signed-in person asks for one."""
    check = first_check(lesson)
    for viewer in (client, learner_client):
        page = viewer.get(reverse("lessons:detail", args=[lesson.slug])).content.decode()
        assert escape(check.question) in page
        assert escape(check.explanation) not in page and escape(check.answer) + "</p>" not in page


def test_visitor_asking_for_an_answer_is_sent_to_sign_in(client: Client, lesson: Lesson) -> None:
    check = first_check(lesson)
    response = client.post(reverse("lessons:answer", args=[lesson.slug, check.key]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("tutor:sign-in"))
    assert not CompletionRecord.objects.exists()


def test_htmx_request_without_a_session_says_so_and_stays_on_the_page(client: Client, lesson: Lesson) -> None:
    """No redirect away from a page where someone may be typing: a 401 fragment with a sign-in link instead."""
    check = first_check(lesson)
    response = client.post(reverse("lessons:answer", args=[lesson.slug, check.key]), **HX, HTTP_HX_CURRENT_URL="/x")
    assert response.status_code == 401 and response["HX-Retarget"] == "#problem-area"
    assert reverse("tutor:sign-in") in response.content.decode() and "이 브라우저에 남아" in response.content.decode()
    assert escape(check.explanation).encode() not in response.content


def test_reveal_is_a_fragment_for_htmx_and_a_page_without_javascript(learner_client: Client, lesson: Lesson) -> None:
    """The POST answers htmx with the fragment, and a browser without JavaScript with a redirect to the answer's
    own page (so a reload does not post again)."""
    check = first_check(lesson)
    url = reverse("lessons:answer", args=[lesson.slug, check.key])
    fragment = learner_client.post(url, **HX).content.decode()
    assert escape(check.explanation) in fragment and "<html" not in fragment
    response = learner_client.post(url)
    assert response.status_code == 302 and response["Location"] == url
    page = learner_client.get(url).content.decode()
    assert escape(check.explanation) in page and "<html" in page and "이해했어요" in page


def test_revealing_records_completion_not_a_self_report(learner: User, learner_client: Client, lesson: Lesson) -> None:
    """Two reveals make one "answer revealed" record and no self-report; looking at the answer page (GET) writes
    nothing."""
    check = first_check(lesson)
    url = reverse("lessons:answer", args=[lesson.slug, check.key])
    assert learner_client.get(url).status_code == 200
    assert not CompletionRecord.objects.filter(user=learner, kind="answer_revealed").exists(), "GET never writes"
    learner_client.post(url, **HX)
    learner_client.post(url, **HX)
    assert CompletionRecord.objects.filter(user=learner, kind="answer_revealed", item=check.key).count() == 1
    assert not SelfReport.objects.exists()


def test_understood_is_stored_once_with_a_time_and_no_score(learner: User, learner_client: Client, lesson: Lesson) -> None:
    check = first_check(lesson)
    url = reverse("lessons:understood", args=[lesson.slug, check.key])
    first = learner_client.post(url, {"confidence": "2"}, **HX)
    learner_client.post(url, {"confidence": "2"}, **HX)
    report = SelfReport.objects.get(user=learner)
    assert report.self_check == check and report.confidence == 2 and report.at is not None
    assert "이해했어요 표시함" in first.content.decode()
    assert not hasattr(report, "score") and not hasattr(report, "grade")


def test_an_odd_confidence_is_refused_in_korean_and_stores_nothing(learner: User, learner_client: Client,
                                                                   lesson: Lesson) -> None:
    """The page's form takes 1-3 or nothing, as the API's schema does: "9" is a Korean refusal, not a 500."""
    check = first_check(lesson)
    response = learner_client.post(reverse("lessons:understood", args=[lesson.slug, check.key]), {"confidence": "9"}, **HX)
    assert response.status_code == 400
    assert "확신 정도는 1, 2, 3 가운데 하나를 고르세요." in response.content.decode()
    assert not SelfReport.objects.filter(user=learner).exists()


def test_understood_without_javascript_redirects_back_to_the_question(learner_client: Client, lesson: Lesson) -> None:
    check = first_check(lesson)
    response = learner_client.post(reverse("lessons:understood", args=[lesson.slug, check.key]))
    assert response.status_code == 302
    assert response["Location"].endswith(f"#check-{check.key}")


def test_opening_a_lesson_is_recorded_once(learner: User, learner_client: Client, lesson: Lesson) -> None:
    for _ in range(3):
        learner_client.get(reverse("lessons:detail", args=[lesson.slug]))
    assert CompletionRecord.objects.filter(user=learner, kind="opened").count() == 1


def test_reaching_a_part_is_recorded_and_unknown_parts_are_ignored(learner: User, learner_client: Client, lesson: Lesson) -> None:
    learner_client.post(f"/lessons/{lesson.slug}/parts/mechanism/reached")
    learner_client.post(f"/lessons/{lesson.slug}/parts/mechanism/reached")
    learner_client.post(f"/lessons/{lesson.slug}/parts/not-a-part/reached")
    items = list(CompletionRecord.objects.filter(user=learner, kind="part_reached").values_list("item", flat=True))
    assert items == ["mechanism"]


def test_unpublished_lesson_is_404_to_learners_and_visitors(client: Client, learner_client: Client, lesson: Lesson) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    check = first_check(lesson)
    for viewer in (client, learner_client):
        assert viewer.get(reverse("lessons:detail", args=[lesson.slug])).status_code == 404
        assert lesson.current_version.title not in viewer.get("/lessons/").content.decode()
    assert learner_client.get(reverse("lessons:answer", args=[lesson.slug, check.key])).status_code == 404
    assert learner_client.get(reverse("lessons:file", args=[lesson.slug, "check_judgements.py"])).status_code == 404


def test_unpublished_lesson_is_previewed_by_instructors_and_fixture_admins(
    instructor: User, fixture_admin: User, lesson: Lesson
) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    for user in (instructor, fixture_admin):
        page = signed_in(user).get(reverse("lessons:detail", args=[lesson.slug])).content.decode()
        assert "미게시" in page and lesson.current_version.title in page


def test_lab_file_downloads_as_an_attachment(client: Client, lesson: Lesson) -> None:
    response = client.get(reverse("lessons:file", args=[lesson.slug, "check_judgements.py"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="check_judgements.py"'
    assert b"def " in response.content


def test_progress_page_shows_three_tracks_and_certifies_nothing(learner_client: Client, lesson: Lesson) -> None:
    check = first_check(lesson)
    learner_client.get(reverse("lessons:detail", args=[lesson.slug]))
    learner_client.post(reverse("lessons:understood", args=[lesson.slug, check.key]))
    page = learner_client.get(reverse("lessons:progress")).content.decode()
    for track in ("진도", "자기 점검", "검토"):
        assert f"<h3>{track}" in page
    assert "인증하지 않습니다" in page
    assert '"이해했어요": 1 /' in page
    for word in ("숙달함", "수료", "인증됨", "certified", "mastered"):
        assert word not in page


def test_progress_needs_sign_in(client: Client) -> None:
    response = client.get(reverse("lessons:progress"))
    assert response.status_code == 302 and "/account/sign-in/" in response["Location"]


def test_unknown_lesson_is_a_korean_404_page(client: Client, course: list[Lesson]) -> None:
    response = client.get("/lessons/no-such-lesson/")
    assert response.status_code == 404
    assert "찾을 수 없습니다" in response.content.decode()
