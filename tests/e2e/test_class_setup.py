"""Running a class in the browser: an instructor creates a cohort and uploads a roster with a bad row (and sees it
before anything is sent), the invitations arrive through a real SMTP server, two learners set passwords and land
in the cohort; an assistant releases a review and is refused (404) at settings, roster and roles."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from exercises.evidence import services as evidence
from exercises.evidence.models import EvidenceTask, Review
from lessons.models import Lesson
from tests.conftest import join
from tests.e2e.session import sign_in
from tests.exercises.evidence.helpers import levels, submitted
from tests.smtp import SmtpServer, body_of
from tutor.models import Cohort, Membership
from tutor.roles import CohortRole, Role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://\S+/account/invitation/[\w-]+/")


def open_session(browser, live_server, username: str | None = None, *, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    if username:
        sign_in(page, live_server, username)
    return context, page


def upload(page, text: str) -> None:
    page.get_by_label("명단 CSV 파일").set_input_files(
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": text.encode("utf-8")}])
    page.get_by_role("button", name="미리 보기").click()


def test_instructor_invites_a_roster_and_two_learners_land_in_the_cohort(
        browser, live_server, make_user: Callable[..., User], smtp_server: SmtpServer,
        drain_queue: Callable[[], None]) -> None:
    """Create, preview a bad roster (nothing sent), send a good one, mail over SMTP, two learners join."""
    make_user("kim", Role.INSTRUCTOR, in_cohort=False)
    context, page = open_session(browser, live_server, "kim", width=360)
    page.goto(f"{live_server.url}/cohorts/")
    page.get_by_label("기수 이름").fill("2027 봄 1기")
    page.get_by_role("button", name="기수 만들기").click()
    page.get_by_role("heading", name="2027 봄 1기").wait_for()
    page.get_by_role("link", name="명단 올려 초대하기").click()

    upload(page, "name,email,student_id\n김하나,hana@school.example,1\n이둘,dul-at-school,2\n")
    page.get_by_text("이메일 주소가 올바르지 않습니다: dul-at-school").wait_for()
    assert page.get_by_role("button", name=re.compile("초대 메일 보내기")).count() == 0
    assert not User.objects.filter(email="hana@school.example").exists()

    upload(page, "\ufeffname,email,student_id\n김하나,hana@school.example,1\n이둘,dul@school.example,2\n")
    page.get_by_role("button", name="2명에게 초대 메일 보내기").click()
    page.get_by_text("2명에게 초대 메일을 보냈습니다").wait_for()
    context.close()

    drain_queue()
    messages = smtp_server.wait_for(2)
    cohort = Cohort.objects.get(name="2027 봄 1기")
    for address, name in (("hana@school.example", "김하나"), ("dul@school.example", "이둘")):
        [message] = smtp_server.to(address)
        link = LINK.search(body_of(message))
        assert link and link.group(0).startswith(live_server.url)
        learner_context, learner_page = open_session(browser, live_server, width=360)
        learner_page.goto(link.group(0))
        learner_page.get_by_label("새 비밀번호", exact=True).fill("a-long-class-passphrase")
        learner_page.get_by_label("새 비밀번호 확인").fill("a-long-class-passphrase")
        learner_page.get_by_role("button", name="비밀번호 정하고 시작하기").click()
        learner_page.get_by_text("'2027 봄 1기' 기수에 들어왔습니다").wait_for()
        learner_page.get_by_role("button", name=re.compile("로그아웃")).wait_for()
        learner_context.close()
        person = User.objects.get(email=address)
        assert person.first_name == name
        assert Membership.objects.get(user=person, cohort=cohort).status == Membership.Status.ACTIVE
    assert len(messages) == 2


def test_an_assistant_releases_a_review_and_is_refused_at_settings_roster_and_roles(
        browser, live_server, make_user: Callable[..., User], cohort: Cohort, course: list[Lesson]) -> None:
    """The assistant's release reaches the author; settings, roster and role changes answer 404."""
    learner = make_user("learner")
    instructor = make_user("teacher", Role.INSTRUCTOR)
    assistant = make_user("helper", None, in_cohort=False)
    join(cohort, assistant, CohortRole.ASSISTANT)
    task = EvidenceTask.objects.get(slug="afs-practice")
    mine = submitted(learner, task)
    review = evidence.record_review(reviewer=instructor, submission=mine, kind="instructor",
                                    judgements=levels(mine, 0), comment="강사 의견")
    context, page = open_session(browser, live_server, "helper")
    page.goto(f"{live_server.url}/evidence/submissions/{mine.pk}/")
    page.get_by_role("button", name="이 검토 공개").click()
    page.wait_for_load_state()
    assert Review.objects.get(pk=review.pk).released_at is not None

    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": live_server.url + "/"}
    settings_url = f"{live_server.url}/evidence/cohorts/{cohort.pk}/{task.slug}/minimum/"
    assert page.request.post(settings_url, form={"minimum": "0", "reason": "x"}, headers=headers).status == 404
    assert page.goto(f"{live_server.url}/cohorts/{cohort.pk}/roster/").status == 404
    roster = page.request.post(f"{live_server.url}/api/cohorts/{cohort.pk}/roster?dry_run=1",
                               data="name,email\n가,ga@example.com\n",
                               headers={**headers, "Content-Type": "text/csv"})
    assert roster.status == 404
    role = page.request.put(f"{live_server.url}/api/cohorts/{cohort.pk}/members/learner",
                            data='{"role": "instructor"}', headers={**headers, "Content-Type": "application/json"})
    assert role.status == 404
    members = page.goto(f"{live_server.url}/cohorts/{cohort.pk}/")
    assert members.status == 200 and page.get_by_role("button", name="바꾸기").count() == 0
    assert Membership.objects.get(user=learner).role == CohortRole.LEARNER
    context.close()
