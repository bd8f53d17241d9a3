"""Sign-in throttling: every entry point, keyed by account and address, back-off, atomic counting."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from django.utils import timezone

from tests.conftest import PASSWORD
from tutor import throttle
from tutor.models import SignInThrottle

pytestmark = pytest.mark.django_db

OWNER_ADDRESS = "203.0.113.10"
GUESSER_ADDRESS = "198.51.100.7"


def sign_in(client: Client, username: str, password: str, *, address: str = "127.0.0.1", url: str = "/account/sign-in/", **extra: str):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


def wait_out_back_off() -> None:
    """Stand in for waiting: every key's next allowed attempt moves into the past."""
    SignInThrottle.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))


@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_admin_sign_in_is_throttled_like_the_site(client: Client, learner: User) -> None:
    """Wrong passwords at /admin/login/ count: the right one is then refused until the back-off passes."""
    learner.is_staff = True
    learner.save()
    for _ in range(3):
        sign_in(client, "learner", "guess", url="/admin/login/")
    response = sign_in(client, "learner", PASSWORD, url="/admin/login/")
    assert "여러 번 실패" in response.content.decode()
    assert "_auth_user_id" not in client.session
    wait_out_back_off()
    assert sign_in(client, "learner", PASSWORD, url="/admin/login/").status_code == 302
    assert "_auth_user_id" in client.session


@override_settings(SIGN_IN_MAX_FAILURES=3, SIGN_IN_BACKOFF_SECONDS=2)
def test_the_wait_doubles_and_then_the_owner_signs_in(client: Client, learner: User) -> None:
    """Back-off, not lock-out: each failure past the allowance doubles the wait, and waiting it out works."""
    for _ in range(3):
        sign_in(client, "learner", "guess")
    row = SignInThrottle.objects.get(key=f"pair:learner|{'127.0.0.1'}")
    first_wait = (row.next_attempt_at - row.last_failure_at).total_seconds()
    wait_out_back_off()
    sign_in(client, "learner", "guess")
    row.refresh_from_db()
    assert (row.next_attempt_at - row.last_failure_at).total_seconds() == pytest.approx(2 * first_wait)
    wait_out_back_off()
    assert sign_in(client, "learner", PASSWORD).status_code == 302
    assert not SignInThrottle.objects.filter(key__startswith="pair:learner").exists()


@override_settings(SIGN_IN_MAX_FAILURES=3, SIGN_IN_MAX_BACKOFF_SECONDS=900)
def test_a_guesser_elsewhere_never_keeps_the_owner_out(learner: User) -> None:
    """The owner, at an address they signed in from before, is not slowed by a guesser's failures."""
    owner, guesser = Client(), Client()
    assert sign_in(owner, "learner", PASSWORD, address=OWNER_ADDRESS).status_code == 302
    owner.post("/account/sign-out/")
    for _ in range(30):
        wait_out_back_off()
        sign_in(guesser, "learner", "guess", address=GUESSER_ADDRESS)
    assert SignInThrottle.objects.get(key="account:learner").failures == 30
    assert "여러 번 실패" in sign_in(guesser, "learner", PASSWORD, address=GUESSER_ADDRESS).content.decode()
    assert sign_in(owner, "learner", PASSWORD, address=OWNER_ADDRESS).status_code == 302


@override_settings(SIGN_IN_MAX_FAILURES=2, SIGN_IN_MAX_BACKOFF_SECONDS=900)
def test_the_account_wide_wait_for_a_new_address_is_capped(client: Client, learner: User) -> None:
    """From a new address the account-wide back-off applies, but never longer than five minutes."""
    for n in range(12):
        sign_in(client, "learner", "guess", address=f"198.51.100.{n + 1}")
    response = sign_in(client, "learner", PASSWORD, address="192.0.2.99")
    assert response.status_code == 200 and "여러 번 실패" in response.content.decode()
    account = SignInThrottle.objects.get(key="account:learner")
    assert (account.next_attempt_at - timezone.now()).total_seconds() <= throttle.ACCOUNT_WIDE_MAX_BACKOFF


@override_settings(SIGN_IN_MAX_FAILURES=1)
def test_one_address_trying_many_accounts_backs_off_but_other_addresses_do_not(
    client: Client, learner: User, other_learner: User
) -> None:
    """The address key slows one address guessing across accounts; a learner elsewhere is untouched."""
    for n in range(20):
        sign_in(client, f"nobody{n}", "guess", address=GUESSER_ADDRESS)
    assert "여러 번 실패" in sign_in(client, "other", PASSWORD, address=GUESSER_ADDRESS).content.decode()
    assert sign_in(Client(), "other", PASSWORD, address=OWNER_ADDRESS).status_code == 302


@override_settings(SIGN_IN_MAX_FAILURES=3, CLIENT_ADDRESS_HEADER="HTTP_X_FORWARDED_FOR", TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_the_client_address_comes_from_the_trusted_header(learner: User) -> None:
    """Behind one proxy, learners are told apart by X-Forwarded-For; a forged left entry changes nothing."""
    guesser = Client()
    for n in range(3):
        # The guesser forges a different leftmost entry every time; the proxy appends the real one.
        sign_in(guesser, "learner", "guess", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, {GUESSER_ADDRESS}")
    forged = sign_in(guesser, "learner", PASSWORD, HTTP_X_FORWARDED_FOR=f"10.9.9.77, {GUESSER_ADDRESS}")
    assert "여러 번 실패" in forged.content.decode()
    owner = sign_in(Client(), "learner", PASSWORD, HTTP_X_FORWARDED_FOR=OWNER_ADDRESS)
    assert owner.status_code == 302


def test_client_address_ignores_the_header_unless_named_in_settings() -> None:
    """Without CLIENT_ADDRESS_HEADER the peer address is the client, whatever a header says."""

    class Request:
        META = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}

    assert throttle.client_address(Request()) == "127.0.0.1"
    with override_settings(CLIENT_ADDRESS_HEADER="HTTP_X_FORWARDED_FOR"):
        assert throttle.client_address(Request()) == "203.0.113.5"
    Request.META["HTTP_X_FORWARDED_FOR"] = "not-an-address"
    with override_settings(CLIENT_ADDRESS_HEADER="HTTP_X_FORWARDED_FOR"):
        assert throttle.client_address(Request()) is None


@pytest.mark.django_db(transaction=True)
@override_settings(SIGN_IN_MAX_FAILURES=5)
def test_concurrent_guesses_are_counted_atomically(learner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve guesses at once: exactly the five free ones have their password checked."""
    checked: list[str] = []
    lock = threading.Lock()
    real_authenticate = ModelBackend.authenticate

    def counting(self: ModelBackend, request: object, username: str | None = None, password: str | None = None, **kw: object):
        with lock:
            checked.append(password or "")
        return real_authenticate(self, request, username=username, password=password, **kw)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    start = threading.Barrier(12)
    failures: list[BaseException] = []

    def guess() -> None:
        try:
            start.wait()
            sign_in(Client(), "learner", "guess", address=GUESSER_ADDRESS)
        except BaseException as exc:  # a thread's exception would otherwise vanish
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(checked) == 5
    assert SignInThrottle.objects.get(key=f"pair:learner|{GUESSER_ADDRESS}").failures == 5
