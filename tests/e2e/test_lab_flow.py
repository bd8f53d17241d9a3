"""A learner runs a lab in a real browser through the real queue and worker, then injects the failure."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from exercises.labs.models import Lab, LabRun
from lessons.models import Lesson
from tests.e2e.session import sign_in, until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_run_a_lab_then_inject_the_failure(page, live_server, worker, course: list[Lesson], learner: User) -> None:
    lab = Lab.objects.get(slug="approval-gate")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/lessons/{lab.lesson.slug}/")
    page.get_by_role("link", name=lab.title).click()
    page.wait_for_url(f"**/labs/{lab.slug}/")
    page.locator(".cm-editor").wait_for()
    assert page.locator(".cm-lineNumbers").count() == 1

    page.get_by_label(re.compile("예측")).fill("검사 통과 줄이 나올 것이다")
    page.evaluate("([code]) => window.tutorEditor.set('code', code)", [lab.solution_code])
    page.locator(".cm-content").click()
    page.keyboard.press("Control+Enter")
    first = page.locator(".run-status").first
    first.locator(".badge").filter(has_text="검사 모두 통과").wait_for(timeout=40_000)
    assert "검사 통과" in first.locator("pre.output").first.inner_text()
    assert first.locator(".check-fail").count() == 0
    assert page.get_by_label(re.compile("예측")).input_value() == "", "each run gets its own prediction"
    assert "이 실행의 예측" in first.inner_text()
    assert "실행이 끝났습니다" in page.inner_text("#lab-status")
    box = first.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"], "the result is scrolled into view"

    page.get_by_role("button", name="편집기에 실패 주입하기").click()
    assert page.locator("input[name=step][value=inject]").is_checked()
    page.get_by_role("button", name="실행", exact=True).click()
    # Wait for the second run, or for a problem shown instead of it (then fail at once, saying what it was).
    problem = page.locator("#problem-area").filter(has_text=re.compile(r"\S"))
    page.locator(".run-status").nth(1).or_(problem).first.wait_for(timeout=20_000)
    assert page.inner_text("#problem-area").strip() == "", page.inner_text("#problem-area")
    expect(page.locator(".run-status"), "the second run never appeared").to_have_count(2)
    latest = page.locator(".run-status").first
    latest.locator(".badge").filter(has_text="의도한 실패 확인됨").wait_for(timeout=40_000)
    assert "AssertionError" in latest.locator("pre.output-err").inner_text()
    assert latest.locator(".check-fail").count() == 0, "the inject step's checks expect the AssertionError"

    # Restore: the full reset asks first (dismissed: nothing changes); the undo reverts only the injection.
    page.evaluate("() => window.tutorEditor.set('code', window.tutorEditor.get('code') + '\\n# 내가 고친 줄\\n')")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="처음 코드로 되돌리기").click()
    assert "# 내가 고친 줄" in page.evaluate("() => window.tutorEditor.get('code')")
    page.get_by_role("button", name="주입한 변경만 되돌리기").click()
    code = page.evaluate("() => window.tutorEditor.get('code')")
    inject = lab.step("inject")["inject"]
    assert "# 내가 고친 줄" in code and inject["find"] in code and inject["replace"] not in code
    assert page.locator("input[name=step][value=restore]").is_checked()

    runs = list(LabRun.objects.filter(user=learner).order_by("created_at"))
    assert [run.step for run in runs] == ["run", "inject"]
    assert runs[0].prediction == "검사 통과 줄이 나올 것이다"
    assert page.csp_violations == []


def test_lab_page_without_javascript_still_runs(browser, live_server, worker, course: list[Lesson], learner: User) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    lab = Lab.objects.get(slug="replay-retry")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/labs/{lab.slug}/")
    assert page.locator("textarea#code").is_visible()
    page.get_by_role("button", name="실행", exact=True).click()
    page.wait_for_url(re.compile(r"/labs/runs/\d+/$"))
    # Without JavaScript the page cannot update itself: wait for the worker to finish the run, then reload once.
    run_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    until(lambda: LabRun.objects.get(pk=run_id).is_finished, timeout=40, message=lambda: page.inner_text("main"))
    page.reload()
    expect(page.locator(".run-status .run-outcome")).not_to_have_count(0)
    # The starter code is unfinished on purpose: its run ends and its checks say what is missing.
    assert page.locator(".check-list li").count() >= 1
    context.close()
