"""One simulated week of a class in the browser (issue 19). The clock is moved by moving the times on the rows
(the schedule and the lease), never by sleeping: a task opens, a learner submits late and is marked so, a peer
review is allocated and its mail arrives over real SMTP, the learner's to-do shows the lease end, the
instructor's digest arrives once though two workers tick, an extension moves one learner's due time, and the
progress page filters those who are behind."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from exercises.evidence import services as evidence
from exercises.evidence.models import EvidenceTask, PeerAllocation, TaskSchedule
from lessons.models import Lesson
from tests.e2e.session import sign_in
from tests.smtp import SmtpServer, body_of
from tutor.models import Cohort
from tutor.notices import worker
from tutor.roles import Role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def session(browser, live_server, username: str, *, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, live_server, username)
    return context, page


def local(value) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%dT%H:%M")


def test_one_week_of_a_class(browser, live_server, course: list[Lesson], make_user: Callable[..., User],
                             cohort: Cohort, smtp_server: SmtpServer, drain_queue: Callable[[], None],
                             settings) -> None:
    task = EvidenceTask.objects.get(slug="afs-practice")
    teacher_user = make_user("teacher", Role.INSTRUCTOR)
    make_user("hana")  # submits late
    classmate = make_user("dul")  # submitted on time, so hana gets peer work
    make_user("set")  # never submits: behind
    make_user("net")  # gets an extension: not behind
    monday = timezone.now()

    # Monday: the instructor schedules the task to open tomorrow, due on Wednesday, peer step until Friday.
    teacher_context, teacher = session(browser, live_server, "teacher")
    teacher.goto(f"{live_server.url}/evidence/cohorts/{cohort.pk}/schedule/")
    section = teacher.locator("section", has=teacher.get_by_role("heading", name=task.title))
    section.get_by_label("여는 시각 (서울)").fill(local(monday + timedelta(days=1)))
    section.get_by_label("제출 마감 (서울)").fill(local(monday + timedelta(days=2)))
    section.get_by_label("동료 검토 마감 (서울)").fill(local(monday + timedelta(days=4)))
    section.get_by_role("button", name="일정 저장").click()
    teacher.get_by_text("일정을 저장했습니다").wait_for()

    # Before opening the task is readable but not submittable.
    hana_context, hana = session(browser, live_server, "hana", width=360)
    hana.goto(f"{live_server.url}/evidence/{task.slug}/")
    hana.get_by_text("에 열립니다").first.wait_for()
    hana.get_by_label("증거 (Markdown)").fill("월요일에 미리 쓴 글")
    hana.locator("#draft-status").filter(has_text="초안 저장됨").wait_for()
    hana.get_by_role("button", name="제출하기").click()
    hana.locator("#draft-problem").filter(has_text="열립니다").wait_for()

    # The clock moves to Thursday: the task opened on Tuesday and was due Wednesday.
    thursday = monday + timedelta(days=3)
    shift = monday - thursday
    TaskSchedule.objects.filter(task=task, cohort=cohort).update(
        opens_at=monday + timedelta(days=1) + shift, due_at=monday + timedelta(days=2) + shift,
        peer_due_at=monday + timedelta(days=4) + shift)
    evidence.save_draft(author=classmate, task=task, text="수요일에 낸 글", run_ids=[], lines=[])
    evidence.submit(author=classmate, task=task, submit_key="dul-1")

    hana.goto(f"{live_server.url}/evidence/{task.slug}/")
    hana.get_by_text("마감이 지났습니다").wait_for()
    hana.get_by_role("button", name="제출하기").click()
    hana.wait_for_url(re.compile(r"/evidence/submissions/\d+/$"))
    hana.get_by_text(re.compile(r"기한 후 제출 \(1일")).wait_for()

    # A peer review is allocated to hana; its mail arrives over SMTP with the lease end.
    hana.goto(f"{live_server.url}/evidence/{task.slug}/")
    hana.get_by_role("button", name="검토할 동료 작업 받기").click()
    hana.wait_for_url(re.compile(r"/evidence/submissions/\d+/$"))
    drain_queue()
    allocation = PeerAllocation.objects.get(reviewer__username="hana")
    until = timezone.localtime(allocation.expires_at)
    [mail] = smtp_server.to("hana@example.com")
    assert until.strftime("%H:%M") in body_of(mail) and "/notices/unsubscribe/" in body_of(mail)

    # hana's home shows the to-do with the lease end, and the header counts the unread notice.
    hana.goto(f"{live_server.url}/")
    item = hana.locator("li[data-kind=peer_review]")
    item.get_by_text(until.strftime("%m월 %d일 %H:%M")).wait_for()
    assert "검토 기한" in item.inner_text()
    hana.locator(".unread-badge").filter(has_text="1").wait_for()

    # The daily digest: two workers tick after the hour, the instructor's digest arrives once.
    settings.NOTICES_DAILY_HOUR = 0
    assert worker.tick(worker="host-a", force=True) == ["due", "digest"]
    assert worker.tick(worker="host-b", force=True) == []
    drain_queue()
    digests = [m for m in smtp_server.to("teacher@example.com") if "기다리는 일" in str(m["Subject"])]
    assert len(digests) == 1 and "검토를 기다리는 제출" in body_of(digests[0])

    # An extension moves net's due time to Saturday; set stays behind.
    teacher.goto(f"{live_server.url}/evidence/cohorts/{cohort.pk}/schedule/")
    section = teacher.locator("section", has=teacher.get_by_role("heading", name=task.title))
    section.get_by_text("한 학습자의 마감 연장").click()
    section.get_by_label("학습자 아이디").fill("net")
    section.get_by_label("새 마감 (서울)").fill(local(timezone.now() + timedelta(days=2)))
    section.get_by_label("이유 (기록에 남습니다)").fill("병원 진료 확인서")
    section.get_by_role("button", name="연장").click()
    teacher.get_by_text("마감을 연장했습니다").wait_for()

    teacher.goto(f"{live_server.url}/evidence/cohorts/{cohort.pk}/progress/")
    teacher.get_by_label("보기").select_option("behind")
    teacher.get_by_role("button", name="적용").click()
    teacher.wait_for_url(re.compile(r"show=behind"))
    teacher.locator("li[data-learner=set]").wait_for()
    learners = teacher.locator("li[data-learner]").evaluate_all("els => els.map(e => e.dataset.learner)")
    assert learners == ["set"], learners
    assert teacher_user.is_active
    for context in (teacher_context, hana_context):
        context.close()
