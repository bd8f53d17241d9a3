"""Issue 22 in a real browser: what a learner and a teacher tripped over on finished screens, each fixed item once.

No sandbox worker runs here: finished runs are written as records, and a reproduction's re-run is finished by the
test while the page that asked for it stays open."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from exercises.evidence import peer
from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask, PeerAllocation, Reproduction
from exercises.labs import conf
from exercises.labs.execution import tell_run_finished
from exercises.labs.models import Lab, LabRun
from exercises.labs.services import code_digest
from lessons.models import Fixture, Lesson
from lessons.services import create_fixture_version
from tests.e2e.htmx import wait_settled
from tests.e2e.session import sign_in
from tutor.models import Cohort

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


def record_run(lab: Lab, user: User, *, key: str, stdout: str = "", status: str = "ok", step: str = "run") -> LabRun:
    return LabRun.objects.create(
        lab=lab, user=user, idempotency_key=key, step=step, status=status, code="print('x')", code_digest=code_digest("print('x')"),
        lab_version=lab.version, limits=conf.limits().as_json(), exit_code=0, stdout=stdout, stderr="",
        check_results=[], wall_ms=20.0, cpu_ms=10.0, finished_at=timezone.now(),
    )


def staff_fixture_admin(user: User) -> User:
    """The fixture admin as the site sets them up: staff, with the admin permissions their group gets in a
    migration (a transactional test flushes those between tests, so they are given here directly)."""
    from django.contrib.auth.models import Permission

    user.is_staff = True
    user.save()
    user.user_permissions.add(*Permission.objects.filter(
        content_type__app_label="lessons", codename__in=["view_fixture", "change_fixture", "view_fixtureversion"]))
    return user


def lab_with_files() -> Lab:
    return next(lab for lab in Lab.objects.order_by("pk") if lab.files)


def test_lab_screens_number_file_lines_name_empty_output_and_do_not_link_to_themselves(
        page, live_server, course: list[Lesson], learner: User) -> None:
    """The file viewer shows a number on every line; an empty stdout says (출력 없음) instead of a thin black box;
    the run page does not link 실행 기록 #N to itself; the stdout box is named by its heading."""
    lab = lab_with_files()
    empty = record_run(lab, learner, key="empty")
    printed = record_run(lab, learner, key="printed", stdout="안녕\n")
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/labs/{lab.slug}/")
    viewer = page.locator(".file-lines").first
    numbers = viewer.locator(".line-no").all_inner_texts()
    assert numbers[:3] == ["1", "2", "3"] and len(numbers) == viewer.locator("li").count()
    assert viewer.locator("li").nth(4).locator(".line-no").is_visible()

    page.goto(f"{live_server.url}/labs/runs/{empty.pk}/")
    main = page.locator("main")
    assert main.get_by_text("(출력 없음)").is_visible()
    assert main.locator("pre.output:empty").count() == 0
    assert main.get_by_role("link", name=f"실행 기록 #{empty.pk}").count() == 0
    page.goto(f"{live_server.url}/labs/runs/{printed.pk}/")
    assert page.locator("pre.output[aria-labelledby]").first.get_attribute("aria-labelledby") == f"stdout-title-{printed.pk}"
    assert page.locator(f"#stdout-title-{printed.pk}").inner_text() == "표준 출력"


def test_editor_escape_colour_reaches_four_and_a_half_to_one(page, live_server, course: list[Lesson],
                                                             learner: User) -> None:
    """A string escape in the editor is drawn darker than CodeMirror's #e40 (3.84:1): at least 4.5:1 on white."""
    lab = Lab.objects.order_by("pk").first()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/labs/{lab.slug}/")
    page.wait_for_load_state("load")
    assert page.locator(".cm-content").count() > 0, (errors, page.content()[:3000])
    page.locator(".cm-content").first.click()
    page.keyboard.press("Control+End")
    page.keyboard.type('\nprint("a\\tb")\n')
    colour = page.evaluate("""() => {
        const span = [...document.querySelectorAll('.cm-content span')].find(s => s.textContent === '\\\\t');
        return span ? getComputedStyle(span).color : null }""")
    assert colour == "rgb(176, 58, 0)", colour


