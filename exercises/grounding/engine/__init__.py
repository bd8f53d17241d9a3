"""Evidence suggestions for grounding exercises: which source lines back a claim, and a hint.

Pure Python and lexical: no Django, no model, nothing downloaded. Korean is
handled by stripping particles and endings, a small notice-vocabulary
thesaurus, character-bigram similarity, and by reading times, dates, weekdays,
money and counts as values. See ``matcher`` for how lines are ranked and
judged, ``claims`` for how an answer is split.

    suggest(source, claims) -> list[Suggestion]
    split_claims(text) -> list[Claim]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .checks import (
    ValueConflict,
    absent_words_shared,
    says_silent,
    unrelated_lines,
    value_conflicts,
    verbatim_line,
)
from .claims import claim_pieces, is_advice, not_a_claim, strip_markdown
from .matcher import GROUNDED, HOLD, NO_SOURCE, UNSURE, index_for, not_found, suggest_one

__all__ = ["HINTS", "NOT_A_CLAIM", "SHOWN_HINTS", "shown_hint", "Claim", "LineScore", "Suggestion", "ValueConflict", "absent_words_shared", "says_silent",
           "claim_text", "split_claims", "suggest", "unrelated_lines", "value_conflicts", "verbatim_line", "work_units"]

NOT_A_CLAIM = "주장 아님"
# 보류 hints are shown only if measured right at least 9 times in 10 on text the engine was not
# tuned on. On 2026-12-04 the held-out chat set gave 0.70 (14 of 20): not shown. The cue of a
# 보류 reading (``Suggestion.cue``) is still given beside the lines, as the source's words.
SHOW_PENDING = False
ASIDE_MAX = 0.2
STRICT_GROUNDED = False
HINTS: tuple[str, ...] = (GROUNDED, NO_SOURCE, HOLD, UNSURE)  # ("근거", "자료없음", "보류", "모름"): the engine's readings
SHOWN_HINTS: tuple[str, ...] = (GROUNDED, HOLD, NOT_A_CLAIM, UNSURE)  # what a learner may be shown
MAX_LINES = 5
_TOKEN = re.compile(r"[가-힣]+|[A-Za-z]+|\d+")


@dataclass(frozen=True)
class LineScore:
    """A source line (numbered from 1) and how much of the claim it accounts for (0 to 1)."""

    line: int
    score: float


@dataclass(frozen=True)
class Suggestion:
    """For one claim: candidate lines, best first (at most five, all scored above zero), and hints.

    ``hint`` is the engine's own reading (근거, 자료없음, 보류, 모름), for measuring. ``shown`` is
    what a learner may see: only the kinds measured right at least 9 times in 10 on text the
    engine was not tuned on (근거; 주장 아님 for greetings, sign-offs and advice; 보류 with its
    ``cue`` once it measures so, see ``SHOW_PENDING``), else 모름. ``cue`` is the source's
    words that make the best line conditional or pending (승인되면, 예정), shown either way. Never 자료없음: ``not_found`` lists the claim's words and values that no
    source line has, for the learner to weigh.
    """

    claim: str
    lines: list[LineScore]
    hint: str
    shown: str = UNSURE
    cue: str = ""
    not_found: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """One claim of an answer: ``original[start:end]`` with Markdown emphasis removed (``**``, ``*``, `` ` ``)."""

    text: str
    start: int
    end: int


def _lines(source: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(source, str):
        return tuple(source.split("\n"))
    return tuple("" if line is None else str(line) for line in source)


def suggest(source: str | list[str], claims: list[str]) -> list[Suggestion]:
    """Suggest evidence lines and a hint (one of ``HINTS``) for each claim, in order.

    ``source`` is the text (split on newlines) or its list of lines. The analysed
    source is cached by its text, so repeated calls on one fixture are cheap.
    """
    index = index_for(_lines(source or ""))
    out = []
    for claim in claims:
        text = "" if claim is None else str(claim)
        hint, ranked, cue = suggest_one(index, text) if text.strip() else (UNSURE, [], "")
        lines = [LineScore(line=number, score=value) for number, value in ranked[:MAX_LINES] if value > 0]
        missing = tuple(not_found(index, text)) if text.strip() else ()
        best = lines[0].score if lines else 0.0
        shown = shown_hint(text, hint, cue, best)
        if shown == GROUNDED and STRICT_GROUNDED and _unsure_words(missing):
            shown = UNSURE
        if shown == UNSURE and lines and _follows(source, text, [s.line for s in lines[:3]]):
            shown = GROUNDED
        out.append(Suggestion(claim=text, lines=lines, hint=hint, shown=shown, cue=cue, not_found=missing))
    return out


def _unsure_words(missing: tuple[str, ...]) -> bool:
    return bool(missing)


def _follows(source: str | list[str], claim: str, lines: list[int]) -> bool:
    """Whether the claim is a computation from, or a restatement of, the best-ranked lines (the feedback's
    own checks, run on the lines the learner would cite)."""
    from .checks import restated_line
    from .compute import computation

    if restated_line(source, claim, lines[:1]) is not None:
        return True
    found = computation(source, claim, lines)
    if found is None:
        return False
    # A rule elsewhere in the source (주말은 1.5배) may be the one that applies: the learner cites it, the hint cannot.
    every = [n for n, line in enumerate(_lines(source), start=1) if line.strip()]
    return computation(source, claim, every) == found or set(found.lines) == set(every)


def shown_hint(claim: str, hint: str, cue: str, best: float = 0.0) -> str:
    """The hint a learner may see (see ``Suggestion``): precision first, 모름 when unsure.

    주장 아님 only where no source line is about the sentence (best score under ``ASIDE_MAX``):
    "궁금한 점은 안내 데스크에 물어보시면 됩니다" restates a notice's contact line.
    """
    if hint == GROUNDED:
        return GROUNDED
    if (not_a_claim(claim) or is_advice(claim)) and best < ASIDE_MAX:
        return NOT_A_CLAIM
    if SHOW_PENDING and hint == HOLD and cue:
        return HOLD
    return UNSURE


def work_units(source: str | list[str], claims: list[str]) -> int:
    """How much matching a request asks for: source tokens times claim tokens.

    Matching compares every claim word and value with every source word and value, so
    this product bounds its cost; the API refuses a request above its budget before any
    work is done.
    """
    source_tokens = sum(len(_TOKEN.findall(line)) for line in _lines(source or ""))
    return source_tokens * sum(len(_TOKEN.findall(claim or "")) for claim in claims)


def split_claims(text: str) -> list[Claim]:
    """Split an answer into claims: sentences (a trailing "(2)" stays with its sentence), then clauses
    joined by 며/고/지만/는데 or ";"; Markdown emphasis is removed from each claim's text."""
    if not text:
        return []
    return [Claim(text=cleaned, start=start, end=end) for start, end, cleaned in claim_pieces(text)]


def claim_text(answer: str, start: int, end: int) -> str:
    """The text of the claim at ``answer[start:end]`` as ``split_claims`` gives it (emphasis removed)."""
    return strip_markdown(answer[start:end]).strip()
