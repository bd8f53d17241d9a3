"""Seals that fail closed, from the side of someone who can edit the database but holds no seal key.

A run is sealed when it is requested; the worker verifies that seal before
running and refuses a changed row; a stripped seal, an unknown key id, or a
final seal on a run set back to queued or running reads "altered", and
``verify_records`` lists it. No test here starts a real sandbox: the runner is
replaced by a recorder, so what matters is whether the worker *would* run.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from exercises.labs import execution, records, services
from exercises.labs.models import Lab, LabRun, SealEpoch
from exercises.labs.sandbox import RunResult
from tutor import keys
from tutor.models import AuditEntry


class FakeRunner:
    """Stands in for the sandbox: records what code it was asked to run and answers "ok"."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def __call__(self, code: str, **kwargs: object) -> RunResult:
        self.ran.append(code)
        return RunResult("ok", 0, None, "실행함\n", "", 12.0, 3.0, False, accounting="test", basis="exit status")


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> FakeRunner:
    fake = FakeRunner()
    monkeypatch.setattr(execution, "run_python", fake)
    monkeypatch.setattr(services, "ensure_sandbox_healthy", lambda: None)
    monkeypatch.setattr(execution, "interpreter", lambda python: type("I", (), {"version": "3.11"})())
    return fake


@pytest.fixture
def queued(learner: User, course, runner: FakeRunner, django_capture_on_commit_callbacks) -> LabRun:
    lab = Lab.objects.get(slug="replay-retry")
    with django_capture_on_commit_callbacks(execute=False):
        run = services.request_run(user=learner, lab=lab, code="print('내 코드')", step="run", idempotency_key="q")
    return LabRun.objects.get(pk=run.pk)


@pytest.fixture
def finished(queued: LabRun, runner: FakeRunner) -> LabRun:
    execution.execute_run(run_id=queued.pk)
    run = LabRun.objects.get(pk=queued.pk)
    assert run.status == LabRun.Status.OK and records.check_seal(run).verified
    runner.ran.clear()
    return run


def verify_records_output() -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("verify_records", stdout=out)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


def test_a_run_is_sealed_when_requested_over_its_code_and_inputs(queued: LabRun) -> None:
    """The request seal exists before any worker sees the row, and covers code, input and limits."""
    assert queued.seal and queued.seal_key_id == keys.current_key().key_id
    assert {"code", "code_digest", "stdin", "fixture_versions", "limits", "user_id", "lab_id"} <= set(queued.seal_digests)
    assert records.check_seal(queued).state == "pending"


