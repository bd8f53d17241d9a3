"""Checks that can back a verdict on a learner's judgement, unlike a hint.

Each answers a narrow question with certainty or not at all:

- ``value_conflicts``: does an amount of money, a duration, or an opening or closing time
  the claim states disagree with the same kind of value on the lines the learner cited?
  (Dates, other times and counts are not compared: on text written after the engine that
  comparison was mostly wrong.) Only values read
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

from .analysis import (
    PLAN,
    POSSIBILITY,
    SILENCE_RE,
    UNSETTLED,
    Segment,
    analyse,
    analyse_claim,
    analyse_line,
)
from .claims import linked_clauses
from .hangul import _FINAL_L, _FINAL_N, Word, final_of, normalise, word_similarity
from .lexicon import AMENITIES
from .matcher import MATCHED as MATCHED_WORD
from .matcher import Line, SourceIndex, _check_value, index_for, score
from .tables import read_tables
from .values import Value, compatible, endpoints, extract_values

# The kinds of value a value verdict compares (see ``value_conflicts`` for the measurement behind it).
COMPARED_KINDS = ("money", "dur")
_MULTIPLIERS = ("count:배", "count:%")
_DOUBT = ("어렵", "힘들", "불가", "안 되", "안되", "못 ", "없", "않", "아닙", "아니")


@dataclass(frozen=True)
class ValueConflict:
    """A value of the claim and the cited line whose value of the same kind disagrees with it."""

    claim_text: str
    line: int


def _lines(source: str | list[str]) -> tuple[str, ...]:
    return tuple(source.split("\n")) if isinstance(source, str) else tuple(str(line) for line in source)


_COMPUTING = re.compile(r"\d\s*[×xX*÷/]\s*\d|[+=→]|총|합계|합쳐|합하|합산|더하|더해|모두\s*합|전부\s*합|씩|곱|배|차이|남[은았습는]|할인|빼|뺀|더\s|덜\s|절반|반값|반액|나누|나눠|아끼|아낄|아낀|절약|차액"
                        r"|후에|후인|뒤에|뒤인|전에|전인|지나|늦게|일찍|앞당|미뤄|당(?![가-힣])|마다|기준")
# A line that computes (…당, 씩, 10% 할인, 30분 전에, 보증금에서 15,000원을 빼고): a claim's value may be its result.
_RATE_ON_LINE = re.compile(r"당(?![가-힣])|씩|마다|배|%|퍼센트|할인|할증|전까지|전에|후에|뒤에|이전|이후|빼|차감|공제"
                           r"|(?<![가-힣])(?:뒤|후)부터")  # "맡기시면 2주 뒤부터 찾아가실 수 있습니다"
_DAY_PARTICLE = re.compile(r"\s*(?:에|은|는|이|입|인|부터|까지|엔|의|\()")
_PERIOD_AFTER = re.compile(r"\s*(?:에|당|마다)(?![가-힣])")
_BARE_DAY = re.compile(r"(?<![\d,.])\d{1,2}\s*일(?!\s*(?:간|동안|이내|째))")


def stated_values(claim: str) -> list[tuple[Segment, Value]]:
    """The claim's values it states as the source's own, with their clause; empty when unsure.

    Left out (no value verdict can rest on them): a claim with computing words (총, 씩, 배,
    …후에, 할인), more than one certain value in the whole claim (one may be computed
    from another: "7,500원씩 두 시간이면 15,000원"), a negated, hedged or
    conditional clause, a bare day ("31일에는": read with the source's month only by a
    person), an ordinal, a rate (주 2회) and the count 번 (1번 출구, 두 번째). The period
    of a rate ("1시간에 3,000원") and a label ("2인용") are not values of their own.
    """
    norm = normalise(claim)
    if _COMPUTING.search(norm):
        return []
    out: list[tuple[Segment, Value]] = []
    certain = 0
    for part in analyse_claim(claim):
        for value in part.values:
            if value.kind in ("weekday", "num", "approx"):
                continue
            after = part.text[value.span[1]:value.span[1] + 2]
            if value.kind == "dur" and _PERIOD_AFTER.match(after):
                continue  # "1시간에 3,000원": the period of a rate
            if value.kind.startswith("count:") and after.startswith(("용", "짜리", "째", "번째")):
                continue  # "2인용", "두 번째": a label or an ordinal
            certain += 1
            if part.negators or part.cues or any(mark in part.text for mark in _DOUBT):
                continue
            text = part.text[value.span[0]:value.span[1]]
            if value.kind == "dur" and _BARE_DAY.fullmatch(text.strip()) and not _DAY_PARTICLE.match(after):
                continue  # "14일 빌릴 수 있다" may be a span of days; "25일에는" is a day (read in value_conflicts)
            if value.kind.startswith("count:") and ("@" in value.kind or value.kind in ("count:번", "count:배", "count:%")):
                continue
            if value.role == "within":
                continue
            if value.kind == "time" and any(hi <= lo for lo, hi in value.alts) and value.role == "range":
                continue  # 22시부터 7시까지: across midnight, not read as one range
            out.append((part, value))
    return out if certain == 1 else []


def may_compute(claim: str) -> bool:
    """Whether the claim has values that may be computed (computing words, or more than one value)."""
    norm = normalise(claim)
    values = [v for part in analyse_claim(claim) for v in part.values if v.kind not in ("weekday", "num", "approx")]
    return bool(values) and (bool(_COMPUTING.search(norm)) or len(values) > 1)


def _is_date(segment: Segment, value: Value) -> bool:
    """A source's "15일(토)" is a day of the month, not fifteen days: no duration ("딱 하루") is compared with it."""
    text, after = segment.text[value.span[0]:value.span[1]], segment.text[value.span[1]:]
    return bool(_BARE_DAY.fullmatch(text.strip()) and _DAY_PARTICLE.match(after))


