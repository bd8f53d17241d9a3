"""A learner, in a real browser, marks claims with the keyboard, cites lines and reads claim-level feedback."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest
from django.contrib.auth.models import User

from exercises.grounding.models import Attempt
from lessons.models import Lesson
from tests.e2e.session import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def paste(page, live_server, text: str) -> None:
    page.goto(f"{live_server.url}/exercises/bookshop/")
    page.get_by_role("textbox", name="답변", exact=True).fill(text)
    page.get_by_role("button", name="주장으로 나누기").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))


def test_contradicted_claim_marked_no_data_is_counted_right_with_the_reason(
        page, live_server, course: list[Lesson], learner: User) -> None:
    """Sample B's "밤 9시까지 영업" marked 자료없음 (key 2) citing line 2: 맞음, because 원문과 어긋남."""
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/exercises/bookshop/")
    sample = page.locator("details.sample").filter(has_text="예시 답변 B")
    sample.locator("summary").click()
    sample.get_by_role("button", name="이 예시로 시작").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))
    claim = page.locator("fieldset.claim").filter(has_text="밤 9시까지")
    claim.locator("input[type=radio]").first.focus()
    page.keyboard.press("2")
    page.locator(".line-button[data-line='2']").click()
    assert claim.locator("input[name^='lines-']").input_value() == "2"
    assert claim.locator("input[value='no_data']").is_checked()
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()

    page.get_by_role("button", name="제출하고 피드백 보기").click()
    page.get_by_role("heading", name="판단하지 않은 주장이 있습니다").wait_for()
    assert "6개 중 1개 판단함" in page.inner_text("main")
    page.get_by_role("button", name="판단하지 않은 채로 제출하기").click()
    page.get_by_role("heading", name=re.compile("주장별 피드백")).wait_for()
    item = page.locator("article.feedback-claim").filter(has_text="밤 9시까지")
    assert item.locator(".verdict-label").inner_text() == "맞음"
    text = item.inner_text()
    assert "원문과 어긋남" in text and "주장별 답안 키" in text
    summary = page.locator(".feedback-summary").inner_text()
    assert "맞음 1" in summary and "확인 안 됨 0" in summary
    unmarked = page.locator("article.feedback-claim").filter(has_text="참가비는 무료")
    assert unmarked.locator(".verdict-label").inner_text() == "판단 없음"
    assert page.csp_violations == []


def test_cite_by_keyboard_after_shift_tab_goes_to_the_active_claim(
        page, live_server, course: list[Lesson], learner: User) -> None:
    """Mark claim 3, Shift+Tab back past claims 2 and 1 to a line button, press Enter: claim 3 gets the line."""
    sign_in(page, live_server)
    paste(page, live_server, "가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다. 행사 신청은 담당자 확인 뒤 확정됩니다.")
    claims = page.locator("fieldset.claim")
    assert claims.count() == 3
    third = claims.nth(2)
    third.locator("input[type=radio]").first.focus()
    page.keyboard.press("3")  # 보류
    assert page.locator("#cite-target").inner_text() == "인용 대상: 주장 3"
    for _ in range(80):
        page.keyboard.press("Shift+Tab")
        if page.locator(".line-button:focus").count():
            break
    focused = page.locator(".line-button:focus")
    assert focused.count() == 1, "Shift+Tab never reached the source's line buttons"
    line = focused.get_attribute("data-line")
    assert page.locator("#cite-target").inner_text() == "인용 대상: 주장 3"
    page.keyboard.press("Enter")
    assert third.locator("input[name^='lines-']").input_value() == line
    assert [claims.nth(i).locator("input[name^='lines-']").input_value() for i in (0, 1)] == ["", ""]
    assert f"주장 3: 보류, 인용 {line}번 줄" in page.locator("#live-claim").inner_text()
    page.keyboard.press("Shift+Tab")  # to the line above, and cite it too
    expected = ", ".join(sorted({line, str(int(line) - 1)}, key=int))
    lines_field = third.locator("input[name^='lines-']").get_attribute("name")
    # The first citation's save may still be on its way: wait for the answer to the save that carries both lines.
    with page.expect_response(lambda response: response.request.method == "POST" and "/marks/" in response.url
                              and parse_qs(response.request.post_data or "").get(lines_field) == [expected]):
        page.keyboard.press("Enter")
    assert third.locator("input[name^='lines-']").input_value() == expected
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()
    attempt = Attempt.objects.get(user=learner)
    assert [c.cited_lines for c in attempt.claims.all()][:2] == [[], []]
    assert attempt.claims.get(order=3).cited_lines == sorted(map(int, expected.split(", ")))
    assert page.csp_violations == []


def test_paste_mark_cite_submit_and_read_feedback(page, live_server, course: list[Lesson], learner: User) -> None:
    """Keys 1-4 mark, clicks cite; feedback gives backed verdicts and 확인 안 됨 where nothing backs one."""
    sign_in(page, live_server)
    paste(page, live_server, "안녕하세요! 가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다. 참가비 없이 독서 모임에 갈 수 있습니다.")
    claims = page.locator("fieldset.claim")
    assert claims.count() == 3, "the greeting is not a claim"
    plan = [("1", [2]), ("2", []), ("1", [8])]
    for index, (key, lines) in enumerate(plan):
        claim = claims.nth(index)
        claim.locator("input[type=radio]").first.focus()
        page.keyboard.press(key)
        for line in lines:
            page.locator(f".line-button[data-line='{line}']").click()
        assert claim.locator("input[name^='lines-']").input_value() == ", ".join(map(str, lines))
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()
    page.get_by_role("button", name="제출하고 피드백 보기").click()
    page.get_by_role("heading", name=re.compile("주장별 피드백")).wait_for()
    labels = page.locator("article.feedback-claim .verdict-label").all_inner_texts()
    assert labels[1] == "맞음", "a claim answering a question the source cannot answer, marked 자료없음"
    assert labels[2] == "확인 안 됨", "nothing backs a verdict on the paraphrase: it is shown beside line 8"
    assert "독서 모임 참가비는 무료입니다." in page.locator("article.feedback-claim").nth(2).inner_text()
    assert "진도 기록일 뿐" in page.inner_text("main")
    assert page.csp_violations == []
