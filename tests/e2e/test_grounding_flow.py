"""A learner, in a real browser, pastes a sample answer, marks claims with the keyboard, cites lines and reads the feedback."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from exercises.grounding.models import Attempt
from lessons.models import Lesson
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_paste_mark_cite_submit_and_read_feedback(page, live_server, course: list[Lesson], learner: User) -> None:
    page.goto(f"{live_server.url}/account/sign-in/")
    page.get_by_label("아이디").fill("learner")
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(r"/$"))

    page.goto(f"{live_server.url}/lessons/answer-from-sources/")
    page.get_by_role("link", name=re.compile("가람책방")).first.click()
    page.wait_for_url("**/exercises/bookshop/")
    page.get_by_role("textbox", name="답변", exact=True).fill(
        "가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다. 행사 신청은 담당자 확인 뒤 확정됩니다."
    )
    page.get_by_role("button", name="주장으로 나누기").click()
    page.wait_for_url(re.compile(r"/exercises/attempts/\d+/$"))
    claims = page.locator("fieldset.claim")
    assert claims.count() == 3

    plan = [("1", [2]), ("2", []), ("3", [7])]  # 근거 2번 줄 · 자료없음 · 보류 7번 줄
    for index, (key, lines) in enumerate(plan):
        claim = claims.nth(index)
        claim.locator("input[type=radio]").first.focus()
        page.keyboard.press(key)
        for line in lines:
            page.locator(f".line-button[data-line='{line}']").click()
        expected = ", ".join(map(str, lines))
        assert claim.locator("input[name^='lines-']").input_value() == expected
        if lines:
            assert "cited" in (page.locator(f"#line-{lines[0]}").get_attribute("class") or "")
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()

    page.get_by_role("button", name="제출하고 피드백 보기").click()
    page.get_by_role("heading", name=re.compile("주장별 피드백")).wait_for()
    assert page.locator(".verdict-agrees").count() == 3
    assert "진도 기록일 뿐" in page.inner_text("main")
    attempt = Attempt.objects.get(user=learner)
    assert attempt.status == "submitted"
    assert [c.cited_lines for c in attempt.claims.all()] == [[2], [], [7]]
    assert page.csp_violations == []