def leaves_open(source: str | list[str], number: int) -> bool:
    """Whether line ``number`` says something of it is planned, undecided or only possible (예정, 미정, 검토 중,
    "바뀔 수 있습니다"): what it leaves open, the course files under 보류, and a claim settling it is a guess
    or an invention. Checks that would call such a line's words "the source's own" step aside."""
    return _leaves_open(index_for(_lines(source)), number)


def _leaves_open(index: SourceIndex, number: int) -> bool:
    return any(segment.cues & {PLAN, UNSETTLED, POSSIBILITY} for line in index.lines if line.number == number
               for segment in line.segments)


def value_conflicts(source: str | list[str], claim: str, cited: list[int]) -> list[ValueConflict]:
    """The claim's stated values (see ``stated_values``) that the cited lines contradict.

    Only against cited lines that state a value of the same kind, with no rate or shift
    beside it (…당, 씩, 1.5배, 10%, 30분 전에: the claim may be computed from it), next to
    words the claim shares (the qualifier: 성인 5,000원 is not 어린이 3,000원). A count
    compares only with a count the source words with the same unit. Never against a line that
    leaves its matter open (예정, 검토 중, 추후 안내, "26일로 미뤄질 수 있습니다"): a claim that
    settles it with another value ("3월까지 연장 확정") may be a guess at what is pending (보류)
    or an invention (자료없음), and which one is a person's call.

    Only amounts of money and durations are compared (``COMPARED_KINDS``), and one form of clock time
    (``_compared``). Dates, other clock times and counts are not: on the eight sets written after the
    engine and run once each (S to Z), the
    comparison was right on 1 of 10 dates, 1 of 3 times and 0 of 2 counts it spoke on. A claimed date
    or time is most often one the source gives by a rule ("매주 금·토", a range, a timetable of
    several departures) or one the asker brought, which a line-by-line comparison cannot read; an
    amount or a duration stated beside the same words was right 6 times in 6 once differences and
    totals of days were left out. Outside these kinds the claim gets no value verdict; a person's
    judgement of its answer group decides it once for everyone.
    """
    index = index_for(_lines(source))
    lines = [line for line in index.lines if line.number in set(cited) and line.segments]
    if not lines or any(v.kind.startswith(_MULTIPLIERS) for line in lines for v in line.values):
        return []
    if any(_RATE_ON_LINE.search(seg.text) for line in lines for seg in line.segments):
        return []
    found: list[ValueConflict] = []
    for part, value in stated_values(claim):
        if not _stated_as_itself(part, value):
            continue
        options = [(line, seg, other) for line in lines for seg in line.segments for other in seg.values
                   if other.kind == value.kind and not (value.kind == "dur" and _is_date(seg, other))]
        if not options or any(other.role == "within" for _, _, other in options):
            continue  # a vague source value ("11월", "오후") does not say a precise one is wrong
        if not _compared(value, options):
            continue
        if _not_misread(value, options, lines) or _beyond_the_bound(value, options):
            continue
        shares_word = any(index.match(w, line) >= MATCHED_WORD for w in part.words if w.stem not in _MEASURES
                          for line, _, _ in options)
        shares_days = any(part.days and seg.days and part.days <= seg.days for _, seg, _ in options)
        if not (shares_word or shares_days):
            continue  # nothing but the value ties the claim to these lines: not "the source's own"
        status, number = _check_value(index, part, value, lines)
        if status == "conflict" and _said_after_all(index, part, value, options, lines):
            continue
        if status == "conflict" and number is not None and not _leaves_open(index, number):
            found.append(ValueConflict(claim_text=part.text[value.span[0]:value.span[1]].strip(), line=number))
    return found


def _compared(value: Value, options: list) -> bool:
    """Whether a value of this kind is compared at all (``COMPARED_KINDS``), or is the one form of clock time that is:
    an opening or closing bound the claim states ("토요일에는 20시까지 영업", role start or end) against hours the
    cited lines give only as ranges ("11시부터 18시까지"), where a line in the next day ("다음 날 새벽 2시까지") leaves
    it alone. That is the contradiction the course's first lesson teaches; no claim of the sets S to Z had that form,
    so their figures neither back nor refute it. A point ("오전 6시 50분에 출발"), a range ("오후 1시 30분 ~ 5시 30분")
    or a date is never compared."""
    if value.kind in COMPARED_KINDS:
        return True
    return (value.kind == "time" and value.role in ("start", "end")
            and all(other.role == "range" for _, _, other in options)
            and not any(_NEXT_DAY.search(seg.text) for _, seg, _ in options))


_NEXT_DAY = re.compile(r"다음\s*날|익일|자정|새벽")


def _stated_as_itself(part: Segment, value: Value) -> bool:
    """Whether the claim states the amount or duration as a figure of the source, not one it worked out: never a
    difference ("가족권이 4,000원 저렴"), a total of days ("신청 기간은 모두 11일입니다") or a bare day of the month
    ("11일"), which is a date, and dates are not compared."""
    if value.kind == "money":
        return not _DIFFERENCE_AFTER.match(part.text, value.span[1])
    if value.kind != "dur":
        return True
    return not (_DAYS_IN_ALL.search(part.text[:value.span[0]])
                or _BARE_DAY.fullmatch(part.text[value.span[0]:value.span[1]].strip()))