def test_back_after_submitting_shows_the_submitted_version_and_markdown_is_rendered_safely(
        page, live_server, course: list[Lesson], learner: User) -> None:
    """Evidence Markdown (a ## heading, a list) renders as headings and lists, script never runs; 미리 보기 shows
    it before saving and moves focus to the preview's heading; after 제출하기, Back shows the version as submitted."""
    task = EvidenceTask.objects.filter(attach_runs=False).first() or EvidenceTask.objects.first()
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/evidence/{task.slug}/")
    assert page.get_by_text("아직 제출하지 않았습니다.").is_visible()
    text = ("## 고친 점 요약\n\n- 2번 줄을 인용했습니다.\n- `assert`를 고쳤습니다.\n\n"
            "<script>window.pwned = 1</script> <img src=x onerror=\"window.pwned=1\">\n\n" + "근거 문장을 충분히 적습니다. " * 8)
    page.get_by_label("증거 (Markdown)").fill(text)
    page.get_by_role("button", name="미리 보기").click()
    preview = page.locator("#evidence-preview")
    preview.get_by_role("heading", name="고친 점 요약").wait_for()
    expect(page.locator("#evidence-preview-title")).to_be_focused()  # set after htmx settles: waited for
    assert preview.locator("li code").first.inner_text() == "assert"
    page.locator("#draft-status").filter(has_text="초안 저장됨").wait_for()
    page.get_by_role("button", name="제출하기").click()
    page.wait_for_url(re.compile(r"/evidence/submissions/\d+/$"))
    submitted_at = page.url
    assert page.locator(".submission-text h4").inner_text() == "고친 점 요약"
    assert page.locator(".submission-text li").count() == 2
    assert page.locator(".submission-text img, .submission-text script").count() == 0
    assert page.evaluate("window.pwned") is None
    page.go_back()
    page.wait_for_url(re.compile(rf"/evidence/{task.slug}/$"))
    submitted = page.locator("section[aria-labelledby='submitted-title']")
    submitted.get_by_role("link", name="판 1").wait_for()
    assert "아직 제출하지 않았습니다." not in submitted.inner_text()
    page.go_forward()
    assert page.url == submitted_at


def test_rubric_descriptions_render_inline_code(page, live_server, course: list[Lesson], learner: User) -> None:
    """A rubric level written with `assert` shows a code element, not literal backticks."""
    task = next(t for t in EvidenceTask.objects.all()
                if any("`" in level["description"] for c in t.current_rubric.criteria for level in c["levels"]))
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/evidence/{task.slug}/")
    rubric = page.locator("table.rubric")
    assert "`" not in rubric.inner_text()
    assert rubric.locator("code").count() >= 1


