"""Sign-in and sign-out in Korean, throttled guessing, personal tokens, demo accounts."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings

from tests.conftest import PASSWORD, signed_in
from tutor.access import is_fixture_admin, is_instructor
from tutor.models import ApiToken, Cohort, members_of

pytestmark = pytest.mark.django_db


def sign_in(client: Client, username: str, password: str):
    return client.post("/account/sign-in/", {"username": username, "password": password})


def test_sign_in_page_is_korean_and_signs_in(client: Client, learner: User) -> None:
    page = client.get("/account/sign-in/").content.decode()
    assert "아이디" in page and "비밀번호" in page
    response = sign_in(client, "learner", PASSWORD)
    assert response.status_code == 302
    assert client.get("/me/progress/").status_code == 200


def test_wrong_password_says_so_in_korean(client: Client, learner: User) -> None:
    response = sign_in(client, "learner", "nope")
    assert response.status_code == 200
    assert "아이디 또는 비밀번호가 맞지 않습니다" in response.content.decode()


@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_repeated_failures_throttle_even_the_right_password(client: Client, learner: User) -> None:
    for _ in range(3):
        sign_in(client, "learner", "guess")
    response = sign_in(client, "learner", PASSWORD)
    assert "여러 번 실패" in response.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_throttle_is_per_username(client: Client, learner: User, other_learner: User) -> None:
    for _ in range(3):
        sign_in(client, "learner", "guess")
    assert sign_in(client, "other", PASSWORD).status_code == 302


def test_sign_out_is_a_post(client: Client, learner: User) -> None:
    client.force_login(learner)
    assert client.get("/account/sign-out/").status_code == 405
    response = client.post("/account/sign-out/")
    assert response.status_code == 200 and "로그아웃했습니다" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_token_page_shows_the_secret_once_and_stores_only_a_digest(learner: User) -> None:
    client = signed_in(learner)
    page = client.post("/account/api-tokens/", {"name": "노트북"}).content.decode()
    token = ApiToken.objects.get(user=learner)
    secret = page.split('<code class="secret">')[1].split("<")[0]
    assert secret.startswith("gt_") and secret not in token.digest
    assert secret not in client.get("/account/api-tokens/").content.decode()


def test_a_learner_cannot_revoke_someone_elses_token(learner: User, other_learner: User) -> None:
    client = signed_in(learner)
    client.post("/account/api-tokens/", {"name": "내 것"})
    token = ApiToken.objects.get(user=learner)
    response = signed_in(other_learner).post(f"/account/api-tokens/{token.pk}/revoke/")
    assert response.status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_demo_accounts_get_generated_passwords_and_roles(tmp_path: Path, settings) -> None:
    settings.VAR_DIR = tmp_path
    call_command("create_demo_accounts")
    lines = [line.split() for line in (tmp_path / "demo-accounts.txt").read_text().splitlines() if not line.startswith("#")]
    assert {username for _, username, _ in lines} == {"instructor", "learner1", "learner2", "fixture_admin"}
    assert stat.S_IMODE((tmp_path / "demo-accounts.txt").stat().st_mode) == 0o600
    passwords = {password for _, _, password in lines}
    assert len(passwords) == 4 and all(len(p) >= 16 for p in passwords)
    for _, username, password in lines:
        assert Client().post("/account/sign-in/", {"username": username, "password": password}).status_code == 302
    cohort = Cohort.objects.get()
    assert is_instructor(members_of(cohort, "instructor").get()) and members_of(cohort).count() == 2
    assert is_fixture_admin(User.objects.get(username="fixture_admin"))
    call_command("create_demo_accounts", "--if-absent")  # idempotent
    assert User.objects.count() == 4
    with pytest.raises(CommandError):
        call_command("create_demo_accounts")


def test_demo_accounts_are_refused_in_production_settings(settings) -> None:
    settings.DEMO_ACCOUNTS_ALLOWED = False
    with pytest.raises(CommandError, match="운영"):
        call_command("create_demo_accounts")
    assert not User.objects.exists()