_DIFFERENCE_AFTER = re.compile(r"\s*(?:이|가|을|를|만큼|정도)?\s*(?:더\s*)?(?:저렴|싸|싼|쌉|차이|절약|아끼|아낄|아껴|덜|비싸|비싼)")


# A total before a number of days makes it a length: "모두 11일", "총 5일", "꼬박 3일".
_DAYS_IN_ALL = re.compile(r"(?<![가-힣])(?:모두|총|전체|꼬박|합쳐서?|통틀어)\s*$")


def _said_after_all(index: SourceIndex, part: Segment, value: Value, options: list, lines: list[Line]) -> bool:
    """A value weighed against the wrong clause: a range whose ends a line gives apart ("1만 원 ~ 2만 원" of a line that
    gives each end in a clause of its own), or one the line states in the clause the claim says
    (``_stated_in_its_own_clause``)."""
    if value.role == "range" and all(_check_value(index, part, end, lines)[0] == "ok" for end in endpoints(value)):
        return True
    return _stated_in_its_own_clause(part, value, options)


def _stated_in_its_own_clause(part: Segment, value: Value, options: list) -> bool:
    """The cited lines state the claimed value itself in a clause whose verb is the claim's, and no clause with another
    value of its kind has that verb: "마지막 셔틀은 시청 앞 광장에서 오전 6시 50분에 출발해요" of "시청 앞 광장에서 오전 5시
    30분부터 … 운행하며, 마지막 차는 오전 6시 50분에 출발합니다" restates the second clause, though the first shares more
    words. A claim without a verb ("어린이 관람료는 5,000원입니다" of "성인 5,000원, 어린이 3,000원") is weighed as before."""
    words = [word for word in part.words if not word.light]
    if not words or not words[-1].surface.endswith(("다", "요", "죠")):
        return False
    verb = words[-1]

    def says(segment: Segment) -> bool:
        content = [word for word in segment.words if not word.light]
        return bool(content) and word_similarity(verb, content[-1]) >= NEAR_WORD

    if any(says(seg) for _, seg, other in options if not compatible(value, other, strict=True)):
        return False
    return any(compatible(value, other, strict=True) and says(seg) for _, seg, other in options)


def _beyond_the_bound(value: Value, options: list) -> bool:
    """A bound the claim draws at a line's own bound, from the other side: "12명을 넘는 신청자" of "정원이 12명으로 줄어 초과
    신청자는 …" names those beyond the cap, the same figure, not another one."""
    return value.role in ("min", "max") and any(
        other.role in ("min", "max") and other.role != value.role and other.alts == value.alts for _, _, other in options)


def _not_misread(value: Value, options: list, lines: list) -> bool:
    """A claimed value that differs from the line's but need not be a misreading: "토핑 14,000원" beside "1인 7,000원"
    (two people's share), "2시간 간격" from 10시, 12시, 14시 (computed), "정장
    10,000원" on "1벌 10,000원 (원래 대여료 25,000원)" (the price now, not the former one); and never a value the lines
    give as its only length ("1시간 30분" of "10일, 17일, 24일 오후 3시부터 1시간 30분", whatever the days beside it read
    as; a price equal to another row's is still that row's, "어린이 5,000원" against "성인 5,000원, 어린이 3,000원")."""
    if value.kind == "dur" and any(compatible(value, other, strict=True) for _, _, other in options):
        return True
    if value.kind == "money" and (any(_multiple(value, other) for _, _, other in options)
                                  or _combined(value.alts[0][0], [other.alts[0][0] for _, _, other in options])):
        return True
    if _reachable(value, lines):
        return True
    current = _current(options)
    return len(current) < len(options) and any(compatible(value, other, strict=True) for _, _, other in current)


def _reachable(value: Value, lines: list) -> bool:
    """Whether a claimed duration is the gap between two clock times of the lines (less or more one of their
    durations, "2시간 30분 − 40분 = 110분"), or a claimed clock time one of their times shifted by one of their
    durations: a value the claim may have computed."""
    if value.kind not in ("dur", "time"):
        return False
    points = {point for line in lines for other in line.values if other.kind == "time" and other.role != "within"
              for alt in other.alts for point in alt}
    wanted = {point for alt in value.alts for point in alt}
    spans = {other.alts[0][0] / 60 for line in lines for other in line.values if other.kind == "dur"}
    if value.kind == "time":
        return any(abs(point + sign * span - w) < 1e-6 for point in points for span in spans for sign in (1, -1)
                   for w in wanted)
    gaps = {abs(a - b) for a in points for b in points if a != b}
    sums = gaps | {gap + sign * span for gap in gaps for span in spans for sign in (1, -1)}
    return any(abs(total * 60 - w) < 1e-6 for total in sums for w in wanted)


# "정장은 1벌 10,000원에 빌려드립니다 (원래 대여료 25,000원)": the former price is not the one the line states now.
_FORMER = re.compile(r"(?:원래|기존|정가|할인\s*전)\s*(?:[가-힣]+\s*)?$")


def _current(options: list) -> list:
    """The line's values without a former price ("원래 대여료 25,000원"), when a current one of its kind is there."""
    former = [item for item in options if _FORMER.search(item[1].text[:item[2].span[0]])]
    return [item for item in options if item not in former] if 0 < len(former) < len(options) else options


