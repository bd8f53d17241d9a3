"""Ranking source lines for a claim and judging whether they support it.

Scores are IDF-weighted coverage: the share of the claim's weight (its words,
weighted by how rare they are in this source, and its values) that a line
matches. This is BM25's idea without length normalisation, which does not pay
off on ten short lines, and it gives a score between 0 and 1 that also reads as
"how much of the claim this line accounts for".

The judgement then asks, per clause of the claim: do the values agree (times
and amounts compared as values, each next to its own qualifier: 현금 1,600원 is
not 카드 1,500원)? Do the weekdays agree, and with the same polarity (일요일 휴무
vs 일요일에도 연다)? Do the negations on the shared words agree? Is enough of
the claim covered at all? Does the line hedge (예정, 승인되면, 바뀔 수 있다)
what the claim states as settled? Doubt ends in 모름, never in 근거.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from .analysis import (
    ACCEPTS,
    CONDITION,
    SILENCE_RE,
    UNSETTLED,
    Segment,
    analyse,
    analyse_claim,
    analyse_line,
    cue_phrase,
)
from .hangul import Word, normalise, word_similarity
from .lexicon import ANTONYMS
from .values import Value, compatible, endpoints

GROUNDED, NO_SOURCE, HOLD, UNSURE = "근거", "자료없음", "보류", "모름"
_SEVERITY = {GROUNDED: 0, UNSURE: 1, HOLD: 2, NO_SOURCE: 3}

LIGHT_FACTOR = 0.3  # generic words (가격, 시간, 이제) count for this much of a word
KIND_ONLY = 0.4  # a line with a value of the right kind but the wrong amount still is the topic
RELATED = 0.3  # below this best score the source says too little about the claim to judge it
SILENT = 0.2  # below this best score nothing in the source is about the claim: 자료없음
HOLD_COVER = 0.45  # word coverage from which a source's pending cue decides 보류
CANDIDATE_SHARE = 0.55  # lines within this share of the best score are candidates
MATCHED = 0.7  # word similarity at which two words count as the same for negation
COVER_NO = 0.6  # word coverage below this: the source does not say it
COVER_YES = 0.8  # word coverage below this (and above COVER_NO): unsure
COVER_GAIN = 0.1  # a further line joins the support when it adds this much coverage
MAX_SUPPORT = 3
QUALIFIER_SLACK = 0.1  # source values whose qualifier fit is this close to the best are all "the one"
PRIMARY_MIN = 0.5  # the best line alone must cover this share of the words for a 근거
MAX_SOURCES = 256  # analysed sources kept per process
MAX_CLAUSES = 6  # clauses of one claim that are judged
MIN_CONTENT = 2  # content words and values a claim needs before it is judged at all
MEMO_LIMIT = 200_000  # claim-word memo entries kept per source
TOPIC_FACTOR = 0.75  # weight of the clause's topic in ranking
VALUE_FACTOR = 1.2  # a matching number or date is stronger evidence than a word as rare
TOPICAL = 0.7  # clauses whose word fit is within this share of the best one are on the claim's topic


@dataclass(frozen=True)
class Line:
    number: int
    segments: tuple[Segment, ...]
    words: tuple[Word, ...]
    values: tuple[Value, ...]
    cues: frozenset[str]


@dataclass(frozen=True)
class Verdict:
    hint: str
    support: tuple[int, ...]
    cue: str = ""  # for 보류: the source's words that make it conditional or pending
    rule: str = field(default="", compare=False)  # the rule of ``judge`` that decided (for tests and tracing)


class SourceIndex:
    """A source's lines, analysed once; IDF weights are computed lazily per claim word."""

    def __init__(self, lines: tuple[str, ...]) -> None:
        built = []
        for number, text in enumerate(lines, start=1):
            segments = analyse_line(text) if text.strip() else ()
            built.append(Line(
                number=number, segments=segments,
                words=tuple(w for s in segments for w in s.words),
                values=tuple(v for s in segments for v in s.values),
                cues=frozenset(c for s in segments for c in s.cues),
            ))
        self.lines: tuple[Line, ...] = tuple(built)
        live = sum(1 for line in self.lines if line.segments) or 1
        self.size = live
        self.value_weight = math.log(1 + (live + 0.5) / 0.5)
        self._weights: dict[Word, float] = {}
        self._matches: dict[tuple[Word, int], float] = {}
        self._value_weights: dict[tuple[object, ...], float] = {}

    def forget_claims(self) -> None:
        """Drop what was learnt about claim words (kept per source, bounded by MEMO_LIMIT)."""
        self._weights.clear()
        self._matches.clear()
        self._value_weights.clear()

    def match(self, word: Word, line: Line) -> float:
        key = (word, line.number)
        found = self._matches.get(key)
        if found is None:
            if len(self._matches) > MEMO_LIMIT:  # a long-lived process sees endless new claim words
                self.forget_claims()
            found = max((word_similarity(word, other) for other in line.words), default=0.0)
            self._matches[key] = found
        return found

    def value_idf(self, value: Value) -> float:
        """Like a word's IDF: a value every line agrees with says little about which line it is."""
        key = (value.kind, value.alts, value.role, value.days)
        found = self._value_weights.get(key)
        if found is None:
            df = sum(1 for line in self.lines if line.segments and _value_match(value, line) >= 0.75)
            found = VALUE_FACTOR * math.log(1 + (self.size - df + 0.5) / (df + 0.5))
            self._value_weights[key] = found
        return found

    def weight(self, word: Word) -> float:
        found = self._weights.get(word)
        if found is None:
            df = sum(1 for line in self.lines if self.match(word, line) >= 0.5)
            found = math.log(1 + (self.size - df + 0.5) / (df + 0.5))
            if word.light:
                found *= LIGHT_FACTOR
            self._weights[word] = found
        return found


