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


# --- issue13b: toy embedding search (lesson 6) and agent flow (lesson 9) ---

_DISTANCE = re.compile(r"^거리\s+(d\d+)\s*=\s*(\d+(?:\.\d+)?)", re.MULTILINE)
_KEYWORD_EMPTY = re.compile(r"^키워드\s+'영업시간'\s*→\s*\[\]\s*$", re.MULTILINE)
SEED_DISTANCES = {"d1": 0.283, "d2": 1.131, "d3": 0.141}  # seed 000, unit 6


def toy_embedding_figures(result: RunResult) -> tuple[bool, str]:
    """The toy search prints the seed's figures: keyword → [], distances .283, 1.131 and .141."""
    printed = {doc_id: float(value) for doc_id, value in _DISTANCE.findall(result.stdout)}
    wrong = [
        f"{doc_id} {printed.get(doc_id, '없음')} (기대 {expected:.3f})"
        for doc_id, expected in SEED_DISTANCES.items()
        if doc_id not in printed or abs(printed[doc_id] - expected) > 0.0005
    ]
    if not _KEYWORD_EMPTY.search(result.stdout):
        wrong.append(_("키워드 '영업시간' 결과가 빈 목록 []으로 찍히지 않았습니다"))
    if wrong:
        return False, _("기대와 다른 값: %(wrong)s") % {"wrong": "; ".join(wrong)}
    return True, _("키워드 [], 거리 d1 0.283 · d2 1.131 · d3 0.141")


_CASE = re.compile(r"^사례 (.+?) → (승인 대기|보류|발송함)", re.MULTILINE)
_FLOW_SUMMARY = re.compile(r"^요약: 초안 (\d+)건, 발송 (\d+)건", re.MULTILINE)
AGENT_FLOW_CASES = {"시간": "승인 대기", "주차": "보류", "옛 판": "보류"}  # seed 000, unit 9


def agent_flow_outcomes(result: RunResult) -> tuple[bool, str]:
    """The agent flow: time awaits approval, parking and the old version are held, none is sent."""
    outcomes = dict(_CASE.findall(result.stdout))
    wrong = [
        f"{case}: {outcomes.get(case, '없음')} (기대 {expected})"
        for case, expected in AGENT_FLOW_CASES.items()
        if outcomes.get(case) != expected
    ]
    summary = _FLOW_SUMMARY.findall(result.stdout)
    if not summary:
        wrong.append(_("'요약: 초안 N건, 발송 M건' 줄이 없습니다"))
    elif int(summary[-1][1]) != 0:
        wrong.append(_("발송 %(n)s건 (기대 0건)") % {"n": summary[-1][1]})
    if wrong:
        return False, "; ".join(wrong)
    return True, _("시간 → 승인 대기, 주차 → 보류, 옛 판 → 보류, 발송 0건")