# Words that name a measure, not a thing: "섬 체류 가능 시간" and "편도 소요 시간" share 시간 and nothing they are about.
_MEASURES = frozenset({"시간", "기간"})


def _multiple(value: Value, other: Value) -> bool:
    """Whether the claimed amount is two to twenty times the line's: a count of people or items may make it."""
    mine, theirs = value.alts[0][0], other.alts[0][0]
    if theirs <= 0 or mine <= theirs:
        return False
    ratio = mine / theirs
    return abs(ratio - round(ratio)) < 1e-9 and 2 <= round(ratio) <= 20


def _combined(amount: float, prices: list[float], most: int = 10) -> bool:
    """Whether the claimed amount is a sum of the line's prices, each taken some times, at most ``most`` items in
    all: "네 명 관람료는 70,000원" of "어린이 15,000원, 어른 20,000원" (two and two), "1만 1천 원" of "부엌칼 3,000원, 가위
    2,000원, 과도 1,500원". Such a total may be computed for a case the claim does not spell out, so it is no misreading."""
    units = sorted({round(price) for price in prices if price > 0})[:6]
    if not units or amount <= 0 or amount != round(amount):
        return False
    reachable = {0: 0}  # amount -> fewest items
    for price in units:
        for total, count in sorted(reachable.items()):
            for times in range(1, most - count + 1):
                step = total + price * times
                if step > amount:
                    break
                reachable[step] = min(reachable.get(step, most + 1), count + times)
    return reachable.get(round(amount), most + 1) <= most and round(amount) not in units


@dataclass(frozen=True)
class AbsentValue:
    """A value of the claim of a kind (금액, 시각, 날짜) that no line of the source has."""

    claim_text: str
    kind: str


_ABSENT_KINDS = {"money": "금액", "time": "시각", "date": "날짜"}


def absent_values(source: str | list[str], claim: str) -> list[AbsentValue]:
    """Stated values whose kind the whole source never has: nothing there to restate or compute from.

    무료 (an amount of 0) is left out: a source says "돈을 받지 않습니다" in words.
    """
    index = index_for(_lines(source))
    kinds = {v.kind for line in index.lines for v in line.values}
    out = []
    for part, value in stated_values(claim):
        if value.kind not in _ABSENT_KINDS or value.kind in kinds or SILENCE_RE.search(part.text):
            continue
        if value.kind == "money" and value.alts[0][0] == 0:
            continue
        out.append(AbsentValue(claim_text=part.text[value.span[0]:value.span[1]].strip(),
                               kind=_ABSENT_KINDS[value.kind]))
    return out


# Words that say when or how often (뒤, 후, 매주, 매달), not what: any two lines of a notice may share them.
WHEN_CONCEPTS = frozenset({"@after", "@weekly", "@monthly", "@yearly"})
# How close a word match must be to name the thing: the word itself for the lines of a computation (a
# synonym let a sum of two unrelated lines through on answers-dev2), a near stem or a synonym for a line
# left pending ("충전기를" is read as 충전 + 기).
SAME_WORD, NEAR_WORD = 1.0, 0.9


def names_the_claim(source: str | list[str], claim: str, lines: tuple[int, ...], *, close: float = SAME_WORD) -> bool:
    """Whether every line has a content word of the claim, matched at least ``close``.

    The hint picks its lines itself, so a sum may join two lines about different things that share a
    value kind and a word like 후/뒤: "샤워실 … 30분" is not 20분 (shower) + 10분 (parking).
    """
    index = index_for(_lines(source))
    by_number = {line.number: line for line in index.lines}
    words = [word for part in analyse_claim(claim) for word in part.words
             if not word.light and not word.concepts & WHEN_CONCEPTS]
    return all(number in by_number and any(index.match(word, by_number[number]) >= close for word in words)
               for number in lines)


def pending_lines_about(source: str | list[str], claim: str) -> list[int]:
    """Lines the source leaves pending (예정, 확정되지 않았습니다) that name something the claim names.

    A claim that gives such a matter a date or a price ("새 충전기는 내년 3월부터") may be a guess at
    what is pending (보류) or an invention (자료없음): which one is a person's call.
    """
    index = index_for(_lines(source))
    return [line.number for line in index.lines
            if any(segment.cues & {PLAN, UNSETTLED} for segment in line.segments)
            and names_the_claim(source, claim, (line.number,), close=NEAR_WORD)]


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
    norm = normalise(claim)
    found = SILENCE_RE.search(norm)
    return found is not None and not _CONDITIONAL_AFTER.match(norm, found.end())


def may_say_absent(claim: str) -> bool:
    """Whether the claim has a word that says something is absent, unknown, hard to find or refused (없음, 않, 안 돼,
    불가, 금지, 모름, 못, 어렵, 아니, a "❌" cell). Such a claim may be a way of saying the source is silent that
    ``says_silent`` does not read ("방수 보증서를 써 준다는 말은 어디에도 없어요", "전망대 화장실 | 없음")."""
    return _MAY_SAY_ABSENT.search(claim) is not None


_MAY_SAY_ABSENT = re.compile(r"없|않|안\s*[되돼됩된]|불가|금지|모르|모름|못\s|못[하해할합]|어렵|어려|아니|아닙"
                             r"|(?:[❌✗✕×]|(?<![A-Za-z])X)\s*(?:\||$)")