_INDEXES: OrderedDict[tuple[str, ...], SourceIndex] = OrderedDict()
_INDEXES_LOCK = threading.Lock()


def index_for(lines: tuple[str, ...]) -> SourceIndex:
    """Analyse each source once per process: a learner asks for hints on the same fixture many times."""
    with _INDEXES_LOCK:
        found = _INDEXES.get(lines)
        if found is not None:
            _INDEXES.move_to_end(lines)
            return found
    built = SourceIndex(lines)
    with _INDEXES_LOCK:
        _INDEXES[lines] = built
        while len(_INDEXES) > MAX_SOURCES:
            _INDEXES.popitem(last=False)
    return built


def clear_caches(*, sources: bool = False) -> None:
    """Forget analysed claims, and with ``sources`` the analysed sources too.

    For benchmarks that want every claim to be new to the process; the engine never
    needs it (all caches are bounded).
    """
    from . import analysis, hangul

    for cached in (analysis.analyse, analysis.analyse_claim, hangul.stem, hangul.variants,
                   hangul.analyse_word, hangul.word_similarity):
        cached.cache_clear()
    with _INDEXES_LOCK:
        if sources:
            analysis.analyse_line.cache_clear()
            _INDEXES.clear()
        else:
            for index in _INDEXES.values():
                index.forget_claims()


def _value_match(value: Value, line: Line, days: frozenset[int] = frozenset()) -> float:
    """1 for an agreeing value on the line, KIND_ONLY for one of the same kind, else 0.

    Weekdays agree more the more specifically the line names them (토요일 over 월~토); a
    value stated for other days than the claim's (평일 22시 for a claim on 토요일) only
    counts as being of the same kind.
    """
    if value.kind == "weekday":
        named = [s.days for s in line.segments if s.days]
        fits = [0.5 + 0.5 * len(value.days) / len(d) for d in named if value.days <= d]
        if fits:
            return max(fits)
        return KIND_ONLY if named else 0.0
    same = [v for s in line.segments for v in s.values
            if v.kind == value.kind and not (days and s.days and days.isdisjoint(s.days))]
    if not same:
        return KIND_ONLY if any(v.kind == value.kind for v in line.values) else 0.0
    if any(compatible(value, v) for v in same):
        return 1.0
    if value.role == "range" and all(any(compatible(p, v) for v in same) for p in endpoints(value)):
        return 1.0
    return KIND_ONLY


