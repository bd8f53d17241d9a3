"""Refuse fixture text that looks like real personal data: fixtures are fictional by rule.

The patterns are deliberately broad (better to ask an admin to rewrite a
fictional number than to store a real one): Korean phone numbers, e-mail
addresses and resident registration numbers.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("resident_number", re.compile(r"(?<!\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\s*-?\s*[1-8]\d{6}(?!\d)")),
    ("phone", re.compile(r"(?<![\d-])(?:\+82[-\s]?)?0?1[016789][-\s.]?\d{3,4}[-\s.]?\d{4}(?!\d)"
                         r"|(?<![\d-])0(?:2|[3-6][1-5])[-\s.)]\s?\d{3,4}[-\s.]?\d{4}(?!\d)")),
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
)


def _label(kind: str) -> str:
    return {"resident_number": _("주민등록번호"), "phone": _("전화번호"), "email": _("이메일 주소")}[kind]


def personal_data_findings(text: str) -> list[str]:
    """Korean descriptions of every line that looks like it holds real personal data."""
    findings = []
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, pattern in PATTERNS:
            if pattern.search(line):
                findings.append(_("%(n)d번 줄: %(kind)s처럼 보입니다") % {"n": number, "kind": _label(kind)})
    return findings


def refusal_message(findings: list[str]) -> str:
    return _("가상 자료에는 실제 개인정보처럼 보이는 내용을 넣을 수 없습니다: %(found)s. "
             "가짜임이 분명한 값으로 바꿔 주세요.") % {"found": "; ".join(findings)}