def absent_words_shared(source: str | list[str], question: str, claim: str) -> bool:
    """Whether the claim names a word of the question that no source line has."""
    index = index_for(_lines(source))
    live = [line for line in index.lines if line.segments]
    asked = [w for w in analyse(question, claim=True).words if not w.light]
    absent = [w for w in asked if max((index.match(w, line) for line in live), default=0.0) < 0.5]
    said = [w for part in analyse_claim(claim) for w in part.words]
    return any(word_similarity(a, b) >= 0.7 or word_similarity(b, a) >= 0.7 for a in absent for b in said)


# Where one clause ends and the next begins, for the silence check: linking and reason endings ("…않으니 ", "…없고 ").
_CLAUSE_END = re.compile(r"(?:니까|니|므로|어서|아서|라서|해서|는데|지만|고|며)\s+")
_CONDITIONAL_AFTER = re.compile(r"[가-힣]*?(?:으면|면)(?![가-힣])")
_ABOUT_WORDS = frozenset({"기준", "경우", "방법", "내용", "정보", "사항", "규정", "규칙", "방침", "정책", "절차", "대한", "관한",
                          "대해", "관련", "여부", "안내", "설명", "언급"})
_QUESTION_WORDS = frozenset({"몇", "언제", "어디", "얼마", "무슨", "어떤", "어느", "누가", "누구", "무엇", "뭐", "왜", "어떻게"})


def silent_on(source: str | list[str], claim: str) -> list[str]:
    """For a claim that the source is silent on something: the words it names, when no source line
    names them all (so the claim is right); empty otherwise (a value in it, nothing named, or a line
    that names it: "전기 자전거 요금" is not named by 전기 자전거 on one line and 요금 on another)."""
    if not says_silent(claim):
        return []  # "빈 시간이 나오지 않으면 …": a condition, not a claim that the source is silent
    norm = normalise(claim)
    if _NOT_YET.search(norm):
        return []  # "재방문 날짜는 지금은 알 수 없어요": not yet settled is what a pending line says, not silence
    # Only the clause that says it: "반납 장소도 안내문에 나와 있지 않으니 빌린 곳에 돌려주시는 게 안전해요" names 반납 장소,
    # and the advice after it names nothing the source is said to lack.
    clause = next((c for c in _CLAUSE_END.split(norm) if SILENCE_RE.search(c)), norm)
    found = SILENCE_RE.search(clause)
    if found is None:
        return []
    end = found.end()
    while end < len(clause) and "가" <= clause[end] <= "힣":
        end += 1  # the rest of the word the cue ends in ("언급 없음": 음 is its ending, nothing named)
    # "주차장이 몇 면인지는": the counter after a question word asks how many, it names nothing a line could lack
    # nor how the notice would say it, right before the cue ("주차 정보도 따로 나와 있지 않네요"); "수리비가 따로
    # 있는지는" asks about a separate fee and keeps it
    before = _SAID_HOW.sub(" ", clause[:found.start()])
    rest = analyse(_HOW_MANY.sub(" ", before + " " + clause[end:]), claim=True)
    # Nor does a question word ("언제 여는지"), nor the verb of a "…할 때" clause: "비 올 때 안내" names the rain, and a
    # line says "비가 오면".
    when_verbs = set(_WHEN_VERB.findall(clause))
    # nor the verb of a "…면" condition ("반납이 늦어지면"): it names when, not a thing a line could lack
    named = [w for w in rest.words if not w.light and w.stem not in _QUESTION_WORDS and w.surface not in when_verbs
             and not (w.surface.endswith("면") and w.surface != w.stem)]
    if not named or extract_values(norm)[0]:
        return []  # a value anywhere in the claim ("… 알 수 없으니 13일 개최 여부는 …") is more than a silence
    index = index_for(_lines(source))
    live = [line for line in index.lines if line.segments]
    # Words about information, not the thing: "강풍 취소 기준" is named by a line on 강풍 and 취소.
    # Nor the verb that makes it a question ("찍어도 되는지", "신어야 하는지"): a line need not say 되다.
    # And the verb whose object is named ("사진을 찍어도", "신발을 신어야"): the line names the thing in its own verb.
    objects = {i + 1 for i, word in enumerate(named[:-1]) if word.surface.endswith(("을", "를"))}
    # Likewise the verb of an embedded question whose subject is named ("어떤 분야에서 문제가 나오는지"): a line says
    # "문제는 … 분야에서 내며", the question's verb in its own words.
    objects |= {i + 1 for i, word in enumerate(named[:-1]) if word.surface.endswith(("이", "가"))
                and word.surface != word.stem and _asks_embedded(named[i + 1].surface)}
    things = [word for i, word in enumerate(named) if word.stem not in _ABOUT_WORDS and i not in objects
              and not _ASKS_WHETHER.fullmatch(word.surface)] or named
    def named_on(word: Word, line: Line) -> bool:
        return index.match(word, line) >= MATCHED_WORD or _place_of(word.stem, line) or _compound_of(word.stem, line)

    if any(all(named_on(word, line) for word in things) for line in live):
        return []
    # "신분증 지참 | 안내문에 언급 없음" of a notice that checks 신분증: a line that uses a thing may require it without
    # the word for bringing it.
    used = [word for word in things if word.stem not in _BRINGING]
    if len(used) < len(things) and used and any(all(named_on(word, line) for word in used) for line in live):
        return []
    # "사다리 반납이 늦어지면 연체료가 있는지는 안내문에 없어요" of a notice with "반납이 하루 늦을 때마다 연체료
    # 1,000원" on one line and 사다리 on another: a rule for every item may cover the one named apart.
    if len(things) >= 3 and any(sum(not named_on(word, line) for word in things) == 1
                                and all(any(named_on(word, other) for other in live) for word in things)
                                for line in live):
        return []
    # "나이 제한은 따로 적혀 있지 않아요" of a notice whose line says "만 13세 이상": an age is named by its figure, and
    # "주소가 안 나와 있어요" of one that gives "(바람로 15)": an address by its road and number.
    if _AGE_WORDS.search(clause) and any(_AGE_FIGURE.search(line) for line in _lines(source)):
        return []
    if _ADDRESS_WORDS.search(clause) and any(_ADDRESS_FIGURE.search(line) for line in _lines(source)):
        return []
    return [word.stem for word in named]


