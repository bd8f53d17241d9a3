"""Sign-in with a username or an e-mail address."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest


def username_for_login(login: str) -> str:
    """The username an entered login stands for: itself, or the one account whose e-mail it is.

    A username always wins (usernames may contain "@"). An e-mail address is matched
    case-insensitively; an address that no account or several accounts have is left
    as typed, which matches no username, so the sign-in fails like any wrong login
    (the password hasher still runs) and never picks one of several accounts.
    """
    users = get_user_model()._default_manager
    login = login.strip()
    if "@" not in login or users.filter(username=login).exists():
        return login
    matches = list(users.filter(email__iexact=login).values_list("username", flat=True)[:2])
    return matches[0] if len(matches) == 1 else login


class UsernameOrEmailBackend(ModelBackend):
    """Django's model backend, with the login resolved by ``username_for_login`` first."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> User | None:
        if username is not None:
            username = username_for_login(username)
        return super().authenticate(request, username=username, password=password, **kwargs)