def score(index: SourceIndex, part: Segment, line: Line) -> float:
    """The weighted share of ``part`` that ``line`` matches, from 0 to 1.

    The topic of the clause ("720번 버스는") counts less (TOPIC_FACTOR): it names what the
    whole notice is about, while the rest of the clause says which line it is.
    """
    total = matched = 0.0
    has_comment = any(p >= part.topic_end for p in part.positions) or any(
        v.span[0] >= part.topic_end for v in part.values)
    for word, position in zip(part.words, part.positions, strict=True):
        weight = index.weight(word) * (TOPIC_FACTOR if has_comment and position < part.topic_end else 1.0)
        total += weight
        matched += weight * index.match(word, line)
    for value in _distinct_values(part):
        weight = index.value_idf(value) * (
            TOPIC_FACTOR if has_comment and value.span[1] <= part.topic_end and value.kind != "weekday" else 1.0)
        total += weight
        matched += weight * _value_match(value, line, part.days)
    return matched / total if total else 0.0


def _distinct_values(part: Segment) -> list[Value]:
    """Values of a clause, with all weekday mentions merged into one set."""
    values = [v for v in part.values if v.kind != "weekday"]
    if part.days:
        values.append(Value("weekday", ((0, 0),), "set", days=part.days))
    return values


def _segment_fit(index: SourceIndex, part: Segment, segment: Segment) -> float:
    """How well one source clause matches a claim clause: shared words (the topic less), weekdays, values."""
    fit = 0.0
    for word, position in zip(part.words, part.positions, strict=True):
        factor = TOPIC_FACTOR if position < part.topic_end else 1.0
        fit += factor * index.weight(word) * max((word_similarity(word, w) for w in segment.words), default=0.0)
    fit += _day_fit(index, part, segment)
    for value in part.values:
        if value.kind == "weekday":
            continue
        factor = TOPIC_FACTOR if value.span[1] <= part.topic_end else 1.0
        if any(v.kind == value.kind and compatible(value, v) for v in segment.values):
            fit += factor * index.value_idf(value) * 0.5
    return fit


def _day_fit(index: SourceIndex, part: Segment, segment: Segment) -> float:
    if not part.days or not segment.days:
        return 0.0
    if part.days <= segment.days:
        return index.value_weight * len(part.days) / len(segment.days)
    if part.days.isdisjoint(segment.days):
        return -index.value_weight
    return 0.0


def _qualifier(index: SourceIndex, part: Segment, segment: Segment, value: Value, claimed: Value) -> float:
    """How much a source value is the one the claim talks about: its clause's words, the word next to it, its days."""
    near = segment.word_before(value.span[0])
    fit = 0.0
    roles = {"open_at": "start"}
    if {roles.get(claimed.role, claimed.role), roles.get(value.role, value.role)} == {"start", "end"}:
        # an opening time is another attribute than a closing one
        fit -= index.value_weight
    elif claimed.role in ("min", "max") and value.role == claimed.role:
        # the bound the claim states ("최대 4명까지") is the line's bound, not a figure beside it ("16명 (… 4명까지)")
        fit += index.value_weight
    for word in part.words:
        if word.light:
            continue
        best = 0.0
        for number, other in enumerate(segment.words):
            similarity = word_similarity(word, other)
            if similarity and number == near:
                similarity *= 2
            best = max(best, similarity)
        fit += index.weight(word) * best
    return fit + _day_fit(index, part, segment)


def _check_value(index: SourceIndex, part: Segment, value: Value, lines: list[Line]) -> tuple[str, int | None]:
    """"ok", "conflict" or "absent" for one claimed value, and the line that decided it."""
    options = [(line, segment, other) for line in lines for segment in line.segments
               for other in segment.values if other.kind == value.kind]
    if not options:
        return "absent", None
    ranked = sorted(((_qualifier(index, part, seg, other, value), line.number, other, seg)
                     for line, seg, other in options), key=lambda item: -item[0])
    best = ranked[0][0]
    top = [item for item in ranked if item[0] >= best - QUALIFIER_SLACK * abs(best) - 1e-6]
    for _, number, other, seg in top:
        if compatible(value, other, strict=True):
            # a figure the line states as it is needs no other bound ("16명 (다른 동 주민은 … 4명까지)")
            stated = other.role == "point" and value.role == "point"
            return ("ok" if stated or _within_bounds(value, seg) else "conflict"), number
    for _, number, other, _seg in top:
        if compatible(value, other):
            return "unsure", number  # "5시에 연다" inside 11~18시: opens then, or is open then?
    if value.role == "within":
        return "unsure", top[0][1]  # "밤에는" is too vague to contradict a clock time
    return "conflict", top[0][1]


