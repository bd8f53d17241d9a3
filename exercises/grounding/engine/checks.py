"""Checks that can back a verdict on a learner's judgement, unlike a hint.

Each answers a narrow question with certainty or not at all:

- ``value_conflicts``: does a time, date, amount or count the claim states disagree
  with the same kind of value on the lines the learner cited? Only values read
  without doubt count (no vague "밤에는", no "이삼일", no bare numbers), never in a
  negated or hedged clause ("여섯 시간은 어렵습니다" agrees with "최대 4시간"), and
  never against lines with a multiplier (1.5배, 10%), where the claim may be
  computed.
- ``unrelated_lines``: which cited lines share no word and no value with the claim.
- ``verbatim_line``: which cited line the claim repeats word for word (a whole line or a
  whole sentence of one, not a fragment that could drop its condition).
- ``says_silent``: whether the claim says the source is silent on something.
- ``absent_words_shared``: whether a claim names what a question asks about and the
  source never mentions (주차 for "주차는 무료인가요?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .analysis import SILENCE_RE, analyse, analyse_claim
from .hangul import normalise, word_similarity
from .matcher import _check_value, index_for, score

_CERTAIN_KINDS = ("time", "date", "money", "dur")
_MULTIPLIERS = ("count:배", "count:%")
_DOUBT = ("어렵", "힘들", "불가", "안 되", "안되", "못 ", "없", "않", "아닙", "아니")


@dataclass(frozen=True)
class ValueConflict:
    """A value of the claim and the cited line whose value of the same kind disagrees with it."""

    claim_text: str
    line: int


def _lines(source: str | list[str]) -> tuple[str, ...]:
    return tuple(source.split("\n")) if isinstance(source, str) else tuple(str(line) for line in source)


def value_conflicts(source: str | list[str], claim: str, cited: list[int]) -> list[ValueConflict]:
    """The claim's certain values that the cited lines contradict (empty when unsure or none)."""
    index = index_for(_lines(source))
    lines = [line for line in index.lines if line.number in set(cited) and line.segments]
    if not lines or any(v.kind.startswith(_MULTIPLIERS) for line in lines for v in line.values):
        return []
    found: list[ValueConflict] = []
    for part in analyse_claim(claim):
        if part.negators or part.cues or any(mark in part.text for mark in _DOUBT):
            continue
        for value in part.values:
            if not (value.kind in _CERTAIN_KINDS or value.kind.startswith("count:")):
                continue
            if sum(1 for other in part.values if other.kind == value.kind) > 1:
                continue  # "7,500원씩 두 시간이면 15,000원": figures combined in the claim itself
            if value.role == "within" or value.kind.startswith(_MULTIPLIERS):
                continue
            status, number = _check_value(index, part, value, lines)
            if status == "conflict" and number is not None:
                found.append(ValueConflict(claim_text=part.text[value.span[0]:value.span[1]].strip(), line=number))
    return found


def unrelated_lines(source: str | list[str], claim: str, cited: list[int]) -> list[int]:
    """Cited lines that have nothing in common with the claim (no word, no value) nor with the
    other cited lines: a line that only lends a rule to a computation ("1.5배" beside "5,000원")
    shares words with the line it extends, so it is not unrelated."""
    index = index_for(_lines(source))
    parts = [p for p in analyse_claim(claim) if p.words or p.values]
    if not parts:
        return []
    by_number = {line.number: line for line in index.lines}
    lines = [by_number[n] for n in cited if n in by_number and by_number[n].segments]
    related = [line for line in lines if any(score(index, part, line) > 0.0 for part in parts)]
    out = []
    for line in lines:
        if line in related:
            continue
        if any(score(index, segment, other) > 0.0 for other in related for segment in line.segments):
            continue
        out.append(line.number)
    return out


_CITATION = re.compile(r"\(\s*\d[\d\s,~\-번줄]*\)|\d+\s*번\s*줄")
_NOT_TEXT = re.compile(r"[\s.,!?·:;\"'“”‘’()\[\]「」『』~-]+")
_MIN_VERBATIM = 8


def _bare(text: str) -> str:
    return _NOT_TEXT.sub("", _CITATION.sub("", normalise(text)))


def verbatim_line(source: str | list[str], claim: str, cited: list[int]) -> int | None:
    """The cited line the claim repeats word for word, or None.

    Only a whole line, or a whole sentence of one, counts: a fragment ("회의실을 쓸 수 없습니다"
    from "승인 문자를 받기 전에는 회의실을 쓸 수 없습니다") can drop what it depends on.
    """
    wanted = _bare(claim)
    if len(wanted) < _MIN_VERBATIM:
        return None
    lines = _lines(source)
    for number in cited:
        if not 1 <= number <= len(lines):
            continue
        line = lines[number - 1]
        sentences = [line, *re.split(r"(?<=[.!?])\s+", line)]
        if any(_bare(sentence) == wanted for sentence in sentences):
            return number
    return None


def says_silent(claim: str) -> bool:
    return SILENCE_RE.search(normalise(claim)) is not None


def absent_words_shared(source: str | list[str], question: str, claim: str) -> bool:
    """Whether the claim names a word of the question that no source line has."""
    index = index_for(_lines(source))
    live = [line for line in index.lines if line.segments]
    asked = [w for w in analyse(question, claim=True).words if not w.light]
    absent = [w for w in asked if max((index.match(w, line) for line in live), default=0.0) < 0.5]
    said = [w for part in analyse_claim(claim) for w in part.words]
    return any(word_similarity(a, b) >= 0.7 or word_similarity(b, a) >= 0.7 for a in absent for b in said)
