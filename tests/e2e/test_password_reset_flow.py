"""In a real browser: forgotten password → mail through a real SMTP server → new password → signed in by e-mail."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from tests.conftest import PASSWORD
from tests.e2e.test_accessibility import axe_page  # noqa: F401,F811  (the 360 px page with axe)
from tests.smtp import SmtpServer, body_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "brand-new-passphrase-7"


def test_password_reset_round_trip(page, live_server, learner: User, smtp_server: SmtpServer,
                                   drain_queue: Callable[[], None]) -> None:
    learner.email = "learner@example.com"
    learner.save()
    page.goto(f"{live_server.url}/account/sign-in/")
    page.get_by_role("link", name="비밀번호를 잊으셨나요?").click()
    page.get_by_label("이메일 주소").fill("Learner@Example.com")
    page.get_by_role("button", name="재설정 링크 보내기").click()
    page.get_by_role("heading", name="메일을 확인하세요").wait_for()

    drain_queue()  # the task worker's part: send what the request queued
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "learner@example.com"
    link = re.search(r"https?://\S+/account/password/reset/\S+/", body_of(message))
    assert link and link.group(0).startswith(live_server.url), body_of(message)

    page.goto(link.group(0))
    page.get_by_role("heading", name="새 비밀번호 정하기").wait_for()
    page.locator("#id_new_password1").fill(NEW_PASSWORD)
    page.locator("#id_new_password2").fill(NEW_PASSWORD)
    page.get_by_role("button", name="비밀번호 저장").click()
    page.get_by_role("heading", name="비밀번호를 바꿨습니다").wait_for()

    page.get_by_role("main").get_by_role("link", name="로그인").click()
    page.get_by_label("아이디").fill("learner@example.com")
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.get_by_text("맞지 않습니다").wait_for()  # the old password is gone
    page.get_by_label("비밀번호").fill(NEW_PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("link", name="내 계정").is_visible()
    assert page.csp_violations == []


def test_account_pages_pass_axe_at_360px(axe_page, live_server, learner: User) -> None:  # noqa: F811
    """내 계정, password change, account deletion and the reset pages: no serious axe finding, no sideways scroll."""
    from tests.e2e.session import sign_in
    from tests.e2e.test_accessibility import check, serious_findings

    findings = []
    for path in ("/account/password/reset/", "/account/password/reset/done/", "/account/password/reset/x/y/"):
        findings += check(axe_page, f"{live_server.url}{path}")
    sign_in(axe_page, live_server, "learner")
    for path in ("/account/", "/account/password/change/", "/account/delete/"):
        findings += check(axe_page, f"{live_server.url}{path}")
    axe_page.get_by_role("button", name="계정 삭제").click()  # an empty password: the error is announced
    axe_page.locator(".field-error").wait_for()
    findings += [f"delete error: {f}" for f in serious_findings(axe_page)]
    assert findings == []