def _within_bounds(value: Value, segment: Segment) -> bool:
    """A figure that fits one bound of a clause must fit the others ("만 5세" and "6세부터 12세까지")."""
    if value.kind in ("time", "date", "weekday") or value.role not in ("point", "within_point"):
        return True
    bounds = [other for other in segment.values if other.kind == value.kind and other.role in ("min", "max")]
    return all(compatible(value, bound) for bound in bounds)


def _value_status(index: SourceIndex, part: Segment, value: Value, candidates: list[Line],
                  related: list[Line]) -> tuple[str, int | None]:
    status, number = _check_value(index, part, value, candidates)
    if status == "absent":
        status, number = _check_value(index, part, value, related)
    if status in ("conflict", "absent") and value.role == "range":
        ends = [_check_value(index, part, p, related) for p in endpoints(value)]
        if all(s == "ok" for s, _ in ends):
            return "ok", ends[0][1]
    return status, number


def _weekday_status(index: SourceIndex, part: Segment, related: list[Line]) -> str:
    """Whether the claimed days hold for what the claim talks about.

    Among clauses that name days, those on the claim's topic (most of its words) decide:
    "ok" when same-polarity ones cover the days, "conflict" when an opposite-polarity one
    names them (일요일 휴무 vs 일요일에도 연다) or the topic is tied to other days only.
    """
    polarity = part.parity()
    named = [(_line_fit(index, part, line) + _values_fit(index, part, segment), segment)
             for line in related for segment in line.segments if segment.days]
    if not named:
        return "absent"
    best = max(fit for fit, _ in named)
    pool = [segment for fit, segment in named if fit >= TOPICAL * best - 1e-9]
    same: set[int] = set()
    for segment in pool:
        if segment.parity() == polarity and not segment.days.isdisjoint(part.days):
            same |= segment.days
    if part.days <= same:
        return "ok"
    if any(segment.parity() != polarity and not segment.days.isdisjoint(part.days) for segment in pool):
        return "conflict"
    if best > 0 and all(segment.days.isdisjoint(part.days) for segment in pool):
        return "conflict"
    return "absent"


def _values_fit(index: SourceIndex, part: Segment, segment: Segment) -> float:
    """The weight of the claim's values (other than days) that this clause agrees with."""
    return sum(index.value_idf(value) for value in part.values if value.kind != "weekday"
               and any(other.kind == value.kind and compatible(value, other) for other in segment.values))


def _line_fit(index: SourceIndex, part: Segment, line: Line) -> float:
    """The claim's words matched anywhere on the line ("주말 20분" inherits "배차 간격은" before it).

    The topic ("공유회의실은") is left out when the clause says more than its topic: which
    days something holds on is decided by the predicate (쉰다, 운영한다), not by the name.
    """
    comment = [w for w, p in zip(part.words, part.positions, strict=True) if p >= part.topic_end]
    words = comment or list(part.words)
    return sum(index.weight(word) * index.match(word, line) for word in words)


def _antonym_conflict(part: Segment, segment: Segment) -> bool:
    """The claim says one of a pair the source says the other of (혼자 / 함께, 현장 / 온라인)."""
    said = frozenset(c for word, cover in zip(segment.words, segment.covers, strict=True) if not cover for c in word.concepts)
    for word, cover in zip(part.words, part.covers, strict=True):
        if cover:  # "실내에 들어갈 수 없다" agrees with "테라스에서만"
            continue
        for concept in word.concepts:
            if concept in said:
                continue
            if any(concept in pair and (pair - {concept}) <= said for pair in ANTONYMS):
                return True
    return False


