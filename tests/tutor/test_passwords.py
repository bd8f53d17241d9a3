"""Password reset and change, and signing in with an e-mail address.

The reset link travels through the real mail path (queue, worker, SMTP); the
reset form is throttled like sign-in and answers the same whether or not an
account has the address.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tests.conftest import PASSWORD, signed_in
from tests.smtp import SmtpServer, body_of
from tutor.mail.models import OutboundMail
from tutor.models import AuditEntry

NEW_PASSWORD = "a-brand-new-passphrase-42"


def ask_reset(client: Client, email: str, address: str = "127.0.0.1"):
    return client.post(reverse("tutor:password-reset"), {"email": email}, REMOTE_ADDR=address)


def sign_in(client: Client, login: str, password: str):
    return client.post(reverse("tutor:sign-in"), {"username": login, "password": password})


@pytest.fixture
def alice(make_user: Callable[..., User]) -> User:
    user = make_user("alice")
    user.email = "alice@example.com"
    user.save()
    return user


@pytest.mark.django_db(transaction=True)
def test_password_reset_round_trip_through_a_real_smtp_server(
    alice: User, smtp_server: SmtpServer, drain_queue: Callable[[], None],
) -> None:
    """Ask by address (any case), the worker mails a full link, the link sets a new password, it signs in."""
    client = Client()
    response = ask_reset(client, "ALICE@example.com")
    assert response.status_code == 302 and response["Location"] == reverse("tutor:password-reset-done")
    drain_queue()
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "alice@example.com"
    link = re.search(r"http://testserver/account/password/reset/\S+/", body_of(message))
    assert link, body_of(message)
    page = client.get(link.group(0).replace("http://testserver", ""), follow=True)
    assert "새 비밀번호" in page.content.decode()
    set_url = page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("tutor:password-reset-complete")
    assert sign_in(Client(), "alice", PASSWORD).status_code == 200, "the old password no longer works"
    assert sign_in(Client(), "alice", NEW_PASSWORD).status_code == 302
    again = Client().get(link.group(0).replace("http://testserver", ""), follow=True)
    assert "쓸 수 없습니다" in again.content.decode(), "a used link is dead"
    assert AuditEntry.objects.filter(action="password.reset", target_id=str(alice.pk)).count() == 1


@pytest.mark.django_db
def test_the_reset_page_does_not_reveal_whether_an_address_has_an_account(alice: User) -> None:
    """Known and unknown addresses get the same redirect and the same next page; only the known one gets mail."""
    known = ask_reset(Client(), "alice@example.com")
    unknown = ask_reset(Client(), "nobody@example.com")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    done_known = Client().get(known["Location"]).content.decode()
    done_unknown = Client().get(unknown["Location"]).content.decode()
    strip = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    assert strip.sub("", done_known) == strip.sub("", done_unknown)
    assert list(OutboundMail.objects.values_list("to", flat=True)) == ["alice@example.com"]


@pytest.mark.django_db
def test_inactive_and_deleted_accounts_get_no_reset_mail(alice: User) -> None:
    """An inactive account, or one without a usable password, is treated as no account."""
    alice.is_active = False
    alice.save()
    ask_reset(Client(), "alice@example.com")
    assert not OutboundMail.objects.exists()


@pytest.mark.django_db
@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_the_reset_form_is_throttled_like_sign_in(alice: User) -> None:
    """Past the free attempts from one client, further requests are refused with the wait and queue no mail."""
    for _ in range(3):
        assert ask_reset(Client(), "alice@example.com", address="198.51.100.7").status_code == 302
    mailed = OutboundMail.objects.count()
    assert mailed >= 1  # requests within the same second share a token, so one message
    refused = ask_reset(Client(), "alice@example.com", address="198.51.100.7")
    assert refused.status_code == 200 and "다시 시도하세요" in refused.content.decode()
    assert OutboundMail.objects.count() == mailed
    other = ask_reset(Client(), "nobody@example.com", address="198.51.100.7")
    assert other.status_code == 302, "another address from the same client has its own allowance"


@pytest.mark.django_db
@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_an_unknown_address_is_throttled_the_same_way(alice: User) -> None:
    """The throttle counts before any lookup, so it cannot tell a guesser which addresses exist."""
    for _ in range(3):
        ask_reset(Client(), "nobody@example.com", address="198.51.100.8")
    refused = ask_reset(Client(), "nobody@example.com", address="198.51.100.8")
    assert refused.status_code == 200 and "다시 시도하세요" in refused.content.decode()


@pytest.mark.django_db
def test_a_bad_address_gets_a_korean_message_and_keeps_what_was_typed() -> None:
    response = ask_reset(Client(), "not-an-address")
    page = response.content.decode()
    assert response.status_code == 200 and "not-an-address" in page and "올바른 이메일 주소를 입력하세요" in page


@pytest.mark.django_db
def test_the_sign_in_page_links_the_reset(client: Client) -> None:
    page = client.get(reverse("tutor:sign-in")).content.decode()
    assert "비밀번호를 잊으셨나요?" in page and reverse("tutor:password-reset") in page


@pytest.mark.django_db
def test_a_signed_in_person_changes_their_password_and_other_sessions_end(alice: User) -> None:
    """The current password is required; the new one works; the same person's other session is signed out."""
    other_device = Client()
    assert sign_in(other_device, "alice", PASSWORD).status_code == 302
    client = signed_in(alice)
    wrong = client.post(reverse("tutor:password-change"), {
        "old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors
    done = client.post(reverse("tutor:password-change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("tutor:password-change-done")
    assert client.get(reverse("tutor:account")).status_code == 200, "this session stays signed in"
    assert other_device.get(reverse("tutor:account")).status_code == 302, "the other device is signed out"
    assert sign_in(Client(), "alice", NEW_PASSWORD).status_code == 302
    assert AuditEntry.objects.filter(action="password.change", actor=alice).count() == 1


@pytest.mark.django_db
def test_a_visitor_cannot_reach_the_password_change_page() -> None:
    response = Client().get(reverse("tutor:password-change"))
    assert response.status_code == 302 and reverse("tutor:sign-in") in response["Location"]


@pytest.mark.django_db
@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_guessing_the_current_password_on_the_change_form_is_throttled(alice: User) -> None:
    """A stolen session cannot guess the current password without limit: the right one is refused too, then."""
    client = signed_in(alice)
    for _ in range(3):
        client.post(reverse("tutor:password-change"), {
            "old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    refused = client.post(reverse("tutor:password-change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert refused.status_code == 200 and "다시 시도하세요" in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_sign_in_with_the_email_address_in_any_case(alice: User) -> None:
    """The e-mail address works in place of the username, matched case-insensitively."""
    assert sign_in(Client(), "Alice@Example.COM", PASSWORD).status_code == 302
    assert sign_in(Client(), "alice@example.com", "wrong").status_code == 200


@pytest.mark.django_db
def test_an_address_shared_by_two_accounts_signs_in_neither(alice: User, make_user: Callable[..., User]) -> None:
    """Ambiguous addresses are refused like a wrong login, never resolved to one of the accounts."""
    twin = make_user("twin")
    twin.email = "ALICE@example.com"
    twin.save()
    response = sign_in(Client(), "alice@example.com", PASSWORD)
    assert response.status_code == 200 and "맞지 않습니다" in response.content.decode()
    assert sign_in(Client(), "alice", PASSWORD).status_code == 302, "the username still works"


@pytest.mark.django_db
def test_a_username_that_looks_like_an_address_wins_over_an_email(alice: User, make_user: Callable[..., User]) -> None:
    """Usernames may contain "@": an exact username is that account, not the one whose address it is."""
    named = User.objects.create_user(username="alice@example.com", password="named-password-123")
    assert signed_in(named)  # exists
    client = Client()
    assert sign_in(client, "alice@example.com", "named-password-123").status_code == 302
    assert int(client.session["_auth_user_id"]) == named.pk
    assert sign_in(Client(), "alice@example.com", PASSWORD).status_code == 200


@pytest.mark.django_db
@override_settings(SIGN_IN_MAX_FAILURES=3)
def test_guesses_by_address_and_by_username_share_one_allowance(alice: User) -> None:
    """Switching between the e-mail address and the username does not buy a guesser more attempts."""
    for login in ("alice@example.com", "ALICE@example.com", "alice"):
        sign_in(Client(), login, "guess")
    refused = sign_in(Client(), "alice", PASSWORD)
    assert refused.status_code == 200 and "여러 번 실패" in refused.content.decode()
