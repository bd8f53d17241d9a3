"""Settings and checks: generated secret, deploy check clean, CSP with no inline or eval."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tutor.checks import check_csp
from tutor.settings.base import load_or_create_secret_key

ROOT = Path(settings.BASE_DIR)


def test_secret_key_is_generated_once_into_a_private_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    path = tmp_path / "var" / "secret_key"
    first = load_or_create_secret_key(path)
    assert len(first) >= 50 and load_or_create_secret_key(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_secret_key_comes_from_the_environment_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert load_or_create_secret_key(tmp_path / "secret_key") == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_production_deploy_check_prints_no_warnings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tutor.settings.production",
        "SECRET_KEY": "a-long-random-secret-for-the-check-only-" + os.urandom(16).hex(),
        "SEAL_KEYS": "check:" + os.urandom(24).hex(),
        "ALLOWED_HOSTS": "tutor.example",
        "EMAIL_HOST": "smtp.tutor.example",
        "TUTOR_VAR_DIR": str(tmp_path),
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_have_debug_off_and_no_demo_accounts() -> None:
    source = (ROOT / "tutor" / "settings" / "production.py").read_text()
    assert "DEBUG = False" in source and "DEMO_ACCOUNTS_ALLOWED = False" in source


@pytest.mark.django_db
def test_pages_send_a_csp_without_unsafe_inline_or_eval(client: Client) -> None:
    header = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in header and "style-src 'self'" in header
    assert "unsafe-inline" not in header and "unsafe-eval" not in header


@pytest.mark.django_db
def test_pages_carry_no_inline_script_or_style(client: Client) -> None:
    page = client.get("/").content.decode()
    assert "<script>" not in page and " style=" not in page and "<style" not in page
    assert " onclick=" not in page and "hx-on" not in page


def test_system_check_refuses_a_csp_with_unsafe_inline() -> None:
    policy = {"DIRECTIVES": {"script-src": ["'self'", "'unsafe-inline'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert [error.id for error in check_csp(None)] == ["tutor.E001"]
    assert check_csp(None) == []


def test_production_deploy_check_warns_when_no_mail_server_is_set() -> None:
    """Without EMAIL_HOST a deployment would write resets and invitations to files: check --deploy says so."""
    from django.test import override_settings

    from tutor.checks import check_mail_server

    with override_settings(EMAIL_HOST=""):
        assert [m.id for m in check_mail_server(None)] == ["tutor.W004"]
    with override_settings(EMAIL_HOST="smtp.tutor.example"):
        assert check_mail_server(None) == []
