"""Writes about a person's own account: password reset and change, deleting the account, retention."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tutor import audit
from tutor.errors import NotFound, Refused
from tutor.mail.services import absolute_url, queue_mail

from . import registry
from .selectors import DELETED_PREFIX, is_deleted


def users_for_reset(email: str) -> list[User]:
    """Active accounts with this address (any case) and a password of their own."""
    users = get_user_model()._default_manager.filter(email__iexact=email.strip(), is_active=True)
    return [user for user in users if user.has_usable_password() and user.email]


def request_password_reset(*, email: str, request: HttpRequest | None = None) -> int:
    """Queue a reset link to every active account with this address; return how many (never shown to anyone).

    The page answers the same whether or not an account has the address; an unknown
    address is audited as one gathered entry per hour, without the address.
    """
    with transaction.atomic(durable=True):
        users = users_for_reset(email)
        for user in users:
            token = default_token_generator.make_token(user)
            link = absolute_url(reverse("tutor:password-reset-confirm", kwargs={
                "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": token}), request=request)
            body = render_to_string("tutor/mail/password_reset.txt", {
                "user": user, "link": link, "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
                "reset_url": absolute_url(reverse("tutor:password-reset"), request=request)})
            # The key names the token by a digest, so no live link is kept in the key or the audit log.
            digest = hashlib.sha256(token.encode()).hexdigest()[:16]
            queue_mail(to=user.email, subject=_("[근거 튜터] 비밀번호 재설정 안내"), body=body,
                       key=f"password-reset:{user.pk}:{digest}")
            audit.record(actor=None, action="password.reset_request", target=user)
        if not users:
            audit.refusal(actor=None, action="password.reset_request",
                          target=audit.Target("auth.user", "unknown", "알 수 없는 주소"), reason="계정 없는 주소")
    return len(users)


def set_password(*, user: User, password: str, actor: User | AnonymousUser | None, how: str) -> User:
    """Set a new password (``how``: "reset" by a mailed link, "change" by the signed-in owner).

    Every other session of the account ends (Django checks the password hash in the
    session), and the account's sign-in back-off is forgotten.
    """
    from tutor.models import SignInThrottle

    if how not in {"reset", "change"}:
        raise ValueError(how)
    with transaction.atomic(durable=True):
        user.set_password(password)
        user.save(update_fields=["password"])
        name = user.get_username().casefold()
        SignInThrottle.objects.filter(Q(key=f"account:{name}") | Q(key__startswith=f"pair:{name}|")).delete()
        audit.record(actor=actor, action=f"password.{how}", target=user)
    return user


def delete_account(*, user: User, actor: User | AnonymousUser | None, reason: str) -> dict[str, Any]:
    """Delete a person's account: their own records go, the account is anonymised, an audit entry says what.

    What they wrote for others (reviews) stays and is shown as "탈퇴한 학습자". The
    account row itself stays (anonymised: random username, no name or address, no
    usable password, inactive) because kept records point at it. Only the owner
    (``actor`` is ``user``) or retention (``actor`` None) may; site staff delete
    accounts in the admin.
    """
    if actor is not None and actor.pk != user.pk:
        raise NotFound(_("찾을 수 없습니다."), target=user, reason="계정 삭제: 본인만")
    if user.is_superuser or user.is_staff:
        raise Refused(_("운영진 계정은 여기서 지울 수 없습니다. 다른 관리자에게 요청하세요."))
    with transaction.atomic(durable=True):
        user = get_user_model()._default_manager.select_for_update().get(pk=user.pk)
        if is_deleted(user):
            raise NotFound(_("찾을 수 없습니다."))
        removed: dict[str, int] = {}
        kept: dict[str, str] = {}
        for kind in registry.kinds():
            if kind.erase is not None:
                removed[kind.name] = kind.erase(user)
            else:
                kept[kind.name] = kind.kept_because
        user.username = f"{DELETED_PREFIX}{secrets.token_hex(8)}"
        user.first_name = user.last_name = user.email = ""
        user.set_unusable_password()
        user.is_active = False
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        audit.record(actor=actor, action="account.delete", target=user, reason=reason,
                     detail={"removed": removed, "kept": kept, "anonymised": ["username", "first_name", "last_name",
                                                                               "email", "password"]})
    return {"removed": removed, "kept": kept}


def inactive_accounts(*, now: datetime | None = None) -> list[User]:
    """Accounts nobody signed in to for ``INACTIVE_ACCOUNT_DELETE_DAYS`` days (none while the setting is 0)."""
    days = settings.INACTIVE_ACCOUNT_DELETE_DAYS
    if days <= 0:
        return []
    cutoff = (now or timezone.now()) - timedelta(days=days)
    quiet = Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
    return list(get_user_model()._default_manager.filter(quiet, is_active=True, is_staff=False, is_superuser=False)
                .exclude(username__startswith=DELETED_PREFIX).order_by("pk"))


def delete_inactive_accounts(*, now: datetime | None = None) -> list[int]:
    """Retention: delete every account inactive for ``INACTIVE_ACCOUNT_DELETE_DAYS`` days; return their ids."""
    deleted = []
    for user in inactive_accounts(now=now):
        delete_account(user=user, actor=None,
                       reason=f"보존 기간 만료: {settings.INACTIVE_ACCOUNT_DELETE_DAYS}일 동안 로그인 없음")
        deleted.append(user.pk)
    return deleted
