"""The lab page reads for a beginner: plain outcomes, the inject step judged by its own checks,
a prediction per run, a step checklist, the read-only files beside the editor."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from exercises.labs import conf
from exercises.labs.models import Lab, LabRun


def finished(lab: Lab, user: User, *, step: str = "run", status: str = "ok", passed: bool | None = True,
             exit_code: int | None = 0, prediction: str = "", stderr: str = "", key: str = "k",
             cpu_ms: float | None = 10.0) -> LabRun:
    checks = [] if passed is None else [{"id": "c", "label": "검사 하나", "passed": passed, "detail": ""}]
    return LabRun.objects.create(
        lab=lab, user=user, idempotency_key=key, step=step, status=status, code="pass", code_digest="x",
        lab_version=lab.version, limits=conf.limits().as_json(), exit_code=exit_code, stderr=stderr,
        prediction=prediction, check_results=checks, wall_ms=5000.0, cpu_ms=cpu_ms,
        signal=9 if exit_code is None else None,
    )


def lab_page(client: Client, lab: Lab) -> str:
    return client.get(reverse("labs:detail", args=[lab.slug])).content.decode()


def run_page(client: Client, run: LabRun) -> str:
    return client.get(reverse("labs:run", args=[run.pk])).content.decode()


def test_a_timeout_reads_as_the_time_limit_never_none(learner_client: Client, learner: User, replay_lab: Lab) -> None:
    """A run stopped by the wall-clock limit says "5초 제한에 걸려 멈췄습니다", with no None and no signal number."""
    run = finished(replay_lab, learner, status="timeout", exit_code=None, passed=False, cpu_ms=3.0)
    page = run_page(learner_client, run)
    assert "5초 제한에 걸려 멈췄습니다" in page
    assert "None" not in page and "신호 9" not in page


def test_memory_and_output_limits_read_in_plain_korean(learner_client: Client, learner: User, replay_lab: Lab) -> None:
    """Memory and output limits name the limit that was hit."""
    memory = finished(replay_lab, learner, status="memory", exit_code=None, key="m")
    output = finished(replay_lab, learner, status="output_limit", exit_code=None, key="o")
    assert "메모리 제한(256.0" in run_page(learner_client, memory)
    assert "출력이 한도(64.0" in run_page(learner_client, output)


def test_inject_step_is_judged_by_its_own_expected_outcome(learner_client: Client, learner: User,
                                                          replay_lab: Lab) -> None:
    """An intended failure whose checks pass gets a success badge, not a red 오류; one whose checks fail does not."""
    intended = finished(replay_lab, learner, step="inject", status="error", exit_code=1, key="i1",
                        stderr="Traceback (most recent call last):\nAssertionError: 두 번 씀\n")
    page = run_page(learner_client, intended)
    assert 'badge-tone-ok">의도한 실패 확인됨' in page
    assert "AssertionError 예외로 멈췄습니다" in page
    missed = finished(replay_lab, learner, step="inject", status="ok", passed=False, key="i2")
    assert 'badge-tone-warn">의도한 실패가 아님' in run_page(learner_client, missed)


def test_prediction_is_kept_per_run_and_not_carried_into_the_next(learner_client: Client, learner: User,
                                                                 replay_lab: Lab) -> None:
    """The field opens empty; each run shows its own prediction beside its result."""
    run = finished(replay_lab, learner, prediction="시도 3번이 나온다")
    page = lab_page(learner_client, replay_lab)
    field = page[page.index('<textarea id="prediction"'):]
    assert field.index(">") + 1 == field.index("</textarea>"), "the prediction field opens empty"
    assert "이 실행의 예측:</strong> 시도 3번이 나온다" in run_page(learner_client, run)


def test_step_checklist_marks_a_step_done_only_when_its_checks_passed(learner_client: Client, learner: User,
                                                                     replay_lab: Lab) -> None:
    """A run step is 마침 once a run of it met its checks; a failed attempt leaves it 아직."""
    finished(replay_lab, learner, step="run", passed=False, key="a")
    page = lab_page(learner_client, replay_lab)
    assert 'id="step-run"' in page and "lab-step-done" not in page
    finished(replay_lab, learner, step="run", passed=True, prediction="예측", key="b")
    page = lab_page(learner_client, replay_lab)
    assert 'lab-step lab-step-run lab-step-done" id="step-run"' in page
    assert 'lab-step lab-step-predict lab-step-done" id="step-predict"' in page
    assert 'lab-step lab-step-inject" id="step-inject"' in page


def test_read_only_files_are_shown_beside_the_editor(learner_client: Client, course) -> None:
    """A lab that binds server.py shows its text, line by line and numbered, in a viewer next to the editor."""
    lab = Lab.objects.get(slug="mcp-stdio")
    page = lab_page(learner_client, lab)
    assert "함께 주는 파일 (읽기 전용)" in page and "<code>server.py</code>" in page
    first_line = lab.files["server.py"].splitlines()[0]
    assert f'<li><span class="line-no" aria-hidden="true">1</span><code>{escape(first_line)}</code></li>' in page


def test_restore_asks_first_and_undo_reverts_only_the_injected_line(learner_client: Client, replay_lab: Lab) -> None:
    """The reset button carries a question; the restore step offers to undo just the injected change."""
    page = lab_page(learner_client, replay_lab)
    inject = replay_lab.step("inject")["inject"]
    assert 'data-reset-editor="code"' in page and "data-confirm=" in page
    assert f'data-undo-inject-find="{escape(inject["replace"])}"' in page
    assert "주입한 변경만 되돌리기" in page


def test_results_and_refusals_have_a_place_beside_the_run_button(learner_client: Client, replay_lab: Lab) -> None:
    """The run area and a local problem area follow the button row, inside the form's section."""
    page = lab_page(learner_client, replay_lab)
    button = page.index('id="run-button"')
    assert button < page.index('id="lab-problem"') < page.index('id="run-area"') < page.index('id="history-title"')
    assert 'data-local-problem="lab-problem"' in page


def test_code_and_prediction_show_bidi_and_invisible_characters_as_marks(learner_client: Client, learner: User,
                                                                          replay_lab: Lab) -> None:
    """Trojan Source: code and a prediction holding bidi overrides, tag characters or Hangul fillers reach
    the run page with each shown as a visible mark, never as the raw character that reorders or hides text."""
    run = finished(replay_lab, learner, prediction="맞음\U000E0041\u3164", key="bidi")
    run.code = "access = 'user\u202e \u2066# admin\u2069 \u2066'\nprint(access)\ufe0f"
    run.save(update_fields=["code"])
    page = run_page(learner_client, run)
    for raw in ("\u202e", "\u2066", "\u2069", "\U000E0041", "\u3164", "\ufe0f"):
        assert raw not in page
    for mark in ("U+202E", "U+2066", "U+2069", "U+E0041", "U+3164", "U+FE0F"):
        assert f"⟨{mark}⟩" in page  # the shared mark of tutor.text


def test_code_with_a_nul_character_is_refused_in_korean_and_runs_nothing(learner_client: Client, learner: User,
                                                                          replay_lab: Lab) -> None:
    """The page's form refuses a NUL in the code with the editor's words (not Django's generic text), answers 400
    and queues no run; the same code without it runs."""
    url = reverse("labs:request-run", args=[replay_lab.slug])
    response = learner_client.post(url, {"code": "print(1)\x00", "step": "run", "idempotency_key": "nul-1"},
                                   HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "코드에 NUL 문자" in response.content.decode()
    assert not LabRun.objects.filter(user=learner, idempotency_key="nul-1").exists()
