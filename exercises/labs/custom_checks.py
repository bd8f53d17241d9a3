"""Custom lab checks named by ``kind: custom`` in lab.yaml. Each takes the run result and returns (passed, detail).

They run on the host over the sandbox's output, so they must treat that
output as untrusted text: parse, never evaluate.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from .sandbox import RunResult

_COUNTS = re.compile(r"시도\s*(\d+)\s*,\s*초안\s*(\d+)")


def attempts_and_drafts(result: RunResult) -> tuple[bool, str]:
    """The replay lab: the last "시도 N, 초안 M" line must say 3 tool attempts and exactly 1 draft."""
    found = _COUNTS.findall(result.stdout)
    if not found:
        return False, _("출력에서 '시도 N, 초안 M' 줄을 찾지 못했습니다.")
    attempts, drafts = (int(n) for n in found[-1])
    return (attempts, drafts) == (3, 1), _("시도 %(a)d번, 초안 %(d)d건") % {"a": attempts, "d": drafts}