def test_a_reproduction_appears_in_place_without_a_reload(browser, live_server, course: list[Lesson], learner: User,
                                                          other_learner: User) -> None:
    """The peer asks for a reproduction: the button turns into "재현 실행 중" where it was, and when the re-run
    finishes "재현됨 (출력 일치)" appears there, on the same page load, with the page still scrolled to that run."""
    task = EvidenceTask.objects.get(slug="tr-practice")
    lab = task.lesson.labs.first()
    run = record_run(lab, learner, key="original", stdout="시도 3\n")
    evidence_services.save_draft(author=learner, task=task, text="재현 기록을 붙입니다. " * 10, run_ids=[run.pk], lines=[])
    submission = evidence_services.submit(author=learner, task=task, submit_key="s1")
    PeerAllocation.objects.create(submission=submission, reviewer=other_learner,
                                  expires_at=timezone.now() + datetime.timedelta(hours=1))
    context = browser.new_context(viewport={"width": 1280, "height": 700}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, live_server, "other")
    page.goto(f"{live_server.url}/evidence/submissions/{submission.pk}/")
    page.evaluate("window.__sameLoad = true")
    button = page.get_by_role("button", name="샌드박스에서 다시 실행해 재현하기")
    button.scroll_into_view_if_needed()
    button.click()
    page.locator(f"#reproduction-{run.pk}").get_by_text("재현 실행 중").wait_for()
    scrolled = page.evaluate("window.scrollY")
    reproduction = Reproduction.objects.get(original=run)
    LabRun.objects.filter(pk=reproduction.rerun_id).update(
        status="ok", exit_code=0, stdout="시도 3\n", stderr="", check_results=[], finished_at=timezone.now(),
        lab_version=run.lab_version, fixture_versions=run.fixture_versions)
    tell_run_finished(reproduction.rerun_id)  # what the worker does when the re-run ends
    page.locator(f"#reproduction-{run.pk}").get_by_text("재현됨 (출력 일치)").wait_for()
    assert page.evaluate("window.__sameLoad") is True
    assert abs(page.evaluate("window.scrollY") - scrolled) < 50
    assert peer.settle_reproduction(reproduction=Reproduction.objects.get(pk=reproduction.pk)).status == "reproduced"
    context.close()


def test_lowering_a_cohort_minimum_asks_first_names_the_task_and_offers_undo(
        page, live_server, course: list[Lesson], learner: User, instructor: User, cohort: Cohort) -> None:
    """From the queue, "…낮추기" opens a page naming the task, the cohort and the change; nothing changes until it
    is confirmed; the message names the task; 되돌리기 puts the old number back."""
    task = EvidenceTask.objects.filter(attach_runs=False).first() or EvidenceTask.objects.first()
    evidence_services.save_draft(author=learner, task=task, text="기다리는 제출입니다. " * 10, run_ids=[], lines=[])
    evidence_services.submit(author=learner, task=task, submit_key="w1")
    before = task.default_min_peer_reviews
    sign_in(page, live_server, "teacher")
    page.goto(f"{live_server.url}/evidence/queue/")
    page.get_by_role("link", name=re.compile(f"「{re.escape(task.title)}」의 .* 최소 동료 검토를 0개로 낮추기")).click()
    page.get_by_role("button", name="0개로 바꾸기").wait_for()  # the confirmation page, not the queue being left
    main = page.locator("main")
    assert task.title in main.inner_text() and cohort.name in main.inner_text()
    assert f"{before}개에서 0개로" in main.inner_text()
    from exercises.evidence.selectors import cohort_peer_minimum
    assert cohort_peer_minimum(cohort, task) == before  # nothing changed by opening the page
    page.get_by_role("button", name="0개로 바꾸기").click()
    flash = page.locator(".flash").first.inner_text()
    assert task.title in flash and f"{before}개에서 0개로" in flash
    assert cohort_peer_minimum(cohort, task) == 0
    page.get_by_role("button", name=f"되돌리기: 다시 {before}개로").click()
    assert cohort_peer_minimum(cohort, task) == before
    assert f"0개에서 {before}개로" in page.locator(".flash").first.inner_text()


def test_focus_follows_the_understood_swap(page, live_server, course: list[Lesson], learner: User) -> None:
    """After "이해했어요" the form is replaced; focus goes to the region that replaced it, not to <body>."""
    lesson = course[0]
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/lessons/{lesson.slug}/")
    page.get_by_role("button", name="답과 해설 보기").first.click()
    wait_settled(page.locator("div[aria-live=polite]:has(> .answer)").first)
    form = page.locator("form.understood-form").first
    form.get_by_role("button", name="이해했어요").focus()
    page.keyboard.press("Enter")
    page.locator(".self-report-done").first.wait_for()
    # Focus is moved after htmx settles: wait for it (expect() polls outside the page, which CSP keeps from eval).
    region = page.locator("div.understood").filter(has=page.locator(".self-report-done")).first
    expect(region).to_be_focused(timeout=10_000)
    assert "이해했어요 표시함" in region.inner_text()