def _asks_embedded(surface: str) -> bool:
    """Whether a word is a predicate in the form of an embedded question, its 지 after a syllable ending in ㄴ or ㄹ:
    "나오는지", "열리는지도", "쉬운지는", "될지", "무료인지" (not "금지", "유지")."""
    word = re.sub(r"(?:도|는|를|가)$", "", surface)
    return len(word) >= 2 and word.endswith("지") and final_of(word[-2]) in (_FINAL_N, _FINAL_L)


# An adverb of how the notice would say it, just before the silence cue: "주차 정보도 따로 나와 있지 않네요" names 주차.
_SAID_HOW = re.compile(r"(?<![가-힣])(?:따로|별도로|자세히|정확히|구체적으로|특별히|분명히|제대로)\s*$")
_BRINGING = frozenset({"지참", "소지", "휴대", "챙기", "가져오", "가져가"})
_NOT_YET = re.compile(r"(?<![가-힣])(?:아직|지금은|추후|나중에)(?![가-힣])|정해지지|정해져|미정")


# The one-syllable heads that make a place, fee or paper of a noun: 주차장, 탈의실, 접수처, 이용료, 입장권, 회원증.
_COMPOUND_HEADS = ("장", "실", "소", "처", "비", "료", "권", "증", "표", "관")


def _compound_of(stem: str, line: Line) -> bool:
    """Whether a line names a thing by its compound: "주차" by "지하 주차장은 … 3시간 무료" (the parking is the car
    park's), "탈의" by "탈의실"."""
    return len(stem) >= 2 and any(other.stem == stem + head for seg in line.segments for other in seg.words
                                  for head in _COMPOUND_HEADS)


def _place_of(stem: str, line: Line) -> bool:
    """Whether a line names the place of something by the thing alone: "문의처" by "문의:", "접수처" by "접수"."""
    return len(stem) >= 3 and stem.endswith("처") and any(stem[:-1] in seg.text for seg in line.segments)


_ASKS_WHETHER = re.compile(r"(?:되|하|해야\s*하|있|없|가능한|괜찮은|필요한|맞)(?:는지|은지|을지)[가-힣]{0,3}")
_AGE_WORDS = re.compile(r"나이|연령|(?<![가-힣])몇\s*살|(?<![0-9가-힣])살(?:부터|까지|이상|이하)")
_ADDRESS_WORDS = re.compile(r"주소|위치")
_ADDRESS_FIGURE = re.compile(r"[가-힣](?:로|길|대로)\s*\d{1,4}(?:-\d{1,4})?(?![\d가-힣])")
_AGE_FIGURE = re.compile(r"\d\s*(?:세|살)(?![가-힣])|\d\s*(?:세|살)\s*(?:이상|이하|미만|초과|부터|까지)|초등학생|중학생|고등학생"
                         r"|미취학|어린이|성인|청소년|노인|어르신")


_HOW_MANY = re.compile(r"(?<![가-힣])몇\s*[가-힣]+")
_WHEN_VERB = re.compile(r"([가-힣]+)\s*때(?![가-힣])")

_FEE_OF = re.compile(r"(?:비|료|요금|이용료|장|실|권)$")
_SUBJECT_PARTICLES = ("은", "는", "이", "가", "도", "에는", "에서는")


_UNSURE = re.compile(r"확실하지\s*않|확실치\s*않|모르겠|장담(?:할|하기)\s*(?:수\s*없|어렵)")
_TO_THE_READER = re.compile(r"[가-힣](?:세요|십시오)[^가-힣]*$")


def absent_subjects(source: str | list[str], claim: str) -> list[str]:
    """What the claim is about (a service or facility of ``AMENITIES`` with a subject or topic
    particle: 주차장이, 카페는) that no source line names, when the source also accounts for
    little of the claim (best line under half of it).

    A claim about something the source never names cannot restate or compute it. Only such
    nouns count: an ordinary noun (물건 for 분실물) may be a paraphrase. Not for a claim that
    says the source is silent.
    """
    if SILENCE_RE.search(normalise(claim)) or _UNSURE.search(normalise(claim)):
        return []  # "주차장이 있을 수도 있지만 확실하지 않으니 …": a claim that doubts itself asserts nothing to check
    index = index_for(_lines(source))
    live = [line for line in index.lines if line.segments]
    parts = [part for part in analyse_claim(claim) if part.words or part.values]
    if not parts or not live:
        return []
    if max(score(index, part, line) for part in parts for line in live) >= 0.5:
        return []
    out = []
    for part in parts:
        if _TO_THE_READER.search(part.text):
            continue  # "…간식은 두고 가세요": the reader's errand, not a thing the source is said to have
        for word in part.words:
            if word.stem not in AMENITIES and not any(word.stem.endswith(a) for a in AMENITIES if len(a) >= 2):
                continue
            if not any(word.surface == word.stem + p for p in _SUBJECT_PARTICLES):
                continue
            base = _FEE_OF.sub("", word.stem)  # "주차비" of a line on "주차장 … 10분마다 500원" names its 주차
            if len(base) >= 2 and base != word.stem and any(base in seg.text for line in live for seg in line.segments):
                continue
            if max((index.match(word, line) for line in live), default=0.0) < 0.5:
                out.append(word.stem)
    return out


