"""What the mail app holds about a person (tutor.accounts.registry): the mail sent to their address."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from .models import OutboundMail


def mail_rows(user: User) -> Sequence[Row]:
    """What was sent to them (no bodies: a body may hold a sign-in link still valid)."""
    if not user.email:
        return []
    return list(OutboundMail.objects.filter(to__iexact=user.email).order_by("created_at").values(
        "to", "subject", "state", "created_at", "sent_at"))


def erase_mail(user: User) -> int:
    if not user.email:
        return 0
    return delete_rows(OutboundMail.objects.filter(to__iexact=user.email))


register(RecordKind(name="mail", title="받은 메일 (제목과 시각)", rows=mail_rows, erase=erase_mail, order=60))
not_personal("mail.OutboundMail.actor", "메일을 보내게 한 사람 (예: 초대한 강사): 받는 사람의 기록으로 내보냄")