def test_words_progress_counts_and_the_sign_in_fragment(page, live_server, course: list[Lesson], learner: User) -> None:
    """내 학습 기록 says its count is of exercises and labels the list of single records; an expired session says
    만료되었거나; the evidence page no longer repeats that nothing certifies skill."""
    from exercises.grounding import services as grounding_services
    from exercises.grounding.models import Exercise
    exercise = Exercise.objects.get(slug="bookshop")
    for n in range(3):
        grounding_services.start_attempt(user=learner, exercise=exercise, answer_text=f"답 {n}. 주차는 무료입니다.",
                                         variant_key="", idempotency_key=f"w-{n}")
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/me/progress/")
    main = page.locator("main").inner_text()
    assert "같은 연습을 여러 번 해도 1개" in main or "제출한 근거 연습" not in main
    assert "시도와 실행 하나하나의 기록" in main
    task = EvidenceTask.objects.first()
    page.goto(f"{live_server.url}/evidence/{task.slug}/")
    assert "인증" not in page.locator("main").inner_text()
    kept = [c for c in page.context.cookies() if c["name"] != "sessionid"]  # the session ends, CSRF stays
    page.context.clear_cookies()
    page.context.add_cookies(kept)
    page.get_by_label("증거 (Markdown)").fill("로그인이 만료된 뒤 쓴 글")
    page.locator("#draft-problem").get_by_text("로그인이 만료되었거나").wait_for()
    assert "로그인이 끝났" not in page.locator("main").inner_text()


def test_sign_out_is_on_screen_at_360px(browser, live_server, course: list[Lesson], instructor: User) -> None:
    """At 360 px the instructor's 로그아웃 is inside the window (it moved to the brand's row), and so is every link
    of the nav (it wraps onto more rows instead of scrolling links such as 내 계정 out of sight)."""
    context = browser.new_context(viewport=NARROW, locale="ko-KR")
    page = context.new_page()
    sign_in(page, live_server, "teacher")
    box = page.get_by_role("button", name=re.compile("로그아웃")).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"], box
    for link in page.locator(".site-header nav a").all():
        other = link.bounding_box()
        assert other is not None
        assert other["x"] >= 0 and other["x"] + other["width"] <= NARROW["width"], (link.inner_text(), other)
        assert (other["y"] >= box["y"] + box["height"] or other["y"] + other["height"] <= box["y"]
                or other["x"] >= box["x"] + box["width"] or other["x"] + other["width"] <= box["x"]), (link.inner_text(), other, box)
    context.close()


def test_fixture_admin_version_table_fits_1280_and_shows_the_reason(page, live_server, course: list[Lesson],
                                                                     fixture_admin: User) -> None:
    """The fixture's version table fits a 1280 px window and shows each version's 고친 이유."""
    fixture = Fixture.objects.order_by("pk").first()
    create_fixture_version(fixture=fixture, text=fixture.current_version.text + "\n덧붙인 줄 하나",
                           origin="admin", actor=fixture_admin, reason="오타를 고침")
    staff_fixture_admin(fixture_admin)
    sign_in(page, live_server, fixture_admin.username)
    page.goto(f"{live_server.url}/admin/lessons/fixture/{fixture.pk}/change/")
    assert page.locator("table").filter(has_text="고친 이유").count() == 1, page.locator("body").inner_text()[:1500]
    table = page.locator("table").filter(has_text="고친 이유").first
    assert "고친 이유" in table.inner_text() and "오타를 고침" in table.inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280, width


