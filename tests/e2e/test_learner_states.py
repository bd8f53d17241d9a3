"""In a real browser: an expired session shows at the control that failed and clears a stale 저장됨, the
sign-in link there returns to the same task, and a long field counts its characters."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session

from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson
from tests.conftest import PASSWORD
from tests.e2e.session import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_session_expiry_shows_at_the_draft_and_sign_in_returns_to_the_task(
        page, live_server, course: list[Lesson], learner: User) -> None:
    task = EvidenceTask.objects.get(slug="afs-practice")
    task_path = f"/evidence/{task.slug}/"
    sign_in(page, live_server, then=task_path)
    field = page.get_by_label("증거 (Markdown)")
    field.fill("첫 문단")
    page.locator("#draft-status").filter(has_text="초안 저장됨").wait_for()
    assert page.locator("#evidence-text-counter").inner_text() == "4 / 20,000자"

    Session.objects.all().delete()  # the session ends elsewhere (expiry, sign-out in another tab)
    field.press_sequentially(" 더 씀")
    problem = page.locator("#draft-problem")
    problem.get_by_text("로그인이 필요합니다").wait_for()
    assert "저장됨" not in page.inner_text("#draft-status"), "a stale 저장됨 is cleared"
    assert "저장 안 됨" in page.inner_text("#draft-status")
    assert page.inner_text("#problem-area").strip() == "", "the warning is at the control, not only at the top"
    assert field.input_value() == "첫 문단 더 씀", "nothing typed is lost"

    # Typing sent more than one autosave; each refused one swaps the notice in again. Click its link once they are
    # all answered, or a late swap can replace the link under the click (seen on a loaded machine). Leaving the
    # field first: the click would leave it, its "change" sends one more autosave, and when that answer swaps the
    # notice between mouse down and up, the click lands on no link.
    field.blur()
    page.wait_for_load_state("networkidle")
    problem.get_by_role("link").click()
    page.get_by_label("아이디").fill("learner")
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(re.escape(task_path) + "$"))
    assert page.csp_violations == []
