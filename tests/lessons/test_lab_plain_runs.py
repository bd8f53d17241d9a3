"""Reference solutions of the labs changed for issue 21, run with plain python3 (no sandbox) against their checks.

The real sandbox run is ``check_labs``; these tests only prove, quickly and
without the machine-wide sandbox slots, that each step's checks accept the
reference (and a learner's equally right variant) and refuse the injected fault.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from exercises.labs.checking import run_checks
from exercises.labs.content import program_for_step, read_lab
from exercises.labs.sandbox.runner import RunResult

CONTENT = Path(__file__).resolve().parents[2] / "lessons" / "content"


def run_plain(lesson: str, lab: str, code: str, tmp_path: Path) -> RunResult:
    """Run ``code`` as main.py beside the lab's files and fixtures, as the sandbox binds them."""
    folder = CONTENT / lesson / "labs" / lab
    spec = read_lab(folder)
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, text in spec["files"].items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for slug in spec["fixture_slugs"]:
        (tmp_path / f"{slug}.txt").write_text((CONTENT / lesson / "fixtures" / f"{slug}.txt").read_text("utf-8"), "utf-8")
    (tmp_path / "main.py").write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, "main.py"], cwd=tmp_path, capture_output=True, text=True, timeout=20,
                          check=False)
    return RunResult(status="ok" if done.returncode == 0 else "error", exit_code=done.returncode, signal=None,
                     stdout=done.stdout, stderr=done.stderr, wall_ms=0.0, cpu_ms=None, truncated=False)


def failing_checks(lesson: str, lab: str, code: str, step_kind: str, tmp_path: Path) -> list[str]:
    spec = read_lab(CONTENT / lesson / "labs" / lab)
    step = next(s for s in spec["steps"] if s["kind"] == step_kind)
    if step["inject"]:
        assert code.count(step["inject"]["find"]) == 1, "the inject must match the code exactly once"
        code = code.replace(step["inject"]["find"], step["inject"]["replace"])
    checks = [c for c in spec["checks"] if c["id"] in step["checks"]]
    result = run_plain(lesson, lab, program_for_step(step, code), tmp_path)
    return [r["id"] for r in run_checks(checks, result) if not r["passed"]]


def solution(lesson: str, lab: str) -> str:
    return (CONTENT / lesson / "labs" / lab / "solution.py").read_text(encoding="utf-8")


def starter(lesson: str, lab: str) -> str:
    return (CONTENT / lesson / "labs" / lab / "starter.py").read_text(encoding="utf-8")


ASSERTS = '''    assert status not in PERSON_ONLY, (
        f"status={status!r}는 사람만 정할 수 있습니다. 모델의 JSON은 제안일 뿐 승인이 아닙니다."
    )
    assert status in MODEL_MAY_PROPOSE, f"모델이 제안할 수 있는 상태가 아닙니다: {status!r}"'''
RAISES = '''    if status in PERSON_ONLY:
        raise PermissionError(f"status={status!r}는 사람만 정할 수 있습니다.")
    if status not in MODEL_MAY_PROPOSE:
        raise PermissionError(f"모델이 제안할 수 있는 상태가 아닙니다: {status!r}")'''


@pytest.mark.parametrize("step", ["run", "inject", "restore"])
def test_approval_gate_reference_passes_each_step(step: str, tmp_path: Path) -> None:
    """The structured-output lab's reference passes run, inject and restore."""
    assert failing_checks("structured-output", "approval-gate", solution("structured-output", "approval-gate"),
                          step, tmp_path) == []


@pytest.mark.parametrize("step", ["run", "inject", "restore"])
def test_approval_gate_accepts_raise_permission_error(step: str, tmp_path: Path) -> None:
    """A learner who writes the lesson's advice (raise PermissionError, not assert) passes every step."""
    code = solution("structured-output", "approval-gate")
    assert code.count(ASSERTS) == 1
    assert failing_checks("structured-output", "approval-gate", code.replace(ASSERTS, RAISES), step, tmp_path) == []


def test_approval_gate_refuses_another_exception(tmp_path: Path) -> None:
    """A check that stops with some other exception (here KeyError) does not pass the inject step."""
    code = solution("structured-output", "approval-gate").replace(
        ASSERTS, '''    if status in PERSON_ONLY:
        raise KeyError(status)''')
    assert "refused-by-authority" in failing_checks("structured-output", "approval-gate", code, "inject", tmp_path)


def test_approval_gate_starter_fails_run(tmp_path: Path) -> None:
    """The starter (TODO empty) does not already pass the run step."""
    assert failing_checks("structured-output", "approval-gate", starter("structured-output", "approval-gate"),
                          "run", tmp_path) != []


@pytest.mark.parametrize("step", ["run", "inject", "restore"])
def test_mcp_stdio_reference_passes_each_step(step: str, tmp_path: Path) -> None:
    """The mcp-stdio lab's reference host speaks 2026-07-28 (and shows 2025) and passes every checked step."""
    assert failing_checks("mcp-stdio", "mcp-stdio", solution("mcp-stdio", "mcp-stdio"), step, tmp_path) == []


