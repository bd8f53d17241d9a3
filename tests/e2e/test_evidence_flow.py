"""Three people in three browsers. The learner submits evidence with a lab run and self-reviews. The peer submits
their own, practises on a calibration example and compares with the reference, then receives the learner's work
anonymously and reproduces the run. The instructor reviews and releases; the peer's review arrives late and stays
hidden from the author until the instructor releases it too, with the disagreement resolution."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from exercises.evidence.models import CalibrationReview, EvidenceTask, Reproduction, Review
from exercises.labs import services as lab_services
from exercises.labs.models import LabRun
from lessons.models import Lesson
from tests.e2e.session import sign_in, until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_session(browser, live_server, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, live_server, username)
    return context, page


def choose_levels(page, pick: str, form: str = ".review-form") -> None:
    """Pick one level in every criterion of the form, once the form is on the page.

    ``all()`` does not wait: right after a link's click it may still read the page being left,
    find no criterion and pick nothing (a CI run under load failed that way).
    """
    fieldsets = page.locator(f"{form} fieldset")
    fieldsets.first.wait_for()
    for fieldset in fieldsets.all():
        fieldset.get_by_label(pick, exact=True).check()


def submit_evidence(page, live_server, task: EvidenceTask, text: str, run: LabRun | None = None) -> str:
    page.goto(f"{live_server.url}/evidence/{task.slug}/")
    page.get_by_label("증거 (Markdown)").fill(text)
    if run is not None:
        page.get_by_label(re.compile(f"#{run.pk} ")).check()
    page.locator("#draft-status").filter(has_text="초안 저장됨").wait_for()
    page.get_by_role("button", name="제출하기").click()
    page.wait_for_url(re.compile(r"/evidence/submissions/\d+/$"))
    return page.url


def finished_run(user: User, lab, key: str) -> LabRun:
    run = lab_services.request_run(user=user, lab=lab, code=lab.solution_code, step="run", idempotency_key=key)
    until(lambda: LabRun.objects.get(pk=run.pk).is_finished, timeout=90, message=f"lab run {run.pk} never finished")
    return run


def test_calibrate_review_reproduce_release_then_release_the_late_peer_review(
        browser, live_server, worker, course: list[Lesson], learner: User, other_learner: User,
        instructor: User) -> None:
    task = EvidenceTask.objects.get(slug="tr-practice")
    lab = task.lesson.labs.first()
    run = finished_run(learner, lab, "e2e")

    author_ctx, author = open_session(browser, live_server, "learner")
    submission_url = submit_evidence(author, live_server, task, "**재현 기록**을 붙입니다. 시도 3, 초안 1이 나왔습니다.",
                                     run)
    choose_levels(author, "충족")
    author.get_by_role("button", name="검토 기록하기").click()
    author.get_by_text("검토를 기록했습니다").wait_for()

    # The peer must submit first and practise on an example before any peer work.
    peer_ctx, peer = open_session(browser, live_server, "other")
    peer.goto(f"{live_server.url}/evidence/{task.slug}/")
    assert "먼저 이 과제를 제출해야" in peer.inner_text("main")
    submit_evidence(peer, live_server, task, "제 풀이: R202는 재고 부족으로 보류했습니다.")
    peer.goto(f"{live_server.url}/evidence/{task.slug}/")
    assert "연습 예시 하나를 검토해" in peer.inner_text("main")
    peer.get_by_role("link", name="예시 제출 1").click()
    choose_levels(peer, "일부")
    peer.get_by_role("button", name="연습 검토 기록하기").click()
    peer.get_by_text("연습 검토를 기록했습니다").wait_for()
    comparison = peer.inner_text("main")
    assert "참고 검토" in comparison and "같음" in comparison and "다름" in comparison
    assert CalibrationReview.objects.filter(reviewer=other_learner).count() == 1

    peer.get_by_role("link", name="과제로 돌아가 동료 작업 받기").click()
    peer.get_by_role("button", name="검토할 동료 작업 받기").click()
    peer.wait_for_url(submission_url)
    body = peer.content()
    assert "learner" not in body and "익명 동료" in body and "강사는 작성자와 검토자 이름을 모두 봅니다" in body
    description = task.current_rubric.criteria[0]["levels"][0]["description"]
    assert description.replace("`", "") in peer.inner_text(".review-form")  # `code` renders as code
    peer.get_by_role("button", name="샌드박스에서 다시 실행해 재현하기").click()
    peer.get_by_text("재현됨 (출력 일치)").wait_for(timeout=40_000)  # appears in place, no reload
    # The reproduction is not the peer's own work: their lab editor opens with the starter code.
    peer.goto(f"{live_server.url}/labs/{lab.slug}/")
    assert lab.solution_code.strip() not in peer.content()

    # The instructor reviews and releases before the peer has written anything.
    teacher_ctx, teacher = open_session(browser, live_server, "teacher")
    teacher.get_by_role("link", name="검토 대기열").click()
    teacher.get_by_role("link", name=re.compile("learner · 판 1")).first.click()
    teacher.wait_for_url(submission_url)
    choose_levels(teacher, "부족")
    teacher.get_by_label("의견").fill("강사 의견: 표가 출력과 맞지 않습니다.")
    teacher.get_by_role("button", name="검토 기록하기").click()
    teacher.get_by_text("검토를 기록했습니다").wait_for()
    teacher.get_by_role("button", name="이 제출의 검토와 강사 메모 공개 (내 기수의 것만)").click()
    teacher.get_by_text("공개했습니다").first.wait_for()

    author.goto(submission_url)
    assert "강사 의견: 표가 출력과 맞지 않습니다." in author.inner_text("main")

    # The late peer review.
    peer.goto(submission_url)
    choose_levels(peer, "충족")
    peer.get_by_label("의견").fill("동료 의견: 재현이 그대로 됩니다.")
    peer.get_by_role("button", name="검토 기록하기").click()
    peer.get_by_text("검토를 기록했습니다").wait_for()

    author.goto(submission_url)
    assert "동료 의견: 재현이 그대로 됩니다." not in author.inner_text("main")

    teacher.goto(f"{live_server.url}/evidence/queue/")
    assert "공개 대기 1" in teacher.inner_text("main") and "재현됨" in teacher.inner_text("main")
    teacher.get_by_role("link", name=re.compile("learner · 판 1")).first.click()
    teacher.wait_for_url(submission_url)
    grid = teacher.inner_text("#grid-title >> xpath=..")
    assert "동료 검토 · other" in grid and "재현됨" in grid
    notice = teacher.inner_text("main")
    assert f"검토끼리 다르게 판단한 기준: {task.current_rubric.criteria[0]['title']}" in notice
    teacher.get_by_label("불일치를 해결한 이유").fill("실행은 재현되지만 표가 출력과 어긋납니다. 강사 검토를 따릅니다.")
    teacher.get_by_role("button", name="불일치 해결").click()
    teacher.get_by_text("불일치를 해결했습니다").wait_for()
    author.goto(submission_url)
    assert "강사 검토를 따릅니다" not in author.inner_text("main")
    teacher.get_by_role("button", name="이 검토 공개").click()
    teacher.get_by_text("검토를 공개했습니다").wait_for()

    author.goto(submission_url)
    main = author.inner_text("main")
    assert "동료 의견: 재현이 그대로 됩니다." in main, main
    assert "강사 검토를 따릅니다" in main, main
    assert "other" not in main, main
    author.get_by_role("link", name="내 학습 기록").click()
    tracks = author.inner_text(f"#progress-{task.lesson.slug} >> xpath=..")
    assert "실행해 본 실습" in tracks and "강사 검토" in tracks and "동료 검토" in tracks and "본인 검토" in tracks
    peer.goto(submission_url)
    assert "강사 검토를 따릅니다" not in peer.inner_text("main")
    assert Review.objects.filter(submission__author=learner).count() == 3
    assert Reproduction.objects.get().status == "reproduced"
    assert not LabRun.objects.filter(user=other_learner, purpose=LabRun.Purpose.PRACTICE).exists()
    for context in (author_ctx, peer_ctx, teacher_ctx):
        context.close()
