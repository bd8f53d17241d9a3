"""A learner, in a real browser, reads a lesson, reveals an answer, marks it understood and finds it in their records."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from lessons.models import Lesson, SelfReport
from tests.conftest import PASSWORD
from tests.e2e.htmx import wait_settled

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_in_reveal_mark_understood_and_see_it_in_my_records(page, live_server, course: list[Lesson], learner: User) -> None:
    lesson = next(item for item in course if item.slug == "answer-from-sources")
    check = lesson.current_version.self_checks.first()

    page.goto(f"{live_server.url}/account/sign-in/")
    page.get_by_label("아이디").fill("learner")
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_label("비밀번호").press("Enter")
    page.wait_for_url(re.compile(r"/$"))

    page.get_by_role("link", name=re.compile(lesson.current_version.title[:10])).first.click()
    page.wait_for_url(f"**/lessons/{lesson.slug}/")
    page.evaluate("window.__sameDocument = true")

    card = page.locator(f"#check-{check.key}")
    reveal = card.get_by_role("button", name="답과 해설 보기")
    reveal.focus()
    page.keyboard.press("Enter")
    card.locator(".answer").wait_for()
    wait_settled(card.locator(f"#answer-{check.key}"))
    assert check.explanation[:20] in card.inner_text()
    assert page.evaluate("window.__sameDocument") is True, "htmx swapped the answer in without a reload"

    card.get_by_label(re.compile("얼마나 자신 있나요")).select_option("3")
    card.get_by_role("button", name="이해했어요").focus()
    page.keyboard.press("Enter")
    card.get_by_text("이해했어요 표시함").wait_for()

    report = SelfReport.objects.get(user=learner)
    assert report.self_check.key == check.key and report.confidence == 3

    page.get_by_role("link", name="내 학습 기록").click()
    page.wait_for_url("**/me/progress/")
    section = page.locator(f"#progress-{lesson.slug}").locator("xpath=..")
    assert '"이해했어요": 1 / ' in section.inner_text()
    assert "인증하지 않습니다" in page.inner_text("main")
    assert page.csp_violations == []


def test_skip_link_is_the_first_stop_and_focus_is_visible(page, live_server, course: list[Lesson]) -> None:
    page.goto(f"{live_server.url}/lessons/answer-from-sources/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "본문으로 건너뛰기"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_lesson_reads_at_360_px_without_sideways_scrolling(page, live_server, course: list[Lesson]) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    for path in ("/", "/lessons/", "/lessons/answer-from-sources/", "/lessons/tool-calls/", "/account/sign-in/"):
        page.goto(live_server.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px"
    assert page.csp_violations == []


def test_every_lesson_diagram_loads_under_the_csp_and_fits_360_px(page, live_server, course: list[Lesson]) -> None:
    """Each diagram is drawn (the SVG loads as an image under the site's CSP) and shrinks to a 360 px column."""
    page.set_viewport_size({"width": 360, "height": 740})
    seen = 0
    for lesson in course:
        page.goto(f"{live_server.url}/lessons/{lesson.slug}/")
        for image in page.locator("img.diagram").all():
            image.scroll_into_view_if_needed()
            expect(image, f"{lesson.slug}: a diagram did not load").to_have_js_property("complete", True, timeout=5_000)
            assert image.evaluate("i => i.naturalWidth") > 0, f"{lesson.slug}: a diagram did not load"
            assert image.get_attribute("alt").strip()
            assert image.bounding_box()["width"] <= 360
            seen += 1
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{lesson.slug} scrolls sideways by {overflow}px"
    assert seen >= 5
    assert page.csp_violations == []
