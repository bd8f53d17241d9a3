"""A worker starting on a host that passed the sandbox self-test minutes ago starts on that pass, sealed and bound
to the host's boot, configuration and binaries; anything odd about the kept pass runs the test again."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from exercises.labs import execution
from exercises.labs.models import SandboxHealth

pytestmark = pytest.mark.django_db


@dataclass
class Verdict:
    name: str
    passed: bool = True
    contained: bool = True
    status: str = "killed"
    note: str = ""
    accepted_risk: bool = False


@pytest.fixture
def var_dir(tmp_path: Path, settings) -> Path:
    settings.VAR_DIR = tmp_path
    settings.LAB_SELFTEST_REUSE_SECONDS = 600
    return tmp_path


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the times the catalogue is run; each run passes (the real catalogue is tested in its own tests)."""
    calls: list[int] = []

    def run_selftest(config: object, warm: int = 0) -> list[Verdict]:
        calls.append(warm)
        return [Verdict("fork_bomb"), Verdict("cpu_loop")]

    monkeypatch.setattr(execution, "run_selftest", run_selftest)
    return calls


def test_a_real_pass_is_kept_sealed_and_the_next_start_reuses_it(var_dir: Path) -> None:
    """The real self-test passes and keeps its verdict (mode 600, sealed); a worker starting next stores the same
    verdict as its own with ``reused_from`` set, and runs nothing."""
    first = execution.record_sandbox_health(warm=0)
    assert first.ok and first.reused_from is None
    record = var_dir / "sandbox-selftest.json"
    assert record.stat().st_mode & 0o777 == 0o600 and json.loads(record.read_text())["mac"]
    second = execution.record_sandbox_health(warm=0, reuse=True)
    assert second.ok and second.reused_from == first.checked_at and second.detail == first.detail
    assert second.pk != first.pk and SandboxHealth.objects.count() == 2


def test_without_reuse_or_with_another_basis_the_test_runs(var_dir: Path, runs: list[int], settings) -> None:
    """A start without ``reuse``, another pool size, another sandbox configuration: each runs the catalogue."""
    execution.record_sandbox_health(warm=1)
    execution.record_sandbox_health(warm=1)  # no reuse asked
    execution.record_sandbox_health(warm=0, reuse=True)  # another pool size
    settings.LAB_SANDBOX_SLOTS = settings.LAB_SANDBOX_SLOTS + 1
    execution.record_sandbox_health(warm=0, reuse=True)  # another configuration
    assert len(runs) == 4
    execution.record_sandbox_health(warm=0, reuse=True)
    assert len(runs) == 4, "the same basis again is reused"


@pytest.mark.parametrize("alteration", ["detail", "mac", "key", "basis", "garbage", "missing", "old", "failed"])
def test_an_odd_kept_pass_runs_the_test_again(var_dir: Path, runs: list[int], alteration: str, settings) -> None:
    """Fail closed: a kept pass whose detail or seal was changed, sealed with a key no longer configured, made for
    another basis, unreadable, missing, older than the window, or holding an uncontained case is not reused."""
    execution.record_sandbox_health(warm=0)
    record = var_dir / "sandbox-selftest.json"
    data = json.loads(record.read_text())
    if alteration == "detail":
        data["detail"].append({"name": "extra", "contained": True})
    elif alteration == "mac":
        data["mac"] = "0" * 64
    elif alteration == "key":
        data["key"] = "gone"
    elif alteration == "basis":
        data["basis"] = "another host"
    elif alteration == "old":
        settings.LAB_SELFTEST_REUSE_SECONDS = 60
        data["passed_at"] = (timezone.now() - timedelta(seconds=61)).isoformat()
    elif alteration == "failed":
        data["detail"][0]["contained"] = False
    record.write_text("{not json" if alteration == "garbage" else json.dumps(data))
    if alteration == "missing":
        record.unlink()
    if alteration in ("old", "failed"):  # sealed again, so only the age or the case itself stands in the way
        body = {name: data[name] for name in ("basis", "passed_at", "interpreter", "enforcement", "detail")}
        from tutor import keys

        data["mac"] = keys.key_for(data["key"]).mac(keys.canonical(body))
        record.write_text(json.dumps(data))
    health = execution.record_sandbox_health(warm=0, reuse=True)
    assert len(runs) == 2 and health.reused_from is None


def test_a_failed_test_removes_the_kept_pass_and_a_window_of_zero_never_reuses(
        var_dir: Path, monkeypatch: pytest.MonkeyPatch, settings) -> None:
    """After a failing self-test the next start runs the test again; with the window at 0 every start runs it."""
    verdicts = [[Verdict("fork_bomb")], [Verdict("fork_bomb", passed=False, contained=False)], [Verdict("fork_bomb")]]
    monkeypatch.setattr(execution, "run_selftest", lambda config, warm=0: verdicts.pop(0))
    execution.record_sandbox_health(warm=0)
    assert not execution.record_sandbox_health(warm=0).ok
    assert not (var_dir / "sandbox-selftest.json").exists()
    assert execution.record_sandbox_health(warm=0, reuse=True).reused_from is None and not verdicts
    settings.LAB_SELFTEST_REUSE_SECONDS = 0
    monkeypatch.setattr(execution, "run_selftest", lambda config, warm=0: [Verdict("fork_bomb")])
    assert execution.record_sandbox_health(warm=0, reuse=True).reused_from is None


def test_a_var_folder_that_cannot_be_written_keeps_nothing_and_stops_nothing(
        tmp_path: Path, runs: list[int], settings) -> None:
    """Where the pass cannot be kept, the worker still records its verdict and starts; the next one runs the test."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    settings.VAR_DIR = blocked
    assert execution.record_sandbox_health(warm=0).ok
    assert execution.record_sandbox_health(warm=0, reuse=True).reused_from is None and len(runs) == 2
