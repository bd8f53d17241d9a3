"""In real browsers: two learners paste similar answers, an instructor judges their group once and both see the
verdict with 강사 판정; a fixture edit leaves no stale verdict or explanation; marks made after the session expired
are kept in the browser and saved after signing in again."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from exercises.grounding.models import Attempt, ClaimMark
from lessons.models import Fixture, Lesson
from tests.conftest import PASSWORD
from tests.e2e.session import sign_in
from tests.e2e.test_accessibility import check, layout_findings, serious_findings

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
OLD = "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다."
NEW = "영업시간은 화요일부터 금요일은 11시부터 18시까지, 토요일은 11시부터 15시까지입니다."


def open_page(browser, width: int = 1280, *, axe: bool = False):
    # bypass_csp only so that axe's script can be injected (as in test_accessibility); CSP is checked elsewhere.
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ko-KR", bypass_csp=axe)
    page = context.new_page()
    page.set_default_timeout(30_000)  # the machine is shared; a slow page is not a failure
    page.csp_violations = []
    page.on("console", lambda m: "Content Security Policy" in m.text and page.csp_violations.append(m.text))
    return page


def paste_mark_submit(page, live_server, text: str, key: str, lines: str = "") -> str:
    """Paste an answer of one claim, mark it with a number key, cite ``lines``, submit; return the feedback URL."""
    page.goto(f"{live_server.url}/exercises/bookshop/")
    page.get_by_role("textbox", name="답변", exact=True).fill(text)
    page.get_by_role("button", name="주장으로 나누기").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))
    claim = page.locator("fieldset.claim").first
    claim.locator("input[type=radio]").first.focus()
    page.keyboard.press(key)
    if lines:
        claim.locator("input[name^='lines-']").fill(lines)
        claim.locator("input[name^='lines-']").dispatch_event("change")
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()
    assert "1개 중 1개 판단함" in page.locator("#judged-count").inner_text()
    url = page.url
    page.get_by_role("button", name="제출하고 피드백 보기").click()
    page.get_by_role("heading", name=re.compile("주장별 피드백")).wait_for()
    return url


def test_an_instructor_judges_two_learners_group_once_and_both_see_it(
        browser, live_server, course: list[Lesson], learner: User, other_learner: User, instructor: User) -> None:
    """Two learners' claims differing in emphasis and citation wait as 강사 확인 대기; the instructor finds the group
    from the navigation (at 360 px), judges it with the keyboard, and both learners then read 맞음 with 강사 판정."""
    first, second = open_page(browser), open_page(browser)
    sign_in(first, live_server, learner.username)
    sign_in(second, live_server, other_learner.username)
    urls = [paste_mark_submit(first, live_server, "독서 모임은 책방 이층 모임방에서 열립니다 (5).", "2"),
            paste_mark_submit(second, live_server, "**독서 모임은** 책방 이층 모임방에서 열립니다.", "2")]
    for page in (first, second):
        item = page.locator("article.feedback-claim").first
        assert item.locator(".verdict-label").inner_text() == "확인 안 됨"
        assert "강사 확인 대기" in item.inner_text()

    teacher = open_page(browser, width=360)
    sign_in(teacher, live_server, instructor.username)
    teacher.get_by_role("link", name="주장 묶음").first.click()
    teacher.get_by_role("link", name=re.compile("가람책방")).click()
    group = teacher.locator("section.answer-group").first
    assert "주장 2개 · 학습자 2명" in group.inner_text()
    group.get_by_label("원문에 없음").check()
    group.get_by_label("한 문장 설명 (학습자에게 보임)").fill("안내문은 모임을 어디서 여는지 말하지 않습니다.")
    group.get_by_label("한 문장 설명 (학습자에게 보임)").press("Enter")
    teacher.locator("section.answer-group .badge-ok").filter(has_text="강사 판정 (판 1)").wait_for()
    assert teacher.evaluate("document.documentElement.scrollWidth") <= 360 + 1, "readable at 360 px"

    for page, url in zip((first, second), urls, strict=True):
        page.goto(url)
        item = page.locator("article.feedback-claim").first
        assert item.locator(".verdict-label").inner_text() == "맞음"
        text = item.inner_text()
        assert "강사 판정" in text and "안내문은 모임을 어디서 여는지 말하지 않습니다." in text
    for page in (first, second, teacher):
        assert page.csp_violations == []

    axe = open_page(browser, width=360, axe=True)
    sign_in(axe, live_server, instructor.username)
    findings = check(axe, f"{live_server.url}/exercises/answer-groups/")
    findings += check(axe, f"{live_server.url}/exercises/bookshop/groups/")
    assert findings == [], "\n".join(findings)


def test_a_fixture_edit_leaves_no_stale_verdict_or_explanation(
        browser, live_server, course: list[Lesson], learner: User) -> None:
    """The fixture admin changes the Saturday hours in the admin and confirms the held-back change; a learner who
    then marks "네, 열려 있습니다." 자료없음 (right now) is not told 다시 보기 and sees no explanation of the old line."""
    # A superuser holds every role; the fixture-admin group's model permissions do not survive the flush
    # between browser tests.
    keeper = User.objects.create_superuser("keeper", password=PASSWORD)
    admin = open_page(browser)
    sign_in(admin, live_server, keeper.username)
    notice = Fixture.objects.get(slug="bookshop-notice")
    admin.goto(f"{live_server.url}/admin/lessons/fixture/{notice.pk}/change/")
    text = admin.locator("textarea[name=text]").input_value()
    admin.locator("textarea[name=text]").fill(text.replace(OLD, NEW))
    admin.locator("input[name=reason]").fill("토요일 영업시간 변경 (가상)")
    admin.locator("input[name=_save]").click()
    expect(admin.locator("body")).to_contain_text("바뀌는 줄(2번)에 기대는 곳이")  # waits for the held-back page
    admin.locator("input[name=confirm_changed_lines]").check()
    admin.locator("input[name=_save]").click()
    admin.wait_for_url(re.compile(r"/admin/lessons/fixture/$"))

    page = open_page(browser)
    sign_in(page, live_server, learner.username)
    page.goto(f"{live_server.url}/exercises/bookshop/")
    page.get_by_role("textbox", name="답변", exact=True).fill("가. 네, 열려 있습니다. 주차는 무료입니다.")
    page.get_by_role("button", name="주장으로 나누기").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))
    page.get_by_role("button", name="제출하고 피드백 보기").click()
    page.get_by_role("heading", name="판단하지 않은 주장이 있습니다").wait_for()
    narrow = open_page(browser, width=360, axe=True)
    sign_in(narrow, live_server, learner.username)
    narrow.goto(page.url.replace("/marks/", "/"))
    narrow.get_by_role("button", name="제출하고 피드백 보기").click()
    narrow.get_by_role("heading", name="판단하지 않은 주장이 있습니다").wait_for()
    assert serious_findings(narrow) + layout_findings(narrow) == [], "the confirmation step at 360 px"
    paste_mark_submit(page, live_server, "가. 네, 열려 있습니다.", "2", lines="2")
    item = page.locator("article.feedback-claim").first
    shown = item.inner_text()
    assert item.locator(".verdict-label").inner_text() == "확인 안 됨"
    assert "자료가 바뀌어 답안 키를 다시 확인하는 중" in shown
    assert "다시 보기" not in shown and "판단은 근거입니다" not in shown and "해설" not in shown
    assert NEW in shown and OLD not in page.inner_text("main"), "the lines shown are the new version's"
    assert page.csp_violations == []


def test_marks_made_after_the_session_expired_are_saved_after_signing_in(
        browser, live_server, course: list[Lesson], learner: User) -> None:
    """With the session gone, a mark is not saved and the page says so (never 저장했습니다); after signing in again
    the page sends the mark kept in the browser and the server has it."""
    page = open_page(browser)
    sign_in(page, live_server, learner.username)
    page.goto(f"{live_server.url}/exercises/bookshop/")
    page.get_by_role("textbox", name="답변", exact=True).fill("주차는 무료입니다. 독서 모임 참가비는 무료입니다.")
    page.get_by_role("button", name="주장으로 나누기").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))
    attempt_url = page.url.removeprefix(live_server.url)
    claims = page.locator("fieldset.claim")
    claims.nth(0).locator("input[type=radio]").first.focus()
    page.keyboard.press("2")
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()

    kept = [c for c in page.context.cookies() if c["name"] != "sessionid"]
    page.context.clear_cookies()  # the session expires; the CSRF cookie stays, as it does on the site
    page.context.add_cookies(kept)
    claims.nth(1).locator("input[type=radio]").first.focus()
    page.keyboard.press("1")
    page.locator("#save-status.save-status-failed").filter(has_text="저장 안 됨").wait_for()
    assert "로그인이 필요합니다" in page.locator("#problem-area").inner_text()
    assert "저장했습니다" not in page.locator("#save-status").inner_text()
    attempt = Attempt.objects.get(user=learner)
    assert ClaimMark.objects.get(attempt=attempt, order=2).judgement == ""

    sign_in(page, live_server, learner.username, then=attempt_url)
    page.locator("#save-status").filter(has_text="남아 있던 표시 1개를 저장했습니다").wait_for()
    assert ClaimMark.objects.get(attempt=attempt, order=2).judgement == "grounded"
    assert claims.nth(1).locator("input[value='grounded']").is_checked()
    assert "2개 중 2개 판단함" in page.locator("#judged-count").inner_text()
    assert page.csp_violations == []

    narrow = open_page(browser, width=360, axe=True)
    sign_in(narrow, live_server, learner.username)
    findings = check(narrow, live_server.url + attempt_url)
    assert findings == [], "\n".join(findings)
