"""axe-core, in a real browser at 360 px, over the main pages of every role: no serious or critical violation,
no sideways scroll of the page, a header that fits, and keyboard focus that follows the checked choice."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.grounding import services as grounding_services
from exercises.grounding.models import Attempt, Exercise
from exercises.labs.models import Lab
from lessons.models import Lesson
from tests.conftest import PASSWORD
from tutor.models import Cohort

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


@pytest.fixture
def axe_page(browser: object, live_server: object) -> Iterator[object]:
    """A 360 px page whose context bypasses the site's CSP, only so that axe's script can be injected."""
    context = browser.new_context(viewport=NARROW, locale="ko-KR", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/account/sign-in/")
    page.get_by_label("아이디").fill(username)
    page.get_by_label("비밀번호").fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(r"/$"))


def serious_findings(page) -> list[str]:
    """Run axe-core on the page; return each serious or critical violation with the nodes it names."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    return [f"{v['id']} ({v['impact']}): " + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


def layout_findings(page) -> list[str]:
    """At 360 px the page never scrolls sideways (tables scroll in their own box) and the header is one row."""
    found = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > NARROW["width"]:
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                         && !e.closest('.table-scroll, pre, .cm-editor'))
            .slice(0, 3).map(e => e.tagName + '.' + e.className)""")
        found.append(f"page is {width}px wide: {wide}")
    rows = page.evaluate("""() => { const items = [...document.querySelectorAll('.site-header .nav-list > li')]
        .filter(li => li.offsetParent !== null);
        if (!items.length) return 0;
        const first = items[0].getBoundingClientRect();
        return 1 + items.filter(li => li.getBoundingClientRect().top >= first.bottom - 2).length }""")
    if rows > 1:
        found.append(f"header nav wraps onto {rows} rows")
    return found


def check(page, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("load")
    return [f"{url}: {finding}" for finding in serious_findings(page) + layout_findings(page)]


@pytest.fixture
def records(course: list[Lesson], learner: User, cohort: Cohort) -> dict[str, object]:
    """One grounding attempt and one submitted piece of evidence by the learner, for every role to look at."""
    exercise = Exercise.objects.get(slug="bookshop")
    attempt = grounding_services.start_attempt(
        user=learner, exercise=exercise, answer_text="가람책방은 토요일 오후 5시에도 엽니다. 주차는 무료입니다.",
        variant_key="", idempotency_key="a11y-attempt")
    task = EvidenceTask.objects.filter(attach_runs=False).first() or EvidenceTask.objects.first()
    evidence_services.save_draft(author=learner, task=task, text="근거: 2번 줄을 인용했습니다.", run_ids=[], lines=[])
    submission = evidence_services.submit(author=learner, task=task, submit_key="a11y-submit")
    return {"attempt": attempt, "task": task, "submission": submission, "lab": Lab.objects.first(),
            "lesson": course[0], "exercise": exercise, "cohort": cohort}


def test_visitor_pages_have_no_serious_axe_findings_at_360px(axe_page, live_server, records) -> None:
    """Home, catalogue, a lesson and sign-in, signed out: axe finds nothing serious; nothing overflows."""
    base = live_server.url
    lesson = records["lesson"]
    findings = []
    for path in ["/", "/lessons/", f"/lessons/{lesson.slug}/", "/account/sign-in/"]:
        findings += check(axe_page, base + path)
    assert findings == [], "\n".join(findings)


def test_learner_pages_have_no_serious_axe_findings_at_360px(axe_page, live_server, records, learner) -> None:
    """Home, a lesson, an exercise, marking an attempt, a lab, a task, a submission and 내 학습 기록."""
    base = live_server.url
    sign_in(axe_page, live_server, "learner")
    attempt: Attempt = records["attempt"]
    submission: Submission = records["submission"]
    paths = ["/", f"/lessons/{records['lesson'].slug}/", "/exercises/bookshop/", f"/exercises/attempts/{attempt.pk}/",
             f"/evidence/{records['task'].slug}/", f"/evidence/submissions/{submission.pk}/", "/me/progress/",
             "/notices/"]
    if records["lab"] is not None:
        paths.append(f"/labs/{records['lab'].slug}/")
    findings = []
    for path in paths:
        findings += check(axe_page, base + path)
    assert findings == [], "\n".join(findings)


def test_instructor_pages_have_no_serious_axe_findings_at_360px(axe_page, live_server, records, instructor) -> None:
    """The queue, cohort progress, one learner's records, a submission under review and a learner's attempts."""
    base = live_server.url
    sign_in(axe_page, live_server, "teacher")
    paths = ["/evidence/queue/", f"/evidence/cohorts/{records['cohort'].pk}/progress/",
             f"/evidence/cohorts/{records['cohort'].pk}/learners/learner/",
             f"/evidence/submissions/{records['submission'].pk}/", "/exercises/bookshop/learners/learner/",
             f"/evidence/cohorts/{records['cohort'].pk}/schedule/", "/", "/notices/"]
    findings = []
    for path in paths:
        findings += check(axe_page, base + path)
    assert findings == [], "\n".join(findings)


def test_number_keys_move_focus_to_the_radio_they_check(page, live_server, records, learner) -> None:
    """Pressing 2 in a claim checks 자료없음 and focuses it, so a following Space or arrow acts on that choice."""
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/exercises/attempts/{records['attempt'].pk}/")
    claim = page.locator("fieldset.claim").first
    claim.locator("input[type=radio]").first.focus()
    page.keyboard.press("2")
    assert claim.locator("input[value='no_data']").is_checked()
    assert page.evaluate("document.activeElement.value") == "no_data"
    page.keyboard.press("Space")
    assert claim.locator("input[value='no_data']").is_checked()
    page.keyboard.press("3")
    assert page.evaluate("document.activeElement.value") == claim.locator("input[type=radio]").nth(2).get_attribute("value")


def test_cohort_pages_have_no_serious_axe_findings_at_360px(axe_page, live_server, records, instructor) -> None:
    """내 기수, a cohort's members, the roster upload; and, signed out, the sign-up and invitation pages."""
    from tutor.cohorts import services as cohort_services

    base = live_server.url
    cohort = records["cohort"]
    cohort_services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    _user, invitation = cohort_services.add_instructor_account(email="new@school.example", name="새강사")
    raw = "a11y-token"
    type(invitation).objects.filter(pk=invitation.pk).update(digest=cohort_services.token_digest(raw))
    findings = check(axe_page, f"{base}/account/sign-up/?code=ABC") + check(axe_page, f"{base}/account/invitation/{raw}/")
    sign_in(axe_page, live_server, "teacher")
    for path in ["/cohorts/", f"/cohorts/{cohort.pk}/", f"/cohorts/{cohort.pk}/roster/"]:
        findings += check(axe_page, base + path)
    assert findings == [], "\n".join(findings)
