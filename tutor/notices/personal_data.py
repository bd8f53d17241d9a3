"""What the notices app holds about a person (tutor.accounts.registry): their notices and mail choices."""

from __future__ import annotations

from django.contrib.auth.models import User

from tutor.accounts.registry import RecordKind, Row, delete_rows, register

from .models import Notice, NoticeSetting


def notice_rows(user: User) -> list[Row]:
    return list(Notice.objects.filter(user=user).order_by("created_at", "pk").values(
        "kind", "title", "body", "url", "created_at", "read_at"))


def setting_rows(user: User) -> list[Row]:
    return list(NoticeSetting.objects.filter(user=user).order_by("kind").values("kind", "mode", "changed_at"))


register(RecordKind(name="notices", title="알림", rows=notice_rows, links=("notices.Notice.user",),
                    erase=lambda user: delete_rows(Notice.objects.filter(user=user)), order=60))
register(RecordKind(name="notice_settings", title="알림 설정", rows=setting_rows,
                    links=("notices.NoticeSetting.user",),
                    erase=lambda user: delete_rows(NoticeSetting.objects.filter(user=user)), order=60))
