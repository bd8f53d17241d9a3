"""Seal keys: made once into a private file like the secret key, read from SEAL_KEYS first, never
SECRET_KEY, and rotatable without breaking what older keys sealed."""

from __future__ import annotations

import stat
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from tutor import keys
from tutor.checks import check_seal_keys


def test_keys_are_created_once_into_a_private_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEAL_KEYS", raising=False)
    path = tmp_path / "var" / "seal_keys"
    first = keys.load_or_create_seal_keys(path)
    assert len(first) == 1 and len(first[0].secret) >= 48 and keys.KEY_ID.match(first[0].key_id)
    assert keys.load_or_create_seal_keys(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_keys_come_from_the_environment_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEAL_KEYS", "new:" + "n" * 40 + ",old:" + "o" * 40)
    loaded = keys.load_or_create_seal_keys(tmp_path / "seal_keys")
    assert [key.key_id for key in loaded] == ["new", "old"] and not (tmp_path / "seal_keys").exists()


@pytest.mark.parametrize("text", ["", "nocolon", "id:short", "a:" + "x" * 40 + ",a:" + "y" * 40, "bad id!:" + "x" * 40])
def test_unusable_keys_are_refused(text: str) -> None:
    with pytest.raises(keys.SealKeyError):
        keys.parse_seal_keys(text)


def test_a_seal_key_equal_to_secret_key_is_a_system_check_error(settings) -> None:
    with override_settings(SEAL_KEYS=(keys.SealKey("same", settings.SECRET_KEY),)):
        assert [error.id for error in check_seal_keys(None)] == ["tutor.E003"]
    assert check_seal_keys(None) == []


def test_rotation_keeps_old_keys_and_reseals_only_what_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings, learner, course, django_capture_on_commit_callbacks
) -> None:
    from exercises.labs import execution, records, services
    from exercises.labs.models import Lab, LabRun

    monkeypatch.delenv("SEAL_KEYS", raising=False)
    path = tmp_path / "seal_keys"
    keys.write_seal_key_file(path, tuple(settings.SEAL_KEYS))
    settings.SEAL_KEYS_FILE = path
    lab = Lab.objects.get(slug="replay-retry")
    runs = []
    for key in ("a", "b"):
        with django_capture_on_commit_callbacks(execute=False):
            run = services.request_run(user=learner, lab=lab, code=f"print('{key}')", step="run", idempotency_key=key)
        execution.execute_run(run_id=run.pk)
        runs.append(run.pk)
    LabRun.objects.filter(pk=runs[1]).update(stdout="바꿈\n")
    old_id = settings.SEAL_KEYS[0].key_id

    call_command("rotate_seal_key", stdout=StringIO())
    rotated = keys.parse_seal_keys(path.read_text())
    assert len(rotated) == len(settings.SEAL_KEYS) + 1 and rotated[1].key_id == old_id
    settings.SEAL_KEYS = rotated
    out = StringIO()
    with pytest.raises(CommandError, match="봉인이 맞지 않는 기록 1건"):
        call_command("verify_records", "--reseal", stdout=out)
    good, bad = LabRun.objects.get(pk=runs[0]), LabRun.objects.get(pk=runs[1])
    assert good.seal_key_id == rotated[0].key_id and records.check_seal(good).verified
    assert bad.seal_key_id == old_id and not records.check_seal(bad).verified
    assert f"run {bad.pk}" in out.getvalue() and f"run {good.pk}" not in out.getvalue()