def _polarity_conflict(index: SourceIndex, part: Segment, segment: Segment, *, min_shared: int = 1) -> bool:
    """Whether the negations that reach the shared words disagree (영업한다 vs 영업하지 않는다).

    With ``min_shared`` > 1 (for a line that merely lent words) only words beyond the
    topic count, at least that many must be shared, and only the line denying what the
    claim asserts is a conflict: the claim denying what such a line asserts is usually
    about another time ("8월에 휴장" next to "월~토 운영").
    """
    claim_words: set[int] = set()
    source_words: set[int] = set()
    for i, word in enumerate(part.words):
        if min_shared > 1 and part.positions[i] < part.topic_end:
            continue
        for j, other in enumerate(segment.words):
            if word_similarity(word, other) >= MATCHED:
                claim_words.add(i)
                source_words.add(j)
    if not claim_words:
        return False
    if min_shared > 1 and sum(1 for i in claim_words if not part.words[i].light) < min_shared:
        return False
    if min_shared > 1:
        return segment.parity(source_words) == 1 and part.parity(claim_words) == 0
    return part.parity(claim_words) != segment.parity(source_words)


def judge(index: SourceIndex, part: Segment) -> tuple[Verdict, dict[int, float]]:
    """The hint for one claim clause and its line scores.

    Lines are scored first; a clause nothing in the source is about is 자료없음, one the source is
    only loosely about is 모름. Otherwise the clause's values are looked up (``_find_values``) and the
    named rules of ``JUDGE_RULES`` are asked in order: the first that speaks decides, and a clause
    no rule objects to is 근거.
    """
    scores = {line.number: score(index, part, line) for line in index.lines if line.segments}
    if (not part.words and not part.values) or part.overloaded:
        return Verdict(UNSURE, (), rule="nothing_to_judge"), scores
    ordered = sorted(index.lines, key=lambda line: -scores.get(line.number, 0.0))
    best = scores.get(ordered[0].number, 0.0) if ordered else 0.0
    if best < SILENT:
        return Verdict(NO_SOURCE, (), rule="source_silent"), scores
    if best < RELATED:
        # Something in the source is about it, too little to say which: a paraphrase the word
        # lists miss looks like this as much as an invention does.
        return Verdict(UNSURE, (), rule="loosely_related"), scores
    threshold = max(RELATED, CANDIDATE_SHARE * best)
    candidates = [line for line in ordered if scores.get(line.number, 0.0) >= threshold][:4]
    related = [line for line in ordered if scores.get(line.number, 0.0) > 0]
    reading = _find_values(index, part, candidates, related)
    for name, rule in JUDGE_RULES:
        verdict = rule(reading)
        if verdict is not None:
            return replace(verdict, rule=name), scores
    return Verdict(GROUNDED, tuple(reading.support), rule="grounded"), scores


@dataclass
class _Reading:
    """What ``judge`` found of one clause: its candidate lines, the lines its values come from and how they fared."""

    index: SourceIndex
    part: Segment
    candidates: list[Line]
    support: list[int]
    cue_lines: set[int]
    absent: bool = False
    conflict: bool = False
    unsure: bool = False
    coverage: float = 0.0  # share of the claim's words the support lines match; computing it adds lines that help

    @cached_property
    def by_number(self) -> dict[int, Line]:
        return {line.number: line for line in self.index.lines}

    def best_segment_of(self, number: int) -> Segment:
        return max(self.by_number[number].segments, key=lambda seg: _segment_fit(self.index, self.part, seg))

    @cached_property
    def stated(self) -> list[Segment]:
        """The clause of each cue line that says what the claim says (cues are read there, not elsewhere on the line)."""
        return [self.best_segment_of(n) for n in sorted(self.cue_lines)]

    def verdict(self, judgement: str, phrase: str = "") -> Verdict:
        return Verdict(judgement, tuple(self.support), phrase) if phrase else Verdict(judgement, tuple(self.support))