def test_mcp_stdio_host_without_meta_fails(tmp_path: Path) -> None:
    """A host that skips the per-request _meta (the 2025 habit, without a handshake) is refused by the server."""
    code = solution("mcp-stdio", "mcp-stdio")
    wrong = code.replace("        if self.meta is not None and method != \"server/discover\":",
                         "        if False:")
    assert wrong != code
    failed = failing_checks("mcp-stdio", "mcp-stdio", wrong, "run", tmp_path)
    assert "speaks-current" in failed and "exits-zero" in failed


def test_mcp_stdio_server_refuses_an_unknown_version(tmp_path: Path) -> None:
    """A request whose _meta names a version the server does not speak gets -32022 with the supported list."""
    code = solution("mcp-stdio", "mcp-stdio").replace(
        '"io.modelcontextprotocol/protocolVersion": CURRENT_VERSION,',
        '"io.modelcontextprotocol/protocolVersion": "1900-01-01",')
    result = run_plain("mcp-stdio", "mcp-stdio", code, tmp_path)
    assert result.exit_code != 0
    assert "-32022" in result.stdout + result.stderr and "2026-07-28" in result.stdout + result.stderr


def test_mcp_stdio_starter_fails_run(tmp_path: Path) -> None:
    """The starter (host allowlist TODO empty) does not already pass the run step."""
    assert "host-refused" in failing_checks("mcp-stdio", "mcp-stdio", starter("mcp-stdio", "mcp-stdio"), "run",
                                            tmp_path)


def _jittered(code: str, seed: int) -> str:
    """The delegation-guard program with random delays where thread timing could matter."""
    jitter = f"__import__('time').sleep(__import__('random').Random({seed} + threading.get_ident() % 97).random() * 0.02)"
    changes = [
        ("    def racer(n):\n        try:", f"    def racer(n):\n        {jitter}\n        try:"),
        ("        self._lock.acquire()\n", f"        {jitter}\n        self._lock.acquire()\n"),
        ("            if self.remaining <= 0:", f"            {jitter}\n            if self.remaining <= 0:"),
    ]
    for find, replace in changes:
        assert code.count(find) == 1, find
        code = code.replace(find, replace)
    return code


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_delegation_guard_race_does_not_depend_on_thread_timing(seed: int, tmp_path: Path) -> None:
    """Scene 5 gives 2/4 with the lock and 4/4 without it whatever delays the threads meet (no sleep decides it)."""
    code = solution("multi-agent-roles", "delegation-guard")
    assert "time.sleep" not in code and "Barrier" not in code
    locked = run_plain("multi-agent-roles", "delegation-guard", _jittered(code, seed), tmp_path / "locked")
    unlocked_code = code.replace("        with self.lock:", "        with contextlib.nullcontext():")
    unlocked = run_plain("multi-agent-roles", "delegation-guard", _jittered(unlocked_code, seed), tmp_path / "open")
    assert "5: 허용 2개, 남은 예산 0" in locked.stdout and locked.exit_code == 0, locked.stderr
    assert "5: 허용 4개, 남은 예산 -2" in unlocked.stdout and unlocked.exit_code != 0, unlocked.stdout


@pytest.mark.parametrize("lab", [("toy-embedding-search", "toy-embedding-search"),
                                 ("multi-agent-roles", "delegation-guard")])
def test_extend_step_catches_what_the_run_step_misses(lab: tuple[str, str], tmp_path: Path) -> None:
    """A mutant that passes the run step (a newer draft kept; a pair-only cycle rule) fails the extend step."""
    lesson, slug = lab
    code = solution(lesson, slug)
    wrong = {
        "toy-embedding-search": ('doc["version"] == CURRENT_VERSION}', 'doc["version"] >= CURRENT_VERSION}'),
        "delegation-guard": ("edge in self.path_edges(parent_id)",
                             "edge[:2] in [seen[:2] for seen in self.path_edges(parent_id)]"),
    }[slug]
    assert code.count(wrong[0]) == 1
    mutant = code.replace(*wrong)
    assert failing_checks(lesson, slug, mutant, "run", tmp_path / "run") == []
    assert "extra-cases" in failing_checks(lesson, slug, mutant, "extend", tmp_path / "extend")
    assert failing_checks(lesson, slug, code, "extend", tmp_path / "ref") == []


@pytest.mark.parametrize("delays", [(0.0, 0.2), (0.2, 0.0)])
def test_idempotent_consumer_does_not_depend_on_thread_timing(delays: tuple[float, float], tmp_path: Path) -> None:
    """Even when one concurrent consumer reads the step version 200 ms after the other (longer than a save
    takes), the reference loses one claim instead of seeing a stale version, and saves once."""
    code = solution("delivery-records", "idempotent-consumer")
    find = '        rows = self.sql("select version from step_version where step = ?", step)\n'
    assert code.count(find) == 1 and code.count("import threading\n") == 1
    code = code.replace("import threading\n", f"import threading\n\nSLOW_READS = iter({list(delays)!r})\n")
    code = code.replace(find, f"        time.sleep(next(SLOW_READS, 0.0))\n{find}")
    result = run_plain("delivery-records", "idempotent-consumer", code, tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "M-101  DUPLICATE  (claimed by another consumer)" in result.stdout
    assert "요약: 처리 2, 중복 2, 낡은 판 1, 만료 1, 포기 1, 입력 오류 1 | 부수 효과 2, 실패 보관 3" in result.stdout