@pytest.fixture
def long_attempt(course: list[Lesson], learner: User):
    from exercises.grounding import services as grounding_services
    from exercises.grounding.models import Exercise

    answer = " ".join(["가람책방은 토요일 오후 5시에도 엽니다.", "주차는 무료입니다.", "대관 신청은 전화로만 받습니다.",
                       "평일에는 오전 10시에 엽니다.", "반려동물은 들어올 수 없습니다.", "모임방은 열 명까지 씁니다.",
                       "음료는 가져올 수 있습니다.", "신청하면 바로 확정됩니다.", "더 궁금한 점이 있으면 물어보세요.",
                       "영수증은 이메일로 받습니다."])
    return grounding_services.start_attempt(user=learner, exercise=Exercise.objects.get(slug="bookshop"),
                                            answer_text=answer, variant_key="", idempotency_key="long")


def test_marking_on_a_phone_cites_without_long_scrolls(browser, live_server, long_attempt, learner: User) -> None:
    """At 360 px on a touch screen: nothing says 저장했습니다 before a save; the help speaks of touching, not Tab
    and keys; the source stays at the top, so citing a line for the last claim needs no scroll to the source;
    원문 접기 folds it; hints show no unexplained scores."""
    context = browser.new_context(viewport=NARROW, locale="ko-KR", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/exercises/attempts/{long_attempt.pk}/")
    assert page.locator("#save-status").inner_text() == ""
    assert page.locator(".help-touch").is_visible() and not page.locator(".help-keys").is_visible()
    claim = page.locator("fieldset.claim").last
    claim.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    assert before > 1000  # the last claim is far below the source's place in the page
    claim.get_by_role("button", name="이 주장에 원문 줄 인용하기").tap()
    line = page.locator(".source-panel .line-button[data-line='3']")
    assert line.is_visible()
    box = line.bounding_box()
    assert box is not None and 0 <= box["y"] < NARROW["height"]
    line.tap()
    assert claim.locator("input[name^='lines-']").input_value() == "3"
    assert abs(page.evaluate("window.scrollY") - before) < 400  # not the thousands of px back to the source
    claim_box = claim.bounding_box()
    assert claim_box is not None and claim_box["y"] < NARROW["height"] and claim_box["y"] + claim_box["height"] > 0
    page.get_by_role("button", name="원문 접기").tap()
    assert not page.locator(".source-panel .source-lines").is_visible()
    assert page.get_by_role("button", name="원문 펴기").get_attribute("aria-expanded") == "false"
    claim.get_by_role("button", name="근거 후보 보기").tap()
    hints = page.locator(f"#suggestions-slot-{claim.get_attribute('data-claim')}")
    hints.locator(".suggestions").wait_for()
    assert not re.search(r"\(\d\.\d\d\)", hints.inner_text())
    assert "저장했습니다" in page.locator("#save-status").inner_text()  # the citation was saved
    context.close()


def test_focus_follows_a_split_and_the_paste_has_a_counter(page, live_server, long_attempt, learner: User) -> None:
    """After 나누기 the claims are replaced; focus lands on the claim that was split, not on <body>. The answer box
    on the exercise page counts characters against its limit."""
    sign_in(page, live_server, "learner")
    page.goto(f"{live_server.url}/exercises/attempts/{long_attempt.pk}/")
    claim = page.locator("fieldset.claim").first
    claim_id = claim.get_attribute("id")
    claim.locator("details.split summary").click()
    words = claim.locator(".claim-text").inner_text().split()
    claim.locator("input[name^='before-']").fill(words[2])
    claim.locator(".split-form").get_by_role("button", name="나누기").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.tagName === 'FIELDSET'", timeout=5_000)
    assert page.evaluate("document.activeElement.id") == claim_id, page.evaluate("document.activeElement.outerHTML.slice(0, 300)")
    page.goto(f"{live_server.url}/exercises/bookshop/")
    counter = page.locator("#answer-counter")
    assert re.match(r"0 / [\d,]+자", counter.inner_text())
    page.locator("#answer").fill("가람책방")
    assert counter.inner_text().startswith("4 / ")