def _find_values(index: SourceIndex, part: Segment, candidates: list[Line], related: list[Line]) -> _Reading:
    """Look each value (and weekday) of the clause up: the lines that state it join the support."""
    reading = _Reading(index, part, candidates, support=[candidates[0].number], cue_lines={candidates[0].number})
    for value in part.values:
        if value.kind == "weekday":
            continue
        status, number = _value_status(index, part, value, candidates, related)
        if status == "conflict" and CONDITION in part.cues and len(part.values) > 1:
            status = "unsure"  # "두 시간 타면 4,000원": a figure computed from a supposed one
        reading.conflict = reading.conflict or status == "conflict"
        reading.absent = reading.absent or status == "absent"
        reading.unsure = reading.unsure or status == "unsure"
        if number is not None and status == "ok":
            if number not in reading.support:
                reading.support.append(number)
            reading.cue_lines.add(number)
    if part.days:
        days = _weekday_status(index, part, related)
        reading.conflict = reading.conflict or days == "conflict"
        reading.absent = reading.absent or days == "absent"
    reading.coverage = _coverage(index, part, candidates, reading.support)  # may add support lines
    return reading


def _rule_value_conflict(r: _Reading) -> Verdict | None:
    """A value (or weekday) the claim states where the lines state another: 자료없음."""
    return r.verdict(NO_SOURCE) if r.conflict else None


def _rule_stated_denial(r: _Reading) -> Verdict | None:
    """The clause that states the claim denies it (or says its antonym). Read from words, a denial is only as
    sure as the match: a paraphrase ("돈을 내지 않고" for "무료로") looks like one, so 자료없음 only when the
    claim is well matched, else 모름. Polarity is read where the claim is stated: the best line and the lines
    its values come from, not lines that only lent a word (the notice's name) to the coverage."""
    segments = [seg for number in sorted(r.cue_lines) for seg in r.by_number[number].segments]
    best_segment = max(segments, key=lambda seg: _segment_fit(r.index, r.part, seg))
    if _polarity_conflict(r.index, r.part, best_segment) or _antonym_conflict(r.part, best_segment):
        return r.verdict(NO_SOURCE if r.coverage >= COVER_YES else UNSURE)
    return None


def _rule_lent_denial(r: _Reading) -> Verdict | None:
    """A line that only lent words must not deny them ("…받기 전에는 쓸 수 없습니다"): 자료없음."""
    for number in r.support:
        if number not in r.cue_lines and _polarity_conflict(r.index, r.part, r.best_segment_of(number), min_shared=2):
            return r.verdict(NO_SOURCE)
    return None


def _rule_unsettled_claim(r: _Reading) -> Verdict | None:
    """The claim says something is not settled where the source, well matched, settles it: 자료없음."""
    source_cues = frozenset(c for seg in r.stated for c in seg.cues)
    if UNSETTLED in r.part.cues and not source_cues and r.coverage >= COVER_YES:
        return r.verdict(NO_SOURCE)
    return None


def _rule_source_pending(r: _Reading) -> Verdict | None:
    """What the source leaves pending (a condition, a confirmation) and the claim does not: 보류, with the phrase.
    Read before coverage: "…바로 받을 수 있습니다" against "…예약한 뒤 받을 수 있습니다" is a pending claim even
    where its other words are the model's."""
    source_cues = frozenset(c for seg in r.stated for c in seg.cues)
    unhedged = any(not (r.part.cues & ACCEPTS[cue]) for cue in source_cues)
    other_condition = CONDITION in source_cues and not _same_condition(r.part, r.stated)
    if (unhedged or other_condition) and r.coverage >= HOLD_COVER and not r.absent:
        return r.verdict(HOLD, next((cue_phrase(seg.text, seg.cues) for seg in r.stated if seg.cues), ""))
    return None


def _rule_absent_figure(r: _Reading) -> Verdict | None:
    """On topic, with a figure the source lacks: 자료없음. Not when the claim itself supposes it ("두 시간 타면
    4,000원"): a supposed figure is the claim's, not the source's."""
    if r.absent and r.coverage >= COVER_YES and CONDITION not in r.part.cues:
        return r.verdict(NO_SOURCE)
    return None


def _rule_too_little_found(r: _Reading) -> Verdict | None:
    """Too little of the claim is found, or only as a patchwork of lines none of which says much of it: a
    paraphrase and a wrong inference look alike here, so 모름."""
    if r.absent or r.unsure or r.coverage < COVER_YES or _primary(r.index, r.part, r.candidates[0]) < PRIMARY_MIN:
        return r.verdict(UNSURE)
    return None


