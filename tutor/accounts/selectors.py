"""Reads about a person's own account: how a deleted account is named, and everything held about them."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor.spreadsheet import to_csv

from . import registry

DELETED_PREFIX = "deleted-"


def is_deleted(user: User | AnonymousUser) -> bool:
    """An account anonymised at its owner's request or by retention (see ``services.delete_account``)."""
    return bool(user.pk) and not user.is_active and user.get_username().startswith(DELETED_PREFIX)


def display_name(user: User) -> str:
    """The name to show for a person: "탈퇴한 학습자" once the account was deleted."""
    return _("탈퇴한 학습자") if is_deleted(user) else user.get_username()


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat(timespec="seconds") if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def account_of(user: User) -> dict[str, Any]:
    return _plain({
        "username": user.get_username(), "first_name": user.first_name, "last_name": user.last_name,
        "email": user.email, "date_joined": user.date_joined, "last_login": user.last_login,
        "is_active": user.is_active,
    })


def personal_data(user: User) -> dict[str, Any]:
    """Everything the site holds about ``user``, kind by kind; only their own, whoever else is in the database."""
    return {
        "exported_at": _plain(timezone.now()),
        "time_zone": timezone.get_current_timezone_name(),
        "account": account_of(user),
        "records": {kind.name: {"title": kind.title, "rows": _plain(kind.rows(user))} for kind in registry.kinds()},
    }


def _csv(rows: list[dict[str, Any]]) -> str:
    header: list[str] = []
    for row in rows:
        header.extend(key for key in row if key not in header)
    cells = [[json.dumps(row.get(key), ensure_ascii=False) if isinstance(row.get(key), dict | list)
              else row.get(key) for key in header] for row in rows]
    return to_csv([list(header), *cells])


def export_zip(user: User) -> bytes:
    """The download: ``data.json`` with everything, and one spreadsheet-safe CSV per record kind."""
    data = personal_data(user)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.json", json.dumps(data, ensure_ascii=False, indent=2))
        archive.writestr("account.csv", _csv([data["account"]]))
        for name, kind in data["records"].items():
            archive.writestr(f"{name}.csv", _csv(kind["rows"]))
        archive.writestr("README.txt", _readme(data))
    return buffer.getvalue()


def _readme(data: dict[str, Any]) -> str:
    lines = [_("근거 튜터가 가진 내 데이터 (%(at)s, %(zone)s)") % {"at": data["exported_at"], "zone": data["time_zone"]},
             "", _("data.json: 아래 전부를 한 파일에. 종류마다 CSV 한 개 (엑셀에서 열 수 있음):"), "",
             f"account.csv: {_('계정')}"]
    lines += [f"{name}.csv: {kind['title']} ({len(kind['rows'])})" for name, kind in data["records"].items()]
    return "\n".join(lines) + "\n"
