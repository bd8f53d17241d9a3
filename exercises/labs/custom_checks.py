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


def _first_missing(text: str, patterns: list[tuple[str, re.Pattern[str]]]) -> str | None:
    """Name the first pattern that does not appear after the previous one, or None if all do in order."""
    position = 0
    for name, pattern in patterns:
        match = pattern.search(text, position)
        if match is None:
            return name
        position = match.end()
    return None


# Plain strings: this list is built at import time, before translations are ready.
_REPLAY_TURNS = [
    ("R101의 첫 응답이 invalid_json으로 거절되고 시도로 세지 않음",
     re.compile(r"^\[1\] 거절, 도구에 넘기지 않음 \(invalid_json:.*시도로 세지 않음$", re.M)),
    ("R101의 두 번째 응답이 B17 available=2를 조회함", re.compile(r"^\[2\] 조회: B17 available=2\b", re.M)),
    ("R101의 세 번째 응답 뒤 결과가 유실됨", re.compile(r"^\[3\] 응답 유실 \(simulated_reply_lost_after_create", re.M)),
    ("R101의 네 번째 응답이 기존 DRAFT-R101을 돌려받음",
     re.compile(r"^\[4\] 결과 전달: DRAFT-R101 status=draft \(기존 초안을 돌려줌\)$", re.M)),
    ("R101 재현 줄: 받은 응답 4, 시도 3, 초안 1", re.compile(r"^R101 재현: 받은 응답 4, 시도 3, 초안 1$", re.M)),
    ("R202의 조회 없는 초안 요청이 lookup_required로 보류됨", re.compile(r"^\[1\] 보류.*\(lookup_required:", re.M)),
    ("R202의 초안 요청이 insufficient_stock으로 보류됨", re.compile(r"^\[3\] 보류.*\(insufficient_stock:", re.M)),
    ("R202 줄: 새 초안 0", re.compile(r"^R202: 받은 응답 4, 시도 3, 새 초안 0$", re.M)),
    ("수량만 바꾼 R101 재시도가 request_id_conflict로 보류됨", re.compile(r"^\[2\] 보류.*\(request_id_conflict:", re.M)),
    ("보관함에 DRAFT-R101 한 건만 남음", re.compile(r"^보관함의 초안: DRAFT-R101$", re.M)),
]


def replay_retry_turns(result: RunResult) -> tuple[bool, str]:
    """The replay lab reproduces seed 001 turn by turn: rejected reply uncounted, 3 tool attempts, 1 draft.

    Then R202 (zero stock) and the conflicting retry must be held without a draft.
    """
    missing = _first_missing(result.stdout, _REPLAY_TURNS)
    if missing is None:
        return True, _("네 응답, 시도 3, 초안 1과 두 보류가 차례대로 나왔습니다.")
    return False, _("차례대로 나와야 할 줄을 찾지 못했습니다: %(what)s") % {"what": missing}


_TOOL_LOOP_SHAPES = [
    ("시나리오 1: user(글) → assistant(text, tool_use toolu_01) → user(tool_result toolu_01) → assistant(text)",
     re.compile(r"^메시지 목록 1: user\(글\) → assistant\(text, tool_use toolu_01\) → "
                r"user\(tool_result toolu_01\) → assistant\(text\)$", re.M)),
    ("시나리오 2: 두 결과가 user 메시지 하나에",
     re.compile(r"^메시지 목록 2: user\(글\) → assistant\(tool_use toolu_11, tool_use toolu_12\) → "
                r"user\(tool_result toolu_11, tool_result toolu_12\) → assistant\(text\)$", re.M)),
    ("시나리오 3: user(글) → assistant(text), 도구 없음",
     re.compile(r"^메시지 목록 3: user\(글\) → assistant\(text\)$", re.M)),
    ("시나리오 4: is_error가 붙은 결과(!)",
     re.compile(r"^메시지 목록 4: user\(글\) → assistant\(tool_use toolu_31\) → "
                r"user\(tool_result toolu_31!\) → assistant\(text\)$", re.M)),
]


def tool_loop_messages(result: RunResult) -> tuple[bool, str]:
    """The tool-loop lab prints the message list of its four scenarios in the shape seed 003 describes."""
    missing = _first_missing(result.stdout, _TOOL_LOOP_SHAPES)
    if missing is None:
        return True, _("네 시나리오의 메시지 목록이 모두 맞습니다.")
    return False, _("메시지 목록이 다릅니다: %(what)s") % {"what": missing}


_ONTOLOGY_EXPECTED = {
    "Q1": "결과", "Q2": "빈 결과", "Q3": "지원하지 않음", "Q4": "지원하지 않음", "Q5": "범위 밖",
    "Q6": "범위 밖", "Q7": "결과", "Q8": "빈 결과", "Q9": "결과", "Q10": "결과",
}
_ONTOLOGY_LINE = re.compile(r"^\[(Q\d+)\] (\S+)\((student|professor|admin)\) .*? → (결과|빈 결과|지원하지 않음|범위 밖): (.*)$",
                            re.M)


def ontology_outcomes(result: RunResult) -> tuple[bool, str]:
    """The ontology lab keeps its three non-answers apart, and a student's lines show nothing unpublished.

    Each named question must end in its own kind of outcome (result, legitimately empty, unsupported,
    out of scope); no student line may name an unpublished or unenrolled learning item.
    """
    seen = {key: (role, kind, text) for key, _who, role, kind, text in _ONTOLOGY_LINE.findall(result.stdout)}
    for key, expected in _ONTOLOGY_EXPECTED.items():
        if key not in seen:
            return False, _("%(key)s 줄이 없습니다.") % {"key": key}
        if seen[key][1] != expected:
            return False, _("%(key)s: 기대 '%(want)s', 출력 '%(got)s'") % {"key": key, "want": expected, "got": seen[key][1]}
    leaked = [key for key, (role, _kind, text) in seen.items() if role == "student" and ("미게시" in text or "AI 과제" in text)]
    if leaked:
        return False, _("학생의 줄에 보이면 안 되는 학습요소가 있습니다: %(keys)s") % {"keys": ", ".join(leaked)}
    return True, _("열 질문의 결과 종류가 모두 맞고, 학생에게 미게시·미수강 학습요소가 보이지 않습니다.")


# --- issue 21: the structured-output lab accepts the raise its lesson recommends ---

AUTHORITY_REFUSALS = ("AssertionError", "PermissionError")


def refused_by_authority_check(result: RunResult) -> tuple[bool, str]:
    """The approval-gate lab: the forged status stops the program with an assert or with PermissionError.

    The lesson recommends ``raise PermissionError`` for real services (an ``assert`` vanishes under
    ``python -O``), so both count; any other exception (a KeyError, a SystemExit) does not.
    """
    from .checking import raised_exception  # checking imports this module

    raised = raised_exception(result.stderr)
    return raised in AUTHORITY_REFUSALS, _("발생한 예외: %(name)s") % {"name": raised or _("없음")}