def denied_line(source: str | list[str], claim: str, cited: list[int]) -> int | None:
    """The cited line (or a clause of a line without cues) that says the same words and values as the
    claim with the opposite negation ("야간 응급 진료도 가능합니다" against "야간 응급 진료는 하지
    않습니다"): the claim contradicts it. Only a single negation on one side counts."""
    return _line_matching(source, claim, cited, deny=True)


def restated_line(source: str | list[str], claim: str, cited: list[int], *, named_apart: bool = False) -> int | None:
    """The cited line whose every content word and value the claim repeats, and no more: the same
    statement with other endings, particles or word order ("…것으로 안내되어 있습니다" aside).

    Negations and cues (예정, 승인되면) must agree too. One clause of a line may be restated
    alone only where the line has no cue at all (a condition in another clause may govern it).

    With ``named_apart`` (the hint only, never a verdict) the claim may leave out what the line is about, its label
    ("신청 기간:") or topic ("시공은"), when it states a value: "한 가구당 약 1시간" of "시공은 한 가구에 약 1시간
    걸리며". The answer's question names that; a claim about another subject would name its own, which no line has.
    """
    return _line_matching(source, claim, cited, deny=False, named_apart=named_apart)


def _line_matching(source: str | list[str], claim: str, cited: list[int], *, deny: bool,
                   named_apart: bool = False) -> int | None:
    if says_silent(claim):
        return None  # "현금 환급 | 안내 없음": its negation is about the source, not the thing (the silence check's)
    parts = [part for part in analyse_claim(claim) if part.words or part.values]
    if not parts or any(part.overloaded for part in parts):
        return None
    claim_words = [w for part in parts for w in part.words if not w.light]
    claim_values = [v for part in parts for v in part.values if v.kind not in ("num", "approx")]
    claim_days = frozenset().union(*(part.days for part in parts))
    claim_negators = sum(part.negators for part in parts) % 2
    claim_cues = frozenset().union(*(part.cues for part in parts))
    if len(claim_words) + len(claim_values) < 2:
        return None
    claim_numerals = frozenset().union(*(_unread_numerals(part) for part in parts))
    if deny and len({analyse(clause, claim=True).negators % 2 for clause in linked_clauses(claim)}) > 1:
        return None  # one clause affirms and another denies ("20분 동안 쓸 수 있고 그 뒤에는 쓸 수 없습니다")
    # A table row as written ("| 잠든 등대 | 60분 | 하 |") and read with its header ("잠든 등대 소요 시간 60분, 잠든
    # 등대 난이도 하"): a claim may restate either, the whole row or one of its cells with the row's name.
    plain, tabled = index_for(_lines(source)), index_for(read_tables(_lines(source)))
    readings = [{line.number: line for line in plain.lines}]
    if tabled is not plain:
        readings.append({line.number: line for line in tabled.lines})
    for number in cited:
        for line in [row for by_number in readings if (row := by_number.get(number)) is not None]:
            if (said := _restating(line, parts, claim_words, claim_values, claim_days, claim_negators, claim_cues,
                                   claim_numerals, deny=deny, named_apart=named_apart)) is not None:
                return said
    return None


def _restating(line: Line, parts: list[Segment], claim_words: list[Word], claim_values: list[Value],
               claim_days: frozenset[int], claim_negators: int, claim_cues: frozenset[str],
               claim_numerals: frozenset[str], *, deny: bool, named_apart: bool = False) -> int | None:
    """``line``'s number when the claim says one of its restatable parts (with the opposite negation if ``deny``)."""
    if line.segments:
        for segments in _restatable_parts(line):
            if deny:
                line_negators = sum(seg.negators for seg in segments)
                if claim_cues or any(seg.cues for seg in segments) or line_negators + sum(p.negators for p in parts) != 1:
                    continue
                if _same_statement(segments, claim_words, claim_values, claim_days, 1 - claim_negators, claim_cues,
                                   claim_numerals):
                    return line.number
            elif _same_statement(segments, claim_words, claim_values, claim_days, claim_negators, claim_cues,
                                 claim_numerals, named_apart=named_apart and bool(claim_values)):
                return line.number
    return None


def _restatable_parts(line: Line) -> list[tuple[Segment, ...]]:
    """What of a line a claim may restate: the whole line; where the line has no cue, each clause and each comma-listed
    item alone; in a line of several sentences, each cue-free sentence and its clauses (a cue governs its own
    sentence: "교육비는 무료이며, … 드립니다. 30분 이상 늦으면 수료증이 발급되지 않습니다.")."""
    parts = [line.segments]
    if not line.cues and len(line.segments) > 1:
        parts += [(segment,) for segment in line.segments]
    elif len(sentences := _sentences(line.segments)) > 1:
        for sentence in sentences:
            if not any(segment.cues for segment in sentence):
                parts += [sentence] + ([(segment,) for segment in sentence] if len(sentence) > 1 else [])
    if not line.cues:
        parts += [(item,) for item in _items(line.segments)]
        # a sentence in brackets, a statement of its own: "… 방문 신청 (전화 신청은 받지 않습니다)"
        parts += [analyse_line(found.group(1)) for segment in line.segments
                  for found in _BRACKETED_SENTENCE.finditer(segment.text)]
    return [part for part in parts if part]