def test_the_worker_refuses_a_queued_run_whose_code_was_changed_in_the_database(
    queued: LabRun, runner: FakeRunner
) -> None:
    """Code swapped in by SQL before the worker claims it is never run, and the row is left as evidence."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {LabRun._meta.db_table} SET code = %s WHERE id = %s",
                       ["import os; print(os.environ)", queued.pk])
    execution.execute_run(run_id=queued.pk)
    assert runner.ran == [], "the changed code did not run"
    run = LabRun.objects.get(pk=queued.pk)
    assert run.status == LabRun.Status.QUEUED and run.seal == queued.seal, "not claimed, not sealed again"
    check = records.check_seal(run)
    assert check.state == "changed" and check.changed == ["code"]
    assert AuditEntry.objects.filter(action="lab_run.refused_altered", target_id=str(run.pk)).exists()
    ok, out = verify_records_output()
    assert not ok and f"run {run.pk}" in out, "verify_records lists an in-flight row that does not match"


def test_the_worker_runs_an_untouched_queued_run(queued: LabRun, runner: FakeRunner) -> None:
    """The negative case: the same path runs a row that still matches its request seal."""
    execution.execute_run(run_id=queued.pk)
    assert runner.ran == ["print('내 코드')"]
    assert records.check_seal(LabRun.objects.get(pk=queued.pk)).verified


def test_a_queued_run_with_its_seal_stripped_is_not_run(queued: LabRun, runner: FakeRunner) -> None:
    LabRun.objects.filter(pk=queued.pk).update(seal="", seal_key_id="", seal_digests={})
    execution.execute_run(run_id=queued.pk)
    assert runner.ran == []
    check = records.check_seal(LabRun.objects.get(pk=queued.pk))
    assert check.state == "altered" and check.why == "missing"


@pytest.mark.parametrize("status", [LabRun.Status.QUEUED, LabRun.Status.RUNNING])
def test_a_finished_run_set_back_reads_altered_and_is_not_run_or_sealed_again(
    finished: LabRun, runner: FakeRunner, status: str
) -> None:
    """Status set back to queued or running by SQL: never "봉인 전", never re-run, never re-sealed."""
    LabRun.objects.filter(pk=finished.pk).update(status=status)
    run = LabRun.objects.get(pk=finished.pk)
    check = records.check_seal(run)
    assert check.state == "altered" and check.why == "reopened" and "봉인 전" not in check.message

    execution.execute_run(run_id=run.pk)
    # A run set back to "running" whose worker is gone is what settle_stale_runs would have re-queued.
    LabRun.objects.filter(pk=run.pk, status=LabRun.Status.RUNNING).update(worker="gone-host:1")
    services.settle_stale_runs(now=run.finished_at.replace(year=run.finished_at.year + 1))
    execution.fail_run(run_id=run.pk, reason="워커 멈춤")
    after = LabRun.objects.get(pk=run.pk)
    assert runner.ran == [], "not run again"
    assert (after.seal, after.status, after.created_at, after.attempts) == (finished.seal, status,
                                                                          finished.created_at, finished.attempts)
    ok, out = verify_records_output()
    assert not ok and f"run {run.pk}" in out and "altered" in out, "verify_records does not skip it"


def test_a_stripped_seal_on_a_finished_run_reads_altered_not_before_keyed_seals(finished: LabRun) -> None:
    LabRun.objects.filter(pk=finished.pk).update(seal="", seal_key_id="", seal_digests={})
    check = records.check_seal(LabRun.objects.get(pk=finished.pk))
    assert check.state == "altered" and "키 봉인 이전 형식" not in check.message
    ok, out = verify_records_output()
    assert not ok and f"run {finished.pk}" in out


def test_an_unknown_key_id_reads_altered_not_rotated(finished: LabRun) -> None:
    LabRun.objects.filter(pk=finished.pk).update(seal_key_id="s20990101-made")
    check = records.check_seal(LabRun.objects.get(pk=finished.pk))
    assert check.state == "altered" and check.why == "unknown_key" and "s20990101-made" in check.message
    assert not verify_records_output()[0]


def test_a_request_seal_left_on_a_finished_run_reads_altered(queued: LabRun) -> None:
    """Marking a queued run finished by SQL (with made-up output) cannot borrow its request seal."""
    LabRun.objects.filter(pk=queued.pk).update(status=LabRun.Status.OK, stdout="모두 통과\n")
    check = records.check_seal(LabRun.objects.get(pk=queued.pk))
    assert check.state == "altered" and check.why == "unfinished"


def test_the_start_of_keyed_seals_cannot_be_moved_by_a_database_edit(finished: LabRun) -> None:
    """Raising the marker so a stripped run looks older than keyed seals fails closed."""
    key = keys.current_key()
    SealEpoch.objects.update_or_create(pk=1, defaults={"last_unkeyed_run_id": 0, "key_id": key.key_id,
                                                       "seal": records.epoch_seal(0, key)})
    LabRun.objects.filter(pk=finished.pk).update(seal="", seal_key_id="", seal_digests={})
    SealEpoch.objects.filter(pk=1).update(last_unkeyed_run_id=finished.pk + 10)
    assert records.check_seal(LabRun.objects.get(pk=finished.pk)).state == "altered"
    SealEpoch.objects.all().delete()
    assert records.check_seal(LabRun.objects.get(pk=finished.pk)).state == "altered"


def test_rotation_still_verifies_and_reseals_runs_in_flight_and_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings, queued: LabRun, runner: FakeRunner,
    learner: User, django_capture_on_commit_callbacks,
) -> None:
    """Legitimate rotation: a run requested under the old key still runs, and --reseal moves every
    finished run that verifies (and the start marker) to the new key."""
    monkeypatch.delenv("SEAL_KEYS", raising=False)
    path = tmp_path / "seal_keys"
    keys.write_seal_key_file(path, tuple(settings.SEAL_KEYS))
    settings.SEAL_KEYS_FILE = path
    key = keys.current_key()
    SealEpoch.objects.update_or_create(pk=1, defaults={"last_unkeyed_run_id": 0, "key_id": key.key_id,
                                                       "seal": records.epoch_seal(0, key)})
    call_command("rotate_seal_key", stdout=StringIO())
    settings.SEAL_KEYS = keys.parse_seal_keys(path.read_text())
    assert records.check_seal(LabRun.objects.get(pk=queued.pk)).state == "pending"
    execution.execute_run(run_id=queued.pk)
    assert runner.ran == ["print('내 코드')"]
    run = LabRun.objects.get(pk=queued.pk)
    assert run.seal_key_id == settings.SEAL_KEYS[0].key_id and records.check_seal(run).verified
    # As if it had finished before the rotation: its final seal made with the old key.
    LabRun.objects.filter(pk=run.pk).update(
        seal_key_id=key.key_id, seal=key.mac(records._seal_message(run.pk, key.key_id, run.seal_digests)))
    assert records.check_seal(LabRun.objects.get(pk=run.pk)).verified
    call_command("verify_records", "--reseal", stdout=StringIO())
    assert LabRun.objects.get(pk=run.pk).seal_key_id == settings.SEAL_KEYS[0].key_id
    assert SealEpoch.objects.get(pk=1).key_id == settings.SEAL_KEYS[0].key_id
    assert records.last_unkeyed_run_id() == 0 and records.check_seal(LabRun.objects.get(pk=run.pk)).verified
