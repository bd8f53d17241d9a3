"""Tamper tests for sealed run records: every sealed field changed in the database stops verifying,
a seal recomputed without the key is caught, keys rotate, and the seal shows in pages and the API."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from exercises.labs import execution, records, services
from exercises.labs.models import Lab, LabRun, SealEpoch
from tests.conftest import signed_in
from tutor import keys


@pytest.fixture
def sealed_run(learner: User, replay_lab: Lab, django_capture_on_commit_callbacks) -> LabRun:
    with django_capture_on_commit_callbacks(execute=False):
        run = services.request_run(user=learner, lab=replay_lab, code=replay_lab.solution_code, step="run",
                                   idempotency_key="sealed", prediction="시도 3번에 끝날 것")
    execution.execute_run(run_id=run.pk)
    run = LabRun.objects.select_related("lab").get(pk=run.pk)
    assert run.status == LabRun.Status.OK, run.stderr
    return run


def tampered(name: str, value: Any, run: LabRun, other_user: User) -> Any:
    """A different value of the same type for ``name``, as a careless admin or a script would write it."""
    if name == "code_digest":
        return "0" * 64
    if name == "user_id":
        return other_user.pk
    if name == "purpose":
        return "reproduction" if value != "reproduction" else "practice"
    if name == "lab_id":
        return Lab.objects.exclude(pk=value).values_list("pk", flat=True).first()
    if isinstance(value, bool):
        return not value
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, int):
        return value + 1
    if value is None:
        return 7
    if isinstance(value, str):
        return value + " (고침)" if name not in {"status", "step"} else ("error" if name == "status" else "inject")
    if isinstance(value, dict):
        return {**value, "added": {"number": 9}}
    if isinstance(value, list):
        return [{**item, "passed": not item["passed"]} for item in value] if value else [{"id": "x"}]
    raise AssertionError(f"no tampered value for {name}")


def test_a_finished_run_is_sealed_with_the_current_key_and_verifies(sealed_run: LabRun) -> None:
    check = records.check_seal(sealed_run)
    assert check.state == "verified", check.message
    assert sealed_run.seal_key_id == keys.current_key().key_id and len(sealed_run.seal) == 64
    assert set(sealed_run.seal_digests) == set(records.SEALED_FIELDS)
    assert {"code", "prediction", "stdin", "files", "fixture_versions", "limits", "interpreter", "stdout",
            "stderr", "wall_ms", "cpu_ms", "status", "check_results"} <= set(records.SEALED_FIELDS)
    assert sealed_run.files == {}, "this lab binds no files, and the record says so"


def test_the_files_bound_are_the_fixture_versions_recorded_at_request(
    learner: User, fixture_admin: User, course, django_capture_on_commit_callbacks
) -> None:
    """A fixture edited between request and execution does not change what the run was given."""
    import hashlib

    from lessons.services import create_fixture_version

    lab = Lab.objects.get(slug="approval-gate")
    fixture = lab.fixtures.get()
    with django_capture_on_commit_callbacks(execute=False):
        run = services.request_run(user=learner, lab=lab, code="print(open('refund-policy.txt').read()[:20])",
                                   step="run", idempotency_key="f")
    recorded = fixture.current_version
    create_fixture_version(fixture=fixture, text=recorded.text + "\n새 줄", origin="admin", actor=fixture_admin,
                           reason="시험")
    execution.execute_run(run_id=run.pk)
    run.refresh_from_db()
    assert run.fixture_versions["refund-policy"]["number"] == recorded.number
    assert run.files == {"refund-policy.txt": hashlib.sha256(recorded.text.encode()).hexdigest()}
    assert run.stdout == recorded.text[:20] + "\n" and records.check_seal(run).verified


@pytest.mark.parametrize("name", list(records.SEALED_FIELDS))
def test_each_sealed_field_changed_in_the_database_no_longer_verifies(
    name: str, sealed_run: LabRun, other_learner: User
) -> None:
    new_value = tampered(name, getattr(sealed_run, name), sealed_run, other_learner)
    LabRun.objects.filter(pk=sealed_run.pk).update(**{name: new_value})
    run = LabRun.objects.get(pk=sealed_run.pk)
    assert getattr(run, name) != getattr(sealed_run, name)
    check = records.check_seal(run)
    assert check.state == "changed" and not check.verified
    assert check.changed == [name], "the seal names the field that changed"


def test_raw_sql_changes_to_code_or_output_are_caught(sealed_run: LabRun) -> None:
    table = LabRun._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET code = %s, stdout = %s WHERE id = %s",
                       ["print('한 번도 돌지 않은 코드')", "모두 통과\n", sealed_run.pk])
    check = records.check_seal(LabRun.objects.get(pk=sealed_run.pk))
    assert check.state == "changed" and check.changed == ["code", "stdout"]


def test_digests_recomputed_without_the_key_are_a_forged_seal(sealed_run: LabRun) -> None:
    sealed_run.stdout = "위조한 출력\n"
    LabRun.objects.filter(pk=sealed_run.pk).update(stdout=sealed_run.stdout, seal_digests=records.field_digests(sealed_run))
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "forged"

    # A full reseal with a key the site does not hold is forged too.
    stranger = keys.SealKey(sealed_run.seal_key_id, "s" * 48)
    forged = stranger.mac(records._seal_message(sealed_run.pk, stranger.key_id, records.field_digests(sealed_run)))
    LabRun.objects.filter(pk=sealed_run.pk).update(seal=forged)
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "forged"


def test_a_seal_copied_onto_another_run_does_not_verify(sealed_run: LabRun, learner: User, replay_lab: Lab,
                                                        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        other = services.request_run(user=learner, lab=replay_lab, code="print(1)", step="run", idempotency_key="b")
    execution.execute_run(run_id=other.pk)
    fields = {name: getattr(sealed_run, name) for name in records.SEALED_FIELDS}
    LabRun.objects.filter(pk=other.pk).update(**fields, seal=sealed_run.seal, seal_digests=sealed_run.seal_digests,
                                              seal_key_id=sealed_run.seal_key_id)
    assert records.check_seal(LabRun.objects.get(pk=other.pk)).state == "forged"


def test_old_seals_verify_after_rotation_and_a_dropped_key_is_named(sealed_run: LabRun, settings) -> None:
    old = tuple(settings.SEAL_KEYS)
    fresh = keys.new_seal_key(taken=old)
    with override_settings(SEAL_KEYS=(fresh, *old)):
        assert records.check_seal(sealed_run).verified, "the old key still verifies what it sealed"
        records.seal(sealed_run)
        assert sealed_run.seal_key_id == fresh.key_id and records.check_seal(sealed_run).verified
    with override_settings(SEAL_KEYS=old):
        check = records.check_seal(sealed_run)
        assert check.state == "altered" and check.why == "unknown_key" and fresh.key_id in check.message


def test_an_unfinished_or_unsealed_run_never_says_verified(sealed_run: LabRun) -> None:
    """A seal stripped, or the status set back, reads altered; only rows before keyed seals read unsealed."""
    LabRun.objects.filter(pk=sealed_run.pk).update(seal="", seal_key_id="")
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "altered"
    LabRun.objects.filter(pk=sealed_run.pk).update(status=LabRun.Status.RUNNING)
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "altered"
    SealEpoch.objects.update_or_create(pk=1, defaults={
        "last_unkeyed_run_id": sealed_run.pk, "key_id": keys.current_key().key_id,
        "seal": records.epoch_seal(sealed_run.pk, keys.current_key())})
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "pending", "a row before keyed seals"
    LabRun.objects.filter(pk=sealed_run.pk).update(status=LabRun.Status.OK)
    assert records.check_seal(LabRun.objects.get(pk=sealed_run.pk)).state == "unsealed"


def test_the_run_page_and_api_show_the_seal_what_it_covers_and_whether_it_verifies(
    sealed_run: LabRun, learner: User
) -> None:
    client = signed_in(learner)
    page = client.get(reverse("labs:run", args=[sealed_run.pk])).content.decode()
    assert "봉인 확인됨" in page and sealed_run.seal in page and sealed_run.seal_key_id in page
    assert "실행 전 예측" in page and "표준 출력" in page and "시도 3번에 끝날 것" in page
    body = client.get(f"/api/labs/runs/{sealed_run.pk}").json()
    assert body["seal"]["verified"] is True and body["seal"]["state"] == "verified"
    assert body["seal"]["algorithm"] == "HMAC-SHA256" and "code" in body["seal"]["covers"]
    assert body["record_verifies"] is True

    LabRun.objects.filter(pk=sealed_run.pk).update(code="print('바꿔 치기')")
    page = client.get(reverse("labs:run", args=[sealed_run.pk])).content.decode()
    assert "봉인과 맞지 않음" in page and "봉인 확인됨" not in page
    body = client.get(f"/api/labs/runs/{sealed_run.pk}").json()
    assert body["seal"]["verified"] is False and body["seal"]["changed"] == ["code"]


def test_the_admin_run_list_says_whether_each_seal_verifies(sealed_run: LabRun) -> None:
    admin = User.objects.create_superuser("root", password="x-very-long-password")
    LabRun.objects.filter(pk=sealed_run.pk).update(stderr="끼워 넣은 오류")
    page = signed_in(admin).get("/admin/labs/labrun/").content.decode()
    assert "봉인과 맞지 않음" in page and "표준 오류" in page


def test_every_run_field_is_either_sealed_or_named_as_not_sealed() -> None:
    """A field added to LabRun later must be put under the seal or listed as outside it, on purpose."""
    columns = {field.attname for field in LabRun._meta.concrete_fields}
    seal_itself = {"id", "seal", "seal_key_id", "seal_digests"}  # the run id is inside the sealed message
    assert columns == set(records.SEALED_FIELDS) | set(records.NOT_SEALED) | seal_itself