#: ``judge``'s rules, asked in this order once the clause's values are looked up; the first that speaks decides.
JUDGE_RULES: tuple[tuple[str, Callable[[_Reading], Verdict | None]], ...] = (
    ("value_conflict", _rule_value_conflict),
    ("stated_denial", _rule_stated_denial),
    ("lent_denial", _rule_lent_denial),
    ("unsettled_claim", _rule_unsettled_claim),
    ("source_pending", _rule_source_pending),
    ("absent_figure", _rule_absent_figure),
    ("too_little_found", _rule_too_little_found),
)


def _primary(index: SourceIndex, part: Segment, line: Line) -> float:
    """How much of the claim the best line says by itself: its words and values beyond the topic.

    Generic words and the topic (another line may name the place) are left out.
    """
    total = matched = 0.0
    for word, position in zip(part.words, part.positions, strict=True):
        if word.light or position < part.topic_end:
            continue
        weight = index.weight(word)
        total += weight
        matched += weight * index.match(word, line)
    for value in _distinct_values(part):
        weight = index.value_idf(value)
        total += weight
        matched += weight * (1.0 if _value_match(value, line, part.days) > KIND_ONLY else 0.0)
    return matched / total if total else 1.0


def _same_condition(part: Segment, segments: list[Segment]) -> bool:
    """Whether the claim's condition is the source's ("확인한 뒤" for "확인 뒤"), not another one
    ("신청하면" for "확인 뒤 확정되며"). Conditions without content words are taken as the same."""
    source = [word for segment in segments for word in segment.conditions]
    if not source or not part.conditions:
        return True
    return any(word_similarity(mine, theirs) >= MATCHED for mine in part.conditions for theirs in source)


def _coverage(index: SourceIndex, part: Segment, candidates: list[Line], support: list[int]) -> float:
    """Weighted share of the claim's words matched by the support lines, adding lines that help."""
    if not part.words:
        return 1.0
    by_number = {line.number: line for line in index.lines}
    # A generic word (가격, 시간, 이용) counts when the source has it and is not missed when not.
    words = [w for w in part.words
             if not w.light or any(index.match(w, line) >= 0.5 for line in index.lines if line.segments)]
    if not words:
        return 1.0
    weights = [index.weight(word) for word in words]
    total = sum(weights) or 1.0

    def covered(numbers: list[int]) -> float:
        return sum(w * max(index.match(word, by_number[n]) for n in numbers)
                   for word, w in zip(words, weights, strict=True)) / total

    current = covered(support)
    for line in candidates + [line for line in index.lines if line not in candidates]:
        if len(support) >= MAX_SUPPORT or line.number in support or not line.segments:
            continue
        gained = covered([*support, line.number])
        if gained - current >= COVER_GAIN:
            support.append(line.number)
            current = gained
    return current


def _silence(index: SourceIndex, claim: str) -> str | None:
    """For a claim that says the source is silent ("안내문에는 주차 이야기가 없습니다"): 근거 when
    none of what it names is in the source, None (judge it as usual) otherwise."""
    found = SILENCE_RE.search(normalise(claim))
    if found is None:
        return None
    rest = analyse(claim[:found.start()] + " " + claim[found.end():], claim=True)
    named = list(rest.words)
    if not named or rest.values:
        return None
    live = [line for line in index.lines if line.segments]
    # Silent on it when no one line names all of it ("전기 자전거 요금": 전기 자전거 on one
    # line, 요금 on another is still no word on the price of electric bikes).
    if not any(all(index.match(word, line) >= MATCHED for word in named) for line in live):
        return GROUNDED
    return None