_BRACKETED_SENTENCE = re.compile(r"\(([^()]*[가-힣]\s+[^()]*[가-힣](?:다|요))\.?\)")


_SENTENCE_CLOSE = re.compile(r"[.!?。]\s*$")


def _sentences(segments: tuple[Segment, ...]) -> list[tuple[Segment, ...]]:
    """The line's clauses grouped by the sentence they end or belong to."""
    out: list[tuple[Segment, ...]] = []
    current: list[Segment] = []
    for segment in segments:
        current.append(segment)
        if _SENTENCE_CLOSE.search(segment.text):
            out.append(tuple(current))
            current = []
    if current:
        out.append(tuple(current))
    return out


# One item of a clause that lists several with commas ("대상: 만 14세 이상 누구나, 정원 12명"), restated alone as a
# clause may be ("정원: 12명"); as for clauses, only where the line has no cue at all.
_ITEM_SEPARATOR = re.compile(r",\s+")


def _items(segments: tuple[Segment, ...]) -> list[Segment]:
    return [analyse(piece) for segment in segments if len(pieces := _ITEM_SEPARATOR.split(segment.text)) > 1
            for piece in pieces if piece.strip()]


def _same_statement(segments: tuple[Segment, ...], claim_words: list, claim_values: list[Value],
                    claim_days: frozenset[int], claim_negators: int, claim_cues: frozenset[str],
                    claim_numerals: frozenset[str], *, named_apart: bool = False) -> bool:
    line_words = [w for seg in segments for w in seg.words if not w.light]
    line_values = [v for seg in segments for v in seg.values if v.kind not in ("num", "approx")]
    if not all(any(word_similarity(w, o) >= 0.9 for o in line_words) for w in claim_words):
        return False
    about = _what_it_is_about(segments) if named_apart else frozenset()
    if not all(any(word_similarity(o, w) >= 0.9 or word_similarity(w, o) >= 0.9 for w in claim_words)
               for o in line_words if id(o) not in about):
        return False
    if frozenset().union(*(seg.days for seg in segments)) != claim_days:
        return False
    others = [v for v in line_values if v.kind != "weekday"]
    mine = [v for v in claim_values if v.kind != "weekday"]
    if len(others) != len(mine) or not _pairs_up(mine, others):
        return False
    if claim_negators != sum(seg.negators for seg in segments) % 2:
        return False
    if not claim_numerals <= _numerals(" ".join(seg.text for seg in segments)):
        return False  # a figure whose unit the value reader does not know (농부 50팀) is still a figure
    return claim_cues == frozenset().union(*(seg.cues for seg in segments))


_NUMERAL = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _what_it_is_about(segments: tuple[Segment, ...]) -> frozenset[int]:
    """The words (by identity) that name what a line is about rather than say it: a label before its colon ("신청
    기간: …") and a clause's one-word topic ("시공은 …", ``Segment.topic_end``); not a topic of several ("보청기 점검과
    청소는 무료이며"), whose words say which service the rest is about."""
    out = set()
    for segment in segments:
        colon = segment.text.find(":")
        topic = [word for word, position in zip(segment.words, segment.positions, strict=True)
                 if position < segment.topic_end]
        out |= {id(word) for word, position in zip(segment.words, segment.positions, strict=True)
                if 0 <= position < colon}
        if len(topic) == 1:
            out.add(id(topic[0]))
    return frozenset(out)


def _pairs_up(mine: list[Value], others: list[Value]) -> bool:
    """Whether each value of the claim agrees with its own value of the line, one to one (an "up to 2시간"
    of the line may not stand for both the claim's 2시간 and its 30분)."""
    if not mine:
        return True
    first, rest = mine[0], mine[1:]
    return any(other.kind == first.kind and compatible(first, other, strict=True)
               and _pairs_up(rest, others[:i] + others[i + 1:]) for i, other in enumerate(others))


def _unread_numerals(part: Segment) -> frozenset[str]:
    """Figures of a clause that no value reading covers (a count in an unknown unit: 50팀): compared as digits,
    since the value comparison cannot see them. Values read with their unit (18시, 2만 원) are compared as values."""
    text = part.text
    for value in part.values:
        if value.kind not in ("num", "approx"):
            text = text[:value.span[0]] + " " * (value.span[1] - value.span[0]) + text[value.span[1]:]
    return _numerals(_LINE_CITATION.sub(" ", text))


# The model's own citations ("(4)", "[2, 3]", "5번 줄") name lines, not figures of the claim.
_LINE_CITATION = re.compile(r"[(\[]\s*\d{1,3}(?:\s*(?:[,~-]|번|줄)\s*\d{0,3})*\s*(?:번\s*줄|줄)?\s*[)\]]|\d{1,3}\s*번\s*줄")


def _numerals(text: str) -> frozenset[str]:
    """The figures written in ``text`` as digits (1,500 and 1500 alike)."""
    return frozenset(match.replace(",", "") for match in _NUMERAL.findall(text))
