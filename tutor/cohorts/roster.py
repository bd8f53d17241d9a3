"""Read a roster CSV (``name,email`` and optionally ``student_id``) into rows, each with its problem.

Pure parsing: nothing here touches the database. ``services.import_roster``
adds what only the database knows (who is already in the cohort) and writes.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from tutor.errors import TutorError

REQUIRED = ("name", "email")
OPTIONAL = ("student_id",)
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
MAX_NAME, MAX_EMAIL, MAX_STUDENT_ID = 150, 254, 40


class RosterUnreadable(TutorError):
    """The file as a whole cannot be read (not UTF-8, no header, too many rows)."""

    status = 422
    code = "roster_unreadable"
    title = _("명단 파일을 읽을 수 없습니다")


@dataclass
class RosterRow:
    """One data row: ``row`` counts from 1 at the header, as a spreadsheet numbers it."""

    row: int
    name: str
    email: str
    student_id: str
    problem: str = ""
    already_member: bool = False

    @property
    def key(self) -> str:
        return self.email.lower()


def decode(data: bytes) -> str:
    """UTF-8 with or without a byte-order mark; anything else is refused in Korean."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterUnreadable(_("UTF-8로 저장한 CSV 파일을 올려 주세요. (엑셀: 'CSV UTF-8'로 저장)")) from None


def _problem(name: str, email: str, student_id: str) -> str:
    for cell in (name, email, student_id):
        if cell.startswith(FORMULA_STARTS):
            return _("칸이 = + - @ 로 시작합니다 (수식으로 읽힐 수 있어 받지 않습니다): %(cell)s") % {"cell": cell[:40]}
    if not name:
        return _("이름이 비어 있습니다.")
    if len(name) > MAX_NAME or len(student_id) > MAX_STUDENT_ID:
        return _("이름이나 학번이 너무 깁니다.")
    if not email:
        return _("이메일 주소가 비어 있습니다.")
    try:
        validate_email(email)
    except ValidationError:
        return _("이메일 주소가 올바르지 않습니다: %(email)s") % {"email": email[:80]}
    if len(email) > MAX_EMAIL:
        return _("이메일 주소가 너무 깁니다.")
    return ""


def parse(text: str, *, max_rows: int) -> list[RosterRow]:
    """Every data row with its own problem (bad cell, bad address, repeated address); blank lines are skipped."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise RosterUnreadable(_("파일이 비어 있습니다. 첫 줄은 name,email[,student_id] 머리글이어야 합니다.")) from None
    except csv.Error:
        raise RosterUnreadable(_("CSV 형식이 아닙니다.")) from None
    columns = [cell.strip().lower() for cell in header]
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise RosterUnreadable(_("첫 줄에 %(columns)s 열이 있어야 합니다 (예: name,email,student_id).")
                               % {"columns": ", ".join(missing)})
    where = {name: columns.index(name) for name in (*REQUIRED, *OPTIONAL) if name in columns}
    rows: list[RosterRow] = []
    seen: dict[str, int] = {}
    try:
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue
            if len(rows) >= max_rows:
                raise RosterUnreadable(_("한 번에 %(max)d명까지 올릴 수 있습니다. 파일을 나눠 올려 주세요.")
                                       % {"max": max_rows})

            def cell(name: str, cells: list[str] = cells) -> str:
                index = where.get(name)
                return cells[index].strip() if index is not None and index < len(cells) else ""

            row = RosterRow(row=number, name=cell("name"), email=cell("email"), student_id=cell("student_id"))
            row.problem = _problem(row.name, row.email, row.student_id)
            if not row.problem and row.key in seen:
                row.problem = _("%(row)d행과 같은 이메일 주소입니다.") % {"row": seen[row.key]}
            seen.setdefault(row.key, number)
            rows.append(row)
    except csv.Error:
        raise RosterUnreadable(_("CSV 형식이 아닙니다 (따옴표가 닫히지 않았는지 확인하세요).")) from None
    return rows