def suggest_one(index: SourceIndex, claim: str) -> tuple[str, list[tuple[int, float]], str]:
    """The hint, the ranked (line, score) pairs, and for 보류 the cue that triggered it, for one claim."""
    if _silence(index, claim) == GROUNDED:
        return GROUNDED, [], ""
    parts = analyse_claim(claim)
    if not parts or not any(p.words or p.values for p in parts):
        return UNSURE, [], ""
    content = sum(len(p.words) + len(p.values) for p in parts)
    terse = content < MIN_CONTENT  # "네, 열려 있습니다": its subject is in the question, not in the claim
    overloaded = len(parts) > MAX_CLAUSES
    parts = parts[:MAX_CLAUSES]  # a claim of more clauses is a list: ranked on its first ones, not judged
    whole = _merge(parts) if len(parts) > 1 else parts[0]
    final: dict[int, float] = {line.number: score(index, whole, line) for line in index.lines if line.segments}
    hint, cue = GROUNDED, ""
    for part in parts:
        if not part.words and not part.values:
            continue
        verdict, scores = judge(index, part)
        if _SEVERITY[verdict.hint] > _SEVERITY[hint]:
            hint, cue = verdict.hint, verdict.cue
        if len(parts) > 1:
            for number, value in scores.items():
                final[number] = max(final.get(number, 0.0), 0.95 * value)
    ranked = sorted(((n, round(s, 3)) for n, s in final.items() if s >= 0.05), key=lambda item: (-item[1], item[0]))
    final_hint = UNSURE if overloaded or terse else hint
    return final_hint, ranked[:5], cue if final_hint == HOLD else ""


def _merge(parts: tuple[Segment, ...]) -> Segment:
    first = parts[0]
    words = tuple(w for p in parts for w in p.words)
    return Segment(
        text=" ".join(p.text for p in parts), words=words,
        positions=tuple(range(len(words))), covers=tuple(c for p in parts for c in p.covers),
        negators=sum(p.negators for p in parts), values=tuple(v for p in parts for v in p.values),
        days=frozenset().union(*(p.days for p in parts)), cues=first.cues,
    )


_NOUN_PARTICLES = ("은", "는", "이", "가", "을", "를", "에", "에서", "으로", "로", "도", "만", "의", "와", "과", "에는", "까지",
                   "부터", "이나", "나", "에게", "께")


_VERB_ENDS = ("길", "실", "시", "요", "다", "고", "며", "면", "게", "서", "니")


def _has_value(value: Value, line: Line, days: frozenset[int]) -> bool:
    """Whether the line has the value: an agreeing one, or for a weekday, a clause naming that day among others
    ("일요일" is in "일요일과 월요일은 쉽니다", which ``_value_match`` scores below 1 as less specific)."""
    if value.kind == "weekday":
        return any(value.days <= segment.days for segment in line.segments if segment.days)
    return _value_match(value, line, days) >= 1.0


def values_on(index: SourceIndex, claim: str, numbers: list[int]) -> bool:
    """Whether the claim states a time, date, amount or duration, and these lines have an agreeing value for each."""
    wanted = set(numbers)
    lines = [line for line in index.lines if line.number in wanted and line.segments]
    stated = [(value, part) for part in analyse_claim(claim) for value in part.values
              if value.kind in ("time", "date", "money", "dur")]
    return bool(stated) and all(any(_has_value(value, line, part.days) for line in lines) for value, part in stated)


def not_found(index: SourceIndex, claim: str) -> list[str]:
    """The claim's words and values that no source line has (as the claim writes them), in order.

    A word counts as found when some line has it or a synonym (similarity 0.5 and up); a value
    when some line has an agreeing value of its kind. Generic words (가격, 시간) and what the
    claim says about the answer itself (안내문에 따르면) are not listed.
    """
    live = [line for line in index.lines if line.segments]
    out: list[str] = []
    for part in analyse_claim(claim):
        items: list[tuple[int, str]] = []
        for word, position in zip(part.words, part.positions, strict=True):
            if word.light or len(word.stem) < 2 and not word.concepts:
                continue
            if word.surface != word.stem and not word.surface.endswith(_NOUN_PARTICLES) \
                    or word.stem.endswith(_VERB_ENDS):
                continue  # a verb or an ending (보시길, 가능합니다): the nouns and values say what is missing
            if max((index.match(word, line) for line in live), default=0.0) < 0.5:
                items.append((position, word.stem))
        for value in part.values:
            if value.kind in ("num", "approx"):
                continue
            if not any(_has_value(value, line, part.days) for line in live):
                if value.role == "range" and all(any(_value_match(end, line) >= 1.0 for line in live)
                                                 for end in endpoints(value)):
                    continue
                items.append((value.span[0], part.text[value.span[0]:value.span[1]].strip()))
        for _, text in sorted(items):
            if text and text not in out:
                out.append(text)
    return out
