"""axe-core, in a real browser at 360 px, over the main pages of every role: no serious or critical violation,
no sideways scroll of the page, a header that fits, and keyboard focus that follows the checked choice."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.grounding import services as grounding_services
from exercises.grounding.models import Attempt, Exercise
from exercises.labs.models import Lab
from lessons.models import Lesson
from tests.e2e.session import sign_in
from tests.e2e.test_finished_screens import staff_fixture_admin
from tests.exercises.grounding.helpers import typed
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


# The newest axe-core at the time of writing (4.14.1, MPL-2.0), vendored so the check is the same offline and in CI;
# axe-playwright-python bundles an older one (4.12).
AXE_SCRIPT = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"


def serious_findings(page) -> list[str]:
    """Run axe-core on the page; return each serious or critical violation with the nodes it names."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe.from_file(AXE_SCRIPT).run(page).response
    assert results["testEngine"]["version"] == "4.14.1"
    return [f"{v['id']} ({v['impact']}): " + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


def layout_findings(page) -> list[str]:
    """At 360 px the page never scrolls sideways (tables scroll in their own box), and the header nav wraps onto at
    most two rows: every link stays in sight (none scrolled away) without pushing the page down."""
    found = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > NARROW["width"]:
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                         && !e.closest('.table-scroll, pre, .cm-editor'))
            .slice(0, 3).map(e => e.tagName + '.' + e.className)""")
        found.append(f"page is {width}px wide: {wide}")
    rows = page.evaluate("""() => new Set([...document.querySelectorAll('.site-header .nav-list > li')]
        .filter(li => li.offsetParent !== null && getComputedStyle(li).position !== 'absolute')
        .map(li => Math.round(li.getBoundingClientRect().top))).size""")
    if rows > 2:
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
    # Each key saved the mark (one autosave POST per change): the test ends only when they are answered, so none
    # is still writing while the test database is emptied (on PostgreSQL that deadlocked the flush once).
    page.wait_for_load_state("networkidle")
    page.locator("#save-status").filter(has_text="저장했습니다").wait_for()


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


# Issue 22: the states a person meets after first load, not only first loads.

def record_run(lab: Lab, user: User, *, key: str, status: str, stdout: str, stderr: str = "",
               passed: bool = True) -> object:
    from exercises.labs import conf
    from exercises.labs.models import LabRun
    from exercises.labs.services import code_digest

    code = 'import re\nprint(re.sub(r"\\s+", " ", "a\\tb"))\n'
    return LabRun.objects.create(
        lab=lab, user=user, idempotency_key=key, step="run", status=status, code=code, code_digest=code_digest(code),
        lab_version=lab.version, limits=conf.limits().as_json(), exit_code=0 if status == "ok" else 1, stdout=stdout,
        stderr=stderr, check_results=[{"id": "c", "label": "검사 하나", "passed": passed, "detail": ""}],
        wall_ms=20.0, cpu_ms=10.0, finished_at=timezone.now())


@pytest.fixture
def later_states(records: dict[str, object], learner: User, other_learner: User) -> dict[str, object]:
    """A lab run that passed and one that failed, a submitted (feedback) attempt, peer work under a live lease with an
    attached run whose reproduction is pending, and a fixture edit held back for confirmation."""
    from exercises.evidence.models import PeerAllocation

    lab: Lab = Lab.objects.filter(lesson__evidence_tasks__attach_runs=True).order_by("pk").first() or records["lab"]
    ok = record_run(lab, learner, key="a11y-ok", status="ok", stdout="a b\n")
    failed = record_run(lab, learner, key="a11y-failed", status="error", stdout="",
                        stderr="Traceback (most recent call last):\nValueError: 틀림", passed=False)
    attempt: Attempt = records["attempt"]
    judgements = ["grounded", "no_data", "pending", "not_claim"]
    grounding_services.mark_claims(user=attempt.user, attempt=attempt, marks=typed({
        claim.pk: {"judgement": judgements[n % 4], "lines": [1] if n % 4 == 0 else []}
        for n, claim in enumerate(attempt.claims.all())}))
    feedback = grounding_services.start_attempt(
        user=learner, exercise=records["exercise"], answer_text="가람책방은 토요일에도 엽니다. 주차는 무료입니다.",
        variant_key="", idempotency_key="a11y-feedback")
    grounding_services.mark_claims(user=feedback.user, attempt=feedback, marks=typed({
        claim.pk: {"judgement": "grounded", "lines": [1]} for claim in feedback.claims.all()}))
    grounding_services.submit_attempt(user=feedback.user, attempt=feedback)
    task = EvidenceTask.objects.filter(lesson=lab.lesson, attach_runs=True).first()
    peer_work = None
    if task is not None:
        from exercises.evidence import peer

        evidence_services.save_draft(author=learner, task=task, text="## 고친 점 요약\n\n- `assert`를 고쳤습니다.\n" * 4,
                                     run_ids=[ok.pk], lines=[])
        peer_work = evidence_services.submit(author=learner, task=task, submit_key="a11y-peer-work")
        allocation = PeerAllocation.objects.create(submission=peer_work, reviewer=other_learner,
                                                   expires_at=timezone.now() + datetime.timedelta(hours=1))
        peer.reproduce_run(reviewer=other_learner, allocation=allocation, run=ok)
    return {"ok": ok, "failed": failed, "lab": lab, "feedback": feedback, "peer_work": peer_work, "task": task}


def test_states_after_first_load_have_no_serious_axe_findings(axe_page, live_server, records, later_states,
                                                              learner) -> None:
    """A learner's lab with code in the editor, a passed and a failed run, the marking page with judged claims and
    the source, feedback, the review form and the evidence preview: axe finds nothing serious at 360 px."""
    base = live_server.url
    sign_in(axe_page, live_server, "learner")
    findings = []
    lab = later_states["lab"]
    for path in [f"/labs/runs/{later_states['ok'].pk}/", f"/labs/runs/{later_states['failed'].pk}/",
                 f"/exercises/attempts/{records['attempt'].pk}/", f"/exercises/attempts/{later_states['feedback'].pk}/",
                 f"/evidence/submissions/{records['submission'].pk}/"]:
        findings += check(axe_page, base + path)
    # The lab with code the highlighter colours (a regular expression, escapes) and a run's result in the page.
    axe_page.goto(f"{base}/labs/{lab.slug}/")
    axe_page.locator(".cm-content").first.click()
    axe_page.keyboard.press("Control+End")
    axe_page.keyboard.type('\nimport re\nprint(re.sub(r"\\s+", "\\t", "a  b\\n"))\n')
    findings += [f"lab with code: {f}" for f in serious_findings(axe_page) + layout_findings(axe_page)]
    # The evidence page with its preview open.
    axe_page.goto(f"{base}/evidence/{records['task'].slug}/")
    axe_page.get_by_label("증거 (Markdown)").fill("## 고친 점 요약\n\n- `assert`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    axe_page.get_by_role("button", name="미리 보기").click()
    axe_page.locator("#evidence-preview h3").wait_for()
    findings += [f"evidence preview: {f}" for f in serious_findings(axe_page) + layout_findings(axe_page)]
    assert findings == [], "\n".join(findings)


def test_peer_and_instructor_states_have_no_serious_axe_findings(axe_page, browser, live_server, records,
                                                                 later_states, instructor, fixture_admin) -> None:
    """The peer's review form with a reproduction running, the queue with waiting work, the confirmation of a
    cohort-wide change, and the fixture admin's change form held back for confirmation."""
    base = live_server.url
    findings = []
    if later_states["peer_work"] is not None:
        sign_in(axe_page, live_server, "other")
        findings += check(axe_page, f"{base}/evidence/submissions/{later_states['peer_work'].pk}/")
        axe_page.context.clear_cookies()
    sign_in(axe_page, live_server, "teacher")
    findings += check(axe_page, base + "/evidence/queue/")
    assert axe_page.locator("#waiting-title ~ table").count() >= 1, "the queue should have waiting work"
    task = records["task"]
    findings += check(axe_page, f"{base}/evidence/cohorts/{records['cohort'].pk}/{task.slug}/minimum/?minimum=0")
    axe_page.context.clear_cookies()
    from lessons.models import Fixture

    staff_fixture_admin(fixture_admin)
    fixture = next(f for f in Fixture.objects.order_by("pk") if f.current_version and f.current_version.text.count("\n") > 3)
    sign_in(axe_page, live_server, fixture_admin.username)
    axe_page.goto(f"{base}/admin/lessons/fixture/{fixture.pk}/change/")
    text = axe_page.locator("textarea[name=text]")
    assert text.count() == 1, (axe_page.url, axe_page.locator("body").inner_text()[:800])
    lines = text.input_value().split("\n")
    lines[1] = lines[1] + " (고침)"
    text.fill("\n".join(lines))
    axe_page.get_by_label("고친 이유").fill("접근성 검사")
    axe_page.locator("input[name=_save]").click()
    axe_page.locator(".errornote, .errorlist").first.wait_for()
    findings += [f"fixture admin held back: {f}" for f in serious_findings(axe_page)]
    assert findings == [], "\n".join(findings)
