"""Three people in three browsers: a learner submits evidence with a lab run and self-reviews; a peer reviews it
anonymously and reproduces the run; the instructor reviews, resolves the disagreement and releases; the learner
then sees the released reviews beside completion and self-report."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User

from exercises.evidence.models import EvidenceTask, Reproduction, Review
from exercises.labs import services as lab_services
from lessons.models import Lesson
from tests.conftest import PASSWORD
from tutor.roles import Role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_session(browser, live_server, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}/account/sign-in/")
    page.get_by_label("아이디").fill(username)
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(r"/$"))
    return context, page


def choose_levels(page, pick: str) -> None:
    for fieldset in page.locator(".review-form fieldset").all():
        fieldset.get_by_label(pick, exact=True).check()


def test_submit_review_reproduce_resolve_release(browser, live_server, worker, course: list[Lesson],
                                                 learner: User, other_learner: User, instructor: User) -> None:
    task = EvidenceTask.objects.get(slug="tr-practice")
    lab = task.lesson.labs.first()
    run = lab_services.request_run(user=learner, lab=lab, code=lab.solution_code, step="run", idempotency_key="e2e")
    deadline = time.monotonic() + 40
    while not type(run).objects.get(pk=run.pk).is_finished:
        assert time.monotonic() < deadline
        time.sleep(0.2)

    author_ctx, author = open_session(browser, live_server, "learner")
    author.goto(f"{live_server.url}/evidence/{task.slug}/")
    author.get_by_label("증거 (Markdown)").fill("**재현 기록**을 붙입니다. 시도 3, 초안 1이 나왔습니다.")
    author.get_by_label(re.compile(f"#{run.pk} ")).check()
    author.locator("#draft-status").filter(has_text="초안 저장됨").wait_for()
    author.get_by_role("button", name="제출하기").click()
    author.wait_for_url(re.compile(r"/evidence/submissions/\d+/$"))
    submission_url = author.url
    choose_levels(author, "충족")
    author.get_by_role("button", name="검토 기록하기").click()
    author.get_by_text("검토를 기록했습니다").wait_for()

    peer_ctx, peer = open_session(browser, live_server, "other")
    peer.goto(f"{live_server.url}/evidence/{task.slug}/")
    peer.get_by_role("button", name="검토할 동료 작업 받기").click()
    peer.wait_for_url(submission_url)
    body = peer.content()
    assert "learner" not in body and "익명 동료" in body
    peer.get_by_role("button", name="샌드박스에서 다시 실행해 재현하기").click()
    deadline = time.monotonic() + 40
    while "재현됨 (출력 일치)" not in peer.inner_text("main"):
        assert time.monotonic() < deadline, peer.inner_text("main")
        time.sleep(0.5)
        peer.reload()
    choose_levels(peer, "충족")
    peer.get_by_role("button", name="검토 기록하기").click()
    peer.get_by_text("검토를 기록했습니다").wait_for()

    teacher_ctx, teacher = open_session(browser, live_server, "teacher")
    teacher.get_by_role("link", name="검토 대기열").click()
    teacher.get_by_role("link", name=re.compile("learner · 판 1")).click()
    choose_levels(teacher, "부족")
    teacher.get_by_role("button", name="검토 기록하기").click()
    teacher.get_by_label("불일치를 해결한 이유").fill("실행 기록은 맞지만 설명이 부족합니다. 강사 검토를 따릅니다.")
    teacher.get_by_role("button", name="불일치 해결").click()
    teacher.get_by_role("button", name="학습자에게 검토 공개").click()
    teacher.get_by_text("검토를 공개했습니다").wait_for()

    author.goto(submission_url)
    main = author.inner_text("main")
    assert "동료 검토" in main and "강사 검토" in main and "other" not in main
    author.get_by_role("link", name="내 학습 기록").click()
    tracks = author.inner_text(f"#progress-{task.lesson.slug} >> xpath=..")
    assert "실행해 본 실습" in tracks and "강사 검토" in tracks and "동료 검토" in tracks and "본인 검토" in tracks
    assert Review.objects.filter(submission__author=learner).count() == 3
    assert Reproduction.objects.get().status == "reproduced"
    for context in (author_ctx, peer_ctx, teacher_ctx):
        context.close()
    assert instructor.groups.filter(name=Role.INSTRUCTOR.value).exists()
