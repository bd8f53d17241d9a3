"""Reproducing a claim's computed values from source lines: sums, products, rates, time shifts.

A chat model rarely copies a figure; it adds (4만 + 1만 = 5만), multiplies (2박 = 10만,
시간당 7,500원 × 2시간), applies a rate (평일 5,000원의 1.5배) or shifts a time (19시 -
30분 = 18시 30분). Such a value is neither restated nor contradicted: it is right when
the arithmetic from the cited lines gives it. ``computation`` tries the few operations a
notice invites and says which, with the lines it used; it never guesses a figure.

Operands are the values of the given lines (amounts, clock times, durations, rates 배 and
%) and the claim's own counts and durations (두 시간, 3명, 2박): the claim may suppose
how many, not how much.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .analysis import Segment, analyse, analyse_claim
from .hangul import Word, normalise, word_similarity
from .matcher import MATCHED as MATCHED_WORD
from .matcher import Line, SourceIndex, index_for
from .tables import read_tables
from .values import NATIVE_NUMERAL_RE, Value, extract_values, native

_EPS = 1e-6
_MAX_TERMS = 3


@dataclass(frozen=True)
class Computation:
    """How the claim's values follow from the lines: the formulas shown, and the lines they use."""

    formulas: tuple[str, ...]
    lines: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...] = ()  # the lines each formula takes its operands from, in order

    @property
    def text(self) -> str:
        return ", ".join(self.formulas)


@dataclass(frozen=True)
class _Known:
    amount: float
    label: str
    lines: frozenset[int]
    rate: bool = False  # a rate of the lines (1.5배, 10%) was applied
    # "time": a price per some minutes or hours (10분마다 200원); "two": per person and per day (1인 1일); "off": an
    # amount taken off a price (두 번째 아이부터 10,000원씩 할인)
    per: str = ""
    fees: frozenset[str] = frozenset()  # the fee nouns of its clause (참가비, 수강료): what an "off" amount is taken off
    scoped: bool = False  # an "off" amount for some only ("두 번째 아이부터 10,000원씩 할인")
    summed: bool = False  # a sum the claim computed (60,000원 + 10,000원): a rate that leaves a part out cannot scale it


def _money(amount: float) -> str:
    return f"{amount:,.0f}원" if abs(amount - round(amount)) < _EPS else f"{amount:,.1f}원"


def _clock(hours: float) -> str:
    hours %= 24
    whole = int(hours + _EPS)
    minutes = round((hours - whole) * 60)
    return f"{whole}시" + (f" {minutes}분" if minutes else "")


def _duration(minutes: float) -> str:
    hours, rest = divmod(round(minutes), 60)
    if hours >= 24 and hours % 24 == 0 and not rest:
        return f"{hours // 24}일"
    parts = ([f"{hours}시간"] if hours else []) + ([f"{rest}분"] if rest else [])
    return " ".join(parts) or "0분"


def _number(amount: float) -> str:
    return f"{amount:g}"


def _lines(source: str | list[str]) -> tuple[str, ...]:
    return tuple(source.split("\n")) if isinstance(source, str) else tuple(str(line) for line in source)


def _line_values(line: Line) -> list[Value]:
    return list(line.values)


_ROUNDING = re.compile(r"올림|반올림|내림|버림|단위로")


def _beyond_the_check(index: SourceIndex, claim: str, formulas: list[str], used: list[Line],
                      cited: list[int] | None) -> bool:
    """A computation found that still says nothing: priced apart, rounded by a rule, or short of a cited amount."""
    if _priced_apart(claim, formulas, used) or _priced_per_other(formulas, used) or (
            _ALL_OF_IT.search(normalise(claim)) and _each_counted_once(formulas, used)):
        return True
    if any(_ROUNDING.search(seg.text) for line in used for seg in line.segments):
        return True
    if _extra_left_out(formulas, used) or _duration_left_out(formulas, used) or _bundle_left_out(claim, formulas, used):
        return True
    if _tier_multiplied(formulas, used) and not _THE_EXCESS.search(normalise(claim)):
        return True
    if _ORDINAL_FROM.search(normalise(claim)) and not any("째" in seg.text for line in used for seg in line.segments):
        return True
    if _excluded_named(formulas, used):
        return True
    return cited is not None and bool((_amount_lines(index, cited) | _rule_lines(index, cited))
                                      - {line.number for line in used})


# What a line says its rule does not cover: "(재료비는 할인 없음)", "보드 대여료는 할인하지 않습니다", "교재비 제외".
_EXCLUDED = re.compile(r"([가-힣]{2,}?)(?:은|는|도)?\s*(?:할인|적용)\s*(?:없|안\s|하지\s*않|되지\s*않|제외)"
                       r"|([가-힣]{2,}?)(?:은|는)?\s*제외")


def _excluded_named(formulas: list[str], used: list[Line]) -> bool:
    """A rate applied to an amount the line's rule excludes: "재료비도 10% 할인돼서 22,500원" takes 10% off "재료비
    25,000원" where the rate's line says "(재료비는 할인 없음)", however the arithmetic comes out. Only the amount the
    rate scales counts: "회원 수강료 72,000원 + 재료비 25,000원" adds the excluded fee unscaled."""
    names = {name for line in used for seg in line.segments for found in _EXCLUDED.finditer(seg.text)
             for name in found.groups() if name}
    if not names:
        return False
    scaled = {amount for formula in formulas for amount in re.findall(r"([\d,]+원)\s*×\s*\(", formula)}
    return any(re.search(rf"{re.escape(name)}[^\d]{{0,12}}{re.escape(amount)}", seg.text)
               for name in names for amount in scaled for line in used for seg in line.segments)


def _count_unchecked(claim: str, values: list[Value], formulas: list[str], given: list[Line]) -> bool:
    """A count the claim states that no line gives and no formula used: "수업은 총 9회, 1회 80분" reproduces 80분 from
    "오후 4시~5시 20분" and says nothing of whether there are 9 classes."""
    on_lines = {v.alts[0][0] for line in given for v in _line_values(line) if v.kind.startswith("count:")}
    on_lines |= {float(n) for n in re.findall(r"(\d{1,3})\s*번\s*줄", normalise(claim))}  # a line cited: "(7번 줄)"
    shown = " ".join(formulas)
    return any(_count_stated(v) and v.alts[0][0] not in on_lines and not re.search(rf"(?<![\d,.]){_number(v.alts[0][0])}(?![\d,])", shown)
               for v in values)


def _count_stated(value: Value) -> bool:
    """A count the claim states as a fact: not a share or a rate, not one (a unit), not an age or a bound (a case:
    "만 6세", "20명 이상")."""
    return (value.kind.startswith("count:") and value.kind not in ("count:%", "count:배", "count:세")
            and value.role == "point" and value.alts[0][0] != 1)


# A price for what lies over a threshold ("1m를 넘으면 1m마다 3,000원", "초과 1시간당"): the count it multiplies is the
# part over the threshold, which the check does not work out, so "3,000원 × 3m" of a 3 m hose backs nothing.
_OVER = re.compile(r"넘(?:으면|는|을|어|긴)|초과")
# The claim counts only what lies over the threshold itself ("나머지 2m는 1m마다 3,000원"): its product may stand.
_THE_EXCESS = re.compile(r"(?<![가-힣])(?:나머지|넘는|넘은|초과분?|추가)\s*\d")
# The claim's own rule of which items a price applies to ("두 번째 대부터 10,000원씩"): when no used line says
# so, a total that happens to match does not back the rule.
_ORDINAL_FROM = re.compile(r"(?:두|세|네|다섯|\d{1,2})\s*(?:번\s*)?째\s*(?:[가-힣]{1,4}\s*)?부터")


def _tier_multiplied(formulas: list[str], used: list[Line]) -> bool:
    """Whether a formula multiplies an amount that a used line prices over a threshold only (``_OVER``)."""
    multiplied = {found.group(1) for formula in formulas for found in re.finditer(r"([\d,]+원)\s*×", formula)}
    return any(amount in seg.text and _OVER.search(seg.text)
               for amount in multiplied for line in used for seg in line.segments)


# A price for several taken together ("두 회차를 함께 신청하면 15,000원", "세트로 사면"): a product of the single price
# by a count may be what the line prices otherwise, unless the claim says it pays them apart ("따로 내면 32,000원").
_BUNDLE = re.compile(r"함께|같이|묶음|세트|패키지|한꺼번에|모두\s*신청|동시에")
_APART = re.compile(r"따로|각각|개별|낱[가-힣]|하나씩|한\s*(?:장|개|권|병)씩")


def _bundle_left_out(claim: str, formulas: list[str], used: list[Line]) -> bool:
    """A product from a line that also gives a bundle's price the formulas never used (``_BUNDLE``)."""
    if "×" not in " ".join(formulas) or _APART.search(normalise(claim)):
        return False
    shown = " ".join(formulas)
    return any(v.kind == "money" and _money(v.alts[0][0]) not in shown
               for line in used for seg in line.segments if _BUNDLE.search(seg.text) for v in seg.values)


_EXTRA = re.compile(r"별도|추가|따로")
_AMOUNT_RANGE = re.compile(r"원\s*[~∼]\s*\d")  # "10,000원 ~ 20,000원이 추가": either end may be the one taken


def _extra_left_out(formulas: list[str], used: list[Line]) -> bool:
    """A charge a used line adds apart ("스케이트 대여 1,000원 별도") that no formula took: "2,000원 + 3,000원 = 5,000원"
    from that line may be a total that forgot it. Not for a range of charges, whose one end the claim may take."""
    shown = " ".join(formulas)
    return any(v.kind == "money" and v.alts[0][0] > 0 and _money(v.alts[0][0]) not in shown
               for line in used for seg in line.segments if _EXTRA.search(seg.text) and not _AMOUNT_RANGE.search(seg.text)
               for v in seg.values)


def _lines_that(index: SourceIndex, numbers: list[int], holds: Callable[[Line], bool]) -> set[int]:
    """Which of these lines (by number) the test holds for."""
    wanted = set(numbers)
    return {line.number for line in index.lines if line.number in wanted and holds(line)}


def _amount_lines(index: SourceIndex, numbers: list[int]) -> set[int]:
    """Which of these lines state an amount of money a computation could have used."""
    return _lines_that(index, numbers, lambda line: any(v.kind == "money" and v.role in ("point", "max", "min")
                                                        for v in _line_values(line)))


# A rule that changes an amount without stating one: "둘째 아이부터는 이용료를 절반만 받습니다", "회원은 10% 할인".
_CHANGES_AN_AMOUNT = re.compile(r"절반|반값|반액|할인|할증|%|퍼센트|면제|감면|깎")


def _rule_lines(index: SourceIndex, numbers: list[int]) -> set[int]:
    """Which of these lines state a rule that changes an amount (``_CHANGES_AN_AMOUNT``). A total that leaves out such a
    line the learner cited ("3,000원 × 4시간 × 2명 = 24,000원" citing the half-price rule for a second child) is what
    a model's wrong total looks like: reproducing it without the rule says nothing of whether the rule applied."""
    return _lines_that(index, numbers, lambda line: any(_CHANGES_AN_AMOUNT.search(seg.text) for seg in line.segments))


_OPERANDS = ("money", "time", "dur")


def _claim_values(claim: str) -> list[tuple[Value, bool]] | None:
    """The claim's values, each with whether its clause is plain (not negated); None when none is certain, and
    None when the analysis kept fewer amounts, times and durations than the claim states (a clause keeps at most
    ``MAX_CLAIM_VALUES`` values): a claim read in part ("1인 1일 … 2명 × 5일 × 2,000원 = 20,000원" losing its result)
    is not judged. A citation "(6)" or a weekday past the bound loses nothing the check uses."""
    stated = [v for v in extract_values(claim)[0] if v.kind in _OPERANDS and v.role != "within"]
    out = []
    for part in analyse_claim(claim):
        for value in part.values:
            if value.kind in ("weekday", "num", "approx") or value.role == "within":
                continue
            out.append((value, part.negators == 0))
    if len(stated) > sum(1 for value, _ in out if value.kind in _OPERANDS):
        return None
    return out or None


def _multipliers(claim_values: list[Value]) -> list[tuple[float, str]]:
    """The claim's own counts and durations, as factors: 두 시간 (2, in hours), 3명, 2박, 3일."""
    out: list[tuple[float, str]] = []
    for value in claim_values:
        amount = value.alts[0][0]
        if value.kind == "dur":
            if amount % 1440 == 0:
                out.append((amount / 1440, _duration(amount)))
            if amount % 60 == 0 or amount % 30 == 0:
                out.append((amount / 60, _duration(amount)))
        elif value.kind.startswith("count:") and "@" not in value.kind and value.kind not in ("count:배", "count:%"):
            out.append((amount, _number(amount) + value.kind.split(":", 1)[1]))
    return [(factor, label) for factor, label in out if 1 < factor <= 31]


# A factor the claim writes in its own arithmetic, with no unit after it: "3,000원 × 2 = 6,000원".
_WRITTEN_FACTOR = re.compile(r"[×xX*]\s*(\d{1,2})(?![\d,.]|\s*(?:원|%|시간|분|일|명|회|번|개|장|권))")
# A count with its unit the claim multiplies by in its own arithmetic: "2,000원 × 3일 = 6,000원".
_WRITTEN_COUNT = re.compile(r"[×xX*]\s*(\d{1,2})\s*(일|명|회|번|개|장|권|대|박|시간|주|달|개월)(?![가-힣])")
# A price per a unit the value reader does not know as a counter: "한 포트에 500원", "봉투당 1,000원".
# A table's column read with its header (``tables``) names the price between: "1되당 삯 9,000원", "공동구매가(1대) 60,000원".
_PER_UNIT = re.compile(r"(?:(?<![가-힣])한|1)\s*([가-힣]{1,3})(?:\([^)]*\))?\s*(?:에|당|마다)\s*(?:[가-힣]{1,4}\s+)?[\d,]+\s*원"
                       r"|(?<![가-힣])([가-힣]{1,3})당\s*[\d,]+\s*원"
                       r"|[가-힣]\((?:1|한)\s*([가-힣]{1,3})\)\s*[\d,]+\s*원")


def _lengths(claim: str, given: list[Line], *, ranged: bool = False) -> list[tuple[float, int, int | None, frozenset[int]]]:
    """An event's length as a shift from its start, for a claim about when it ends ("11시에 시작해 40분 동안 하니
    11시 40분에 끝나요" of "오전 11시, 오후 2시 두 차례, 회당 40분") or that gives it as a range (``ranged``)."""
    if not ranged and not _END_WORDS.search(normalise(claim)):
        return []
    return [(v.alts[0][0], 1, 0, frozenset({line.number})) for line in given for seg in line.segments
            for v in seg.values if v.kind == "dur" and _LENGTH.search(seg.text)
            and not (_BEFORE.match(seg.text, v.span[1]) or _AFTER.match(seg.text, v.span[1]))]


def _unit_counts(claim: str, given: list[Line]) -> list[tuple[float, str]]:
    """The claim's counts of a unit a line prices one of ("모종 6포트는 3,000원" of "한 포트에 500원"), as factors."""
    units = {unit for line in given for seg in line.segments for pattern in (_PER_UNIT, _PER_UNIT_TIME)
             for found in pattern.finditer(seg.text) for unit in found.groups() if unit}
    out = []
    for unit in sorted(units):
        pattern = rf"(?<![\d,.가-힣])(\d{{1,2}}|{NATIVE_NUMERAL_RE})\s*{re.escape(unit)}(?=[은는이가을를도만씩에과와면]|[^가-힣]|$)"
        for count in re.finditer(pattern, normalise(claim)):
            number = int(count.group(1)) if count.group(1).isdigit() else native(count.group(1))
            out.append((float(number), f"{number}{unit}"))
    # the claim's own arithmetic: "3,000원 × 2 = 6,000원" (its result is then checked, ``_result_reproduced``)
    out += [(float(m.group(1)), m.group(1)) for m in _WRITTEN_FACTOR.finditer(normalise(claim))]
    return [(factor, label) for factor, label in out if 1 < factor <= 31]


def _explain_money(target: float, known: list[_Known], factors: list[tuple[float, str]],
                   rates: list[tuple[float, str, frozenset[int]]], *, compare: bool = False,
                   priced: frozenset[int] = frozenset(), partial: frozenset[int] = frozenset(),
                   every: bool = False) -> _Known | None:
    """``target`` as one known amount, or a sum, product, rate or (with ``compare``) difference of them.

    The ways are tried in a fixed order, simplest first, and the first that reproduces the amount wins.
    """
    for item in known:
        if abs(item.amount - target) < _EPS:
            return item
    ways = [
        lambda: _as_difference(target, known) if compare else None,
        lambda: _as_deducted(target, known, every=every),
        lambda: _as_double_product(target, known, factors),
        lambda: _as_sum(target, known, factors),
        lambda: _as_scaled(target, known, factors, rates, priced, partial),
        lambda: _as_rated_and_counted(target, known, factors, rates, priced, partial),
    ]
    return next((found for way in ways if (found := way()) is not None), None)


def _as_difference(target: float, known: list[_Known]) -> _Known | None:
    for first, second in itertools.permutations(known, 2):
        if first.amount > second.amount and abs(first.amount - second.amount - target) < _EPS:
            return _Known(target, f"{_money(first.amount)} − {_money(second.amount)} = {_money(target)}",
                          first.lines | second.lines)
    return None


def _as_deducted(target: float, known: list[_Known], *, every: bool = False) -> _Known | None:
    """A price less an amount a line takes off it ("45,000원 − 10,000원 = 35,000원"): off that price only, on its
    line or naming its fee (참가비를 10,000원씩 할인), never a topping's 7,000원 less a class discount; and not for
    everyone when the line takes it off for some ("두 번째 아이부터", read against "두 아이 모두 … 각각 35,000원")."""
    for price in known:
        for off in known:
            if price.per == "off" or off.per != "off" or (every and off.scoped):
                continue
            if not (price.lines == off.lines or price.fees & off.fees):
                continue
            if abs(price.amount - off.amount - target) < _EPS:
                return _Known(target, f"{_money(price.amount)} − {_money(off.amount)} = {_money(target)}",
                              price.lines | off.lines)
    return None


def _as_double_product(target: float, known: list[_Known], factors: list[tuple[float, str]]) -> _Known | None:
    for item in known:
        for (one, one_name), (two, two_name) in itertools.combinations(factors, 2):
            if abs(item.amount * one * two - target) < _EPS:
                return _Known(target, f"{_money(item.amount)} × {one_name} × {two_name} = {_money(target)}", item.lines)
    return None


def _as_sum(target: float, known: list[_Known], factors: list[tuple[float, str]]) -> _Known | None:
    """A sum of two to ``_MAX_TERMS`` known amounts, or such a sum times one factor of the claim."""
    # A price per some minutes or hours (10분마다 200원) is added as many times as the periods say: added once, it
    # reproduces a figure ("500원 + 200원 = 700원" for 1시간 30분) without the count that makes it right or wrong.
    addable = [item for item in known if item.amount > 0 and item.per not in ("time", "off")]
    for size in range(2, _MAX_TERMS + 1):
        for combo in itertools.combinations(addable, size):
            # a free item (무료, 0원) adds nothing: a sum with it only dresses up another formula
            total = sum(item.amount for item in combo)
            label = " + ".join(_money(item.amount) for item in combo)
            used = frozenset().union(*(item.lines for item in combo))
            if abs(total - target) < _EPS:
                return _Known(target, f"{label} = {_money(target)}", used)
            for factor, name in factors:
                if abs(total * factor - target) < _EPS:
                    return _Known(target, f"({label}) × {name} = {_money(target)}", used)
    return None


def _as_scaled(target: float, known: list[_Known], factors: list[tuple[float, str]],
               rates: list[tuple[float, str, frozenset[int]]], priced: frozenset[int] = frozenset(),
               partial: frozenset[int] = frozenset()) -> _Known | None:
    """One known amount times a factor of the claim (× 3명) or a rate of the lines (× 1.5배, × (1 − 10%)).

    A rate on a line that states an amount of its own (``priced``: "회의실은 시간당 12,000원이며 … 회의실 요금을 30%
    할인") scales only that line's amounts: 1일권 15,000원 × (1 − 30%) is no discount the line gives. A rate on a line
    that leaves a part out (``partial``: "수강료를 20% 할인합니다(보드 대여료는 할인하지 않습니다)") scales no sum the claim
    made: which of its parts the rate covers is more than the site reads.
    """
    for item in known:
        for factor, name in factors:
            if item.per == "two":
                break  # "1인 1일 2,000원" × 5일 leaves out how many people: one factor cannot make it
            if abs(item.amount * factor - target) < _EPS:
                return _Known(target, f"{_money(item.amount)} × {name} = {_money(target)}", item.lines)
        for rate, name, lines in rates:
            if (lines & priced and not item.lines & lines) or (item.summed and lines & partial):
                continue
            if abs(item.amount * rate - target) < _EPS:
                return _Known(target, f"{_money(item.amount)} × {name} = {_money(target)}", item.lines | lines,
                              rate=True)
    return None


def _as_rated_and_counted(target: float, known: list[_Known], factors: list[tuple[float, str]],
                          rates: list[tuple[float, str, frozenset[int]]], priced: frozenset[int],
                          partial: frozenset[int] = frozenset()) -> _Known | None:
    """One known amount times a rate of the lines and a count of the claim ("9,000원 × (1 − 20%) × 2명"), the rate
    under ``_as_scaled``'s rules (a rate on a priced line scales only that line's amounts; one that leaves a part out
    scales no sum)."""
    for item in known:
        if item.per:
            continue
        for rate, rate_name, lines in rates:
            if (lines & priced and not item.lines & lines) or (item.summed and lines & partial):
                continue
            for factor, name in factors:
                if abs(item.amount * rate * factor - target) < _EPS:
                    return _Known(target, f"{_money(item.amount)} × {rate_name} × {name} = {_money(target)}",
                                  item.lines | lines, rate=True)
    return None


def _anchor(text: str) -> int | None:
    """Which end of a time range a shift is counted from: 0 the start (시작 10분 전), 1 the end
    (마감 30분 전), None when the line does not say."""
    if _START_WORDS.search(text):
        return 0
    if _END_WORDS.search(text):
        return 1
    return None


def _explain_time(target: Value, times: list[tuple[Value, int]],
                  shifts: list[tuple[float, int, int | None, frozenset[int]]]) -> _Known | None:
    """A clock time as a source time shifted by a duration the lines say is before or after the
    start or the end ("폐관 30분 전": the end − 30분; "시작 10분 전": the start − 10분)."""
    wanted = [alt[0] for alt in target.alts]
    if target.role == "range":
        return _explain_range(target, times, shifts)
    for source, number in times:
        for minutes, sign, anchor, lines in shifts:
            if anchor is None:
                continue
            points = [alt[anchor] for alt in source.alts]
            symbol = "−" if sign < 0 else "+"
            for point in points:
                if True:
                    shifted = point + sign * minutes / 60
                    if any(abs(shifted - w) < _EPS for w in wanted):
                        return _Known(shifted, f"{_clock(point)} {symbol} {_duration(minutes)} = {_clock(shifted)}",
                                      lines | {number})
    return None


def _explain_range(target: Value, times: list[tuple[Value, int]],
                   shifts: list[tuple[float, int, int | None, frozenset[int]]]) -> _Known | None:
    """A claimed range ("09:00 ~ 18:00") only when both its ends are reproduced, each a time of the lines as it is
    or shifted as the lines say ("시작 1시간 전부터 … 끝나고 1시간 뒤까지"): one end shifted and the other copied from
    the event's own end ("09:00 ~ 17:00") is not the range the line gives."""
    start, end = target.alts[0]
    found = [_explain_time(Value("time", ((point, point),), "point"), times, shifts) for point in (start, end)]
    if found[0] is None and found[1] is not None and found[1].label.startswith(f"{_clock(start)} + "):
        # "11:00 ~ 12:10" of "오전 11시 … 공연 시간 70분": the start as the line gives it, the end that start plus its length
        found[0] = _copied_time(Value("time", ((start, start),), "point"), times)
    if any(item is None for item in found):
        return None
    labels = "; ".join(item.label for item in found if item is not None and item.label)
    lines = frozenset().union(*(item.lines for item in found if item is not None))
    return _Known(start, f"{labels} → {_clock(start)}~{_clock(end)}", lines)


def _explain_duration(target: Value, times: list[tuple[Value, int]],
                      durations: list[tuple[float, frozenset[int]]]) -> _Known | None:
    """A duration as the length of a source time range (16시~17시 = 1시간) or a sum of two (14일 + 7일)."""
    wanted = target.alts[0][0]
    for (one, one_lines), (two, two_lines) in itertools.combinations([d for d in durations if d[1]], 2):
        if abs(one + two - wanted) < _EPS:
            return _Known(wanted, f"{_duration(one)} + {_duration(two)} = {_duration(wanted)}", one_lines | two_lines)
    for source, number in times:
        if source.role != "range":
            continue
        for start, end in source.alts:
            if abs((end - start) * 60 - wanted) < _EPS:
                return _Known(wanted, f"{_clock(start)}~{_clock(end)} = {_duration(wanted)}", frozenset({number}))
    return None


_START_WORDS = re.compile(r"시작|개관|개장|개점|출발|입실|오픈|열기")
_END_WORDS = re.compile(r"마감|종료|폐관|폐장|폐점|끝|닫|퇴실|퇴장|도착|나와|나오|나가")
_BEFORE = re.compile(r"\s*(?:전|이전|앞)")
_AFTER = re.compile(r"\s*(?:후|뒤|이후|지나)")
# A duration that is an event's length ("회당 40분", "50분 동안", "약 2시간 소요"), not a gap or a limit.
_LENGTH = re.compile(r"\d+\s*(?:시간|분)(?:\s*(?:동안|씩|소요|진행|수업|운영))|(?:회당|회마다|매회|회차마다|회차당|1회|한\s*번에|각)\s*\d+\s*(?:시간|분)"
                     r"|(?:이용|수업|진행|운영|관람|체험|공연|상영|강의|강연|교육|실습|경기)\s*시간\s*(?:은|는|:)?\s*(?:약\s*)?\d+\s*(?:시간|분)"
                     r"|\d\s*(?:시|분)\s*부터\s*\d+\s*(?:시간|분)(?!\s*(?:전|뒤|후|이내|안에|까지))")
_PER_MINUTES = re.compile(r"\d+\s*분\s*(?:마다|당)")
_COMPARE = re.compile(r"보다|차이|비싸|싸[요다고]|저렴")
_PER_WEEK = re.compile(r"(?<![가-힣])(?:주|매주|일주일에|한\s*주에|1주일에|1주에)(?![가-힣])")
_DAY_NAMES = "월화수목금토일"


def _weekly_count(claim: str, values: list[Value], given: list[Line]) -> tuple[str, frozenset[int]] | None:
    """"주 2회" or "일주일에 세 번" as the number of weekdays one line names (화·목 = 주 2회)."""
    counts = [v for v in values if v.kind in ("count:번@week", "count:번")]
    if len(counts) != 1 or (counts[0].kind == "count:번" and not _PER_WEEK.search(claim)):
        return None
    named = [(line.number, seg.days) for line in given for seg in line.segments
             if seg.days and not any(day > 6 for day in seg.days)]
    sets = {days for _, days in named}
    if len(sets) != 1:
        return None
    days = next(iter(sets))
    if abs(len(days) - counts[0].alts[0][0]) > _EPS:
        return None
    names = "·".join(_DAY_NAMES[day] for day in sorted(days))
    return f"{names} = 주 {len(days)}회", frozenset(number for number, _ in named)


_TABLE_ROW = re.compile(r"\s*\|[^|\n]*\|[^|\n]*\|")


def _row_of_amounts(claim: str, claimed: list[tuple[Value, bool]]) -> bool:
    """A table row stating more than one amount (the value reader's amounts, not a pattern of its own)."""
    return bool(_TABLE_ROW.match(claim)) and sum(1 for value, _ in claimed if value.kind == "money") > 1


def computation(source: str | list[str], claim: str, lines: list[int], *,
                cited: list[int] | None = None) -> Computation | None:
    """How every amount, time and duration the claim states follows from ``lines``, if one at least is computed.

    None when a value cannot be reproduced, when all are merely copied (that is restating,
    not computing), when a clause with a value is negated, or when the claim is a table row with
    several amounts: which of the model's columns stands for which of the source's is beyond this
    check ("| 일반 셀러(2일) | 100,000원 | 50,000원 |" doubles one column and copies the other's day rate).
    Also None when a line used states a rounding rule (1시간 단위로 올림): the check multiplies exactly.

    ``cited``: the lines the learner cited, for a verdict. Then a cited line with an amount, or with a rule that
    changes one (``_rule_lines``), the computation never used makes it None too: a total that leaves out the rental
    line the learner cited (25,000원 +
    5,000원 + 2,000원 = 32,000원 without 암벽화 4,000원, 초크 1,000원) is what a model's wrong total looks like, and
    reproducing it from some of the lines says nothing of whether the rest belonged in it.
    """
    index = index_for(read_tables(_lines(source)))
    wanted = set(lines)
    given = [line for line in index.lines if line.number in wanted and line.segments]
    claimed = _claim_values(normalise(claim))
    if (not given or claimed is None or not all(plain for _, plain in claimed) or _row_of_amounts(claim, claimed)
            or (dated := _dated_steps(claim, given)) is None):
        return None
    # "16일은 화요일" is a date (the reader takes a day without its month for a length of days): not an operand
    dated_days = {float(day) * 1440 for day, _ in weekday_dates(normalise(claim))}
    values = [value for value, _ in claimed if not (value.kind == "dur" and value.alts[0][0] in dated_days)]
    stated = frozenset(v.alts[0][0] for v, _ in claimed if v.kind == "money")
    conditional = not _states_its_case(claim)
    known = [_Known(v.alts[0][0], _money(v.alts[0][0]), frozenset({line.number}),
                    per="off" if _DEDUCTED.match(seg.text, v.span[1]) else _priced_per(seg.text),
                    fees=frozenset(_FEE.findall(seg.text)), scoped=bool(_SOME_ONLY.search(seg.text)))
             for line in given for seg in line.segments for v in seg.values
             if v.kind == "money" and v.role in ("point", "max", "min") and not _REPLACED.match(seg.text, v.span[1])
             and not (conditional and (_unmet_condition(seg.text, v, normalise(claim), stated)
                                       or _only_for_unnamed(seg.text, normalise(claim))))]
    # The asker's own case, an amount the claim supposes ("부품값이 10,000원이면 30% 할인돼 7,000원"): an operand, no line's
    known += [_Known(v.alts[0][0], _money(v.alts[0][0]), frozenset()) for v, _ in claimed
              if v.kind == "money" and _SUPPOSED.match(normalise(claim), v.span[1])]
    rates = _line_rates(given)
    priced = frozenset(_amount_lines(index, [line.number for line in given])) if rates else frozenset()
    partial = frozenset(line.number for line in given if any(_LEFT_OUT.search(seg.text) for seg in line.segments))
    times = [(v, line.number) for line in given for v in _line_values(line) if v.kind == "time"]
    unnamed = _cases_unnamed(normalise(claim), given)
    lengths = [(v, number) for v, number in times if (number, v.alts) not in unnamed]
    durations = [(v.alts[0][0], frozenset({line.number})) for line in given for v in _line_values(line)
                 if v.kind == "dur"]
    shifts = [(v.alts[0][0], -1 if _BEFORE.match(seg.text, v.span[1]) else 1, _anchor(seg.text), frozenset({line.number}))
              for line in given for seg in line.segments for v in seg.values
              if v.kind == "dur" and (_BEFORE.match(seg.text, v.span[1]) or _AFTER.match(seg.text, v.span[1]))]
    shifts += _lengths(claim, given, ranged=any(v.kind == "time" and v.role == "range" for v in values))
    durations += [(v.alts[0][0], frozenset()) for v in values if v.kind == "dur"]
    # A price per some minutes ("10분마다 500원") is not multiplied by hours: the claim's durations are no factors.
    per_minutes = any(_PER_MINUTES.search(seg.text) for line in given for seg in line.segments)
    factors = _multipliers([v for v in values if not (per_minutes and v.kind == "dur")]) + _unit_counts(claim, given)
    repeated = _repeated_lengths(given, factors)
    formulas: list[str] = []
    steps: list[tuple[int, ...]] = []
    used: set[int] = set()
    computed = rate_used = money_computed = False
    results: list[float] = []  # the values reproduced by a formula, not copied
    copied: list[tuple[Value, frozenset[int]]] = []  # the claim's values taken as they are from lines
    compare = _COMPARE.search(normalise(claim)) is not None
    every = _EVERY.search(normalise(claim)) is not None
    weekly = _weekly_count(normalise(claim), values, given)
    for formula, found_lines in [*dated, *([weekly] if weekly else [])]:
        formulas.append(formula)
        steps.append(tuple(sorted(found_lines)))
        used |= found_lines
        computed = True
    pending = [v for v in values if v.kind in ("money", "time", "dur")]
    if not pending:
        return Computation(formulas=tuple(formulas), lines=tuple(sorted(used)), steps=tuple(steps)) if computed else None
    for _ in range(len(pending) + 1):  # a value explained can be the operand of the next (7,500원 × 2)
        progress = False
        for value in list(pending):
            if value.kind == "money" and value.role in ("point", "max", "min"):
                found = _explain_money(value.alts[0][0], known, factors, rates, compare=compare, priced=priced,
                                       partial=partial, every=every)
            elif value.kind == "time":
                found = _copied_time(value, times) or _explain_time(value, times, shifts)
            elif value.kind == "dur":
                supposed = bool(factors) and any(v.kind == "money" for v in pending)
                found = _found_duration(value, lengths, durations, repeated, supposed=supposed)
            else:
                found = None
            if found is None:
                continue
            pending.remove(value)
            progress = True
            used |= found.lines
            rate_used = rate_used or found.rate
            if "=" in found.label:
                results.append(value.alts[0][0])
                computed = True
                formulas.append(found.label)
                steps.append(tuple(sorted(found.lines)))
                if value.kind == "money":
                    money_computed = True
                    known.append(_Known(value.alts[0][0], _money(value.alts[0][0]), found.lines,
                                        summed=" + " in found.label))
            else:
                copied.append((value, found.lines))
        if not pending or not progress:
            break
    # A comparison with no amount computed: in "2시간 넘게 탈 계획이라면 당일권(5,000원)이 더 저렴합니다" the claim's point
    # is the comparison, and a duration that happens to add up (1시간 + 1시간) reproduces none of it.
    if pending or not computed or (compare and not money_computed) or (
            not rate_used and _rate_left_out(values, given, rates)) or not _result_reproduced(claim, results, formulas):
        return None
    used_lines = [line for line in given if line.number in used]
    if _beyond_the_check(index, claim, formulas, used_lines, cited) or _count_unchecked(claim, values, formulas, given) \
            or _copied_from_another(index, normalise(claim), copied) \
            or _sum_of_one_named(normalise(claim), formulas, used_lines):
        return None
    return Computation(formulas=tuple(formulas), lines=tuple(sorted(used)), steps=tuple(steps))


# Words that name a total, not one of its operands: "합계: 45,000원 + 35,000원 = 80,000원".
_TOTAL_WORDS = frozenset({"합계", "총", "총액", "총합", "소계", "합", "계", "모두", "전부", "다"})


def _cases_unnamed(claim: str, given: list[Line]) -> set[tuple[int, tuple]]:
    """Time ranges of a line that gives several, one per case ("평일 오전 9시 ~ 오후 8시, 토·일요일 오전 10시 ~ 오후
    6시"), whose case the claim does not name: "모두 11시간이에요" may be the weekend's day, so the weekday range's
    length backs nothing. A case is named by a word of its label or its days ("평일에는 11시간")."""
    said = _label_words(claim)
    days = frozenset().union(*(v.days for v in extract_values(claim)[0] if v.kind == "weekday"))
    out = set()
    for line in given:
        ranges = [(seg, v) for seg in line.segments for v in seg.values if v.kind == "time" and v.role == "range"]
        if len({tuple(hi - lo for lo, hi in v.alts) for _, v in ranges}) < 2:
            continue  # one range, or sessions of one length ("10시~11시 30분, 14시~15시 30분"): no case to name
        for seg, v in ranges:
            label = _label_of(seg, v)
            words = _label_words(label)
            cases = [o.days for o in extract_values(label)[0] if o.kind == "weekday"]
            if (words or cases) and not (any(word_similarity(a, b) >= _NAMED for a in words for b in said)
                                         or any(case & days for case in cases)):
                out.add((line.number, v.alts))
    return out


_NAMED = 0.9  # a claim's word names a label as the checks' NEAR_WORD does: the word itself, or nearly


def _label_of(segment: Segment, value: Value) -> str:
    """What a clause puts before one of its values to say whose it is: the text after the value of its kind before it,
    or after the line's own label ("수강료: 기초반 월 20,000원" gives 기초반; 수강료 is every amount's)."""
    start = max((other.span[1] for other in segment.values if other.kind == value.kind and other.span[1] <= value.span[0]),
                default=segment.text.find(":", 0, value.span[0]) + 1)
    return segment.text[start:value.span[0]]


def _label_words(text: str) -> list[Word]:
    """The content words of a stretch of text that names an amount ("대형 세탁기", "건조기 40분"), figures and words
    for a total aside."""
    return [word for word in analyse(text, claim=True).words
            if not word.light and word.stem not in _TOTAL_WORDS and not re.search(r"\d", word.surface)]


def _copied_from_another(index: SourceIndex, claim: str, copied: list[tuple[Value, frozenset[int]]]) -> bool:
    """An amount the claim states, taken as it is from one line while the claim gives it to what another line prices:
    "건조기 40분 4,000원" names the dryer of "건조기: 10분에 1,000원", so it is not the "중형(12kg) 1회 4,000원" of the
    washers' line, whatever sum it makes. The claim's words before the amount (after the amount before it) decide;
    words no line has ("어머님은", "첫째는") name the asker's people and leave the amount as it is."""
    amounts = sorted(v.span for v in extract_values(claim)[0] if v.kind == "money")
    priced = [line for line in index.lines if any(v.kind == "money" for v in line.values)]
    title = [line for line in index.lines if line.number == 1]
    for value, lines in copied:
        if value.kind != "money":
            continue
        before = max((end for _, end in amounts if end <= value.span[0]), default=0)
        # the notice's own name ("… 할인 행사") and a word for any price ("가격") name no one line's thing
        words = [word for word in _label_words(claim[before:value.span[0]]) if "@price" not in word.concepts
                 and not any(index.match(word, line) >= MATCHED_WORD for line in title)]
        if not words or any(index.match(word, line) >= MATCHED_WORD for word in words for line in priced
                            if line.number in lines):
            continue
        if any(index.match(word, line) >= MATCHED_WORD for word in words for line in priced if line.number not in lines):
            return True
    return False


def _sum_of_one_named(claim: str, formulas: list[str], used: list[Line]) -> bool:
    """A sum of two amounts one line gives side by side, of which the claim names one only: "장원 상금은 30만 원" names
    the 장원 of "장원 1명(상금 20만 원), 차상 2명(각 10만 원)" and not the 차상, so 20만 + 10만 is a coincidence, not its
    working. An amount is named by a word or figure its line puts before it ("1박 숙박료" by "1박에"), or by the claim
    stating it. Amounts of different lines (a fee, a surcharge, a rental) may be summed with some left unnamed."""
    said = _label_words(claim)
    claimed = extract_values(claim)[0]
    stated = {v.alts[0][0] for v in claimed if v.kind == "money"}
    figures = {(v.kind, v.alts) for v in claimed if v.kind != "money"}
    for formula in formulas:
        if " + " not in formula:
            continue
        by_line: dict[int, set[bool]] = {}
        for found in re.findall(r"([\d,]+)원", formula.split("=")[0]):
            amount = float(found.replace(",", ""))
            for line in used:
                for seg in line.segments:
                    for v in seg.values:
                        if v.kind != "money" or abs(v.alts[0][0] - amount) >= _EPS:
                            continue
                        label = _label_of(seg, v)
                        words = _label_words(label)
                        if not words and amount not in stated:
                            continue  # a label of figures only ("4주 60,000원") names nothing either way
                        named = amount in stated or any(
                            word_similarity(a, b) >= _NAMED for a in words for b in said) or any(
                            (o.kind, o.alts) in figures for o in extract_values(label)[0] if o.kind != "money")
                        by_line.setdefault(line.number, set()).add(named)
        if any(len(named) > 1 for named in by_line.values()):
            return True
    return False


# A line that leaves a part out of its rate or price: "(보드 대여료는 할인하지 않습니다)", "재료비 제외".
_LEFT_OUT = re.compile(r"(?:할인|적용)\s*(?:하지|되지|받지)\s*않|제외|빼고")
# What a line's discount or surcharge depends on: the clause before its "…면" ("2인 이상 함께 신청하면 1인당 5,000원 할인").
_CONDITION_BEFORE = re.compile(r"([^,()]*?)(?:으면|면)(?![가-힣])")
_SHOWS_WORK = re.compile(r"할인|빼|차감|감면|깎|[−-]\s*\d|\d\s*(?:원|명|개|회)?\s*=")
_CONDITION_WORD = re.compile(r"\d+\s*[가-힣]+|[가-힣]{2,}")


def _unmet_condition(text: str, value: Value, claim: str, stated: frozenset[float]) -> bool:
    """An amount taken off only in a case its clause names ("2인 이상 함께 신청하면 1인당 5,000원 할인") that the claim
    does not name at all, nor any case of its own, nor the discount itself: "수강료는 1인 40,000원입니다" is 45,000원 −
    5,000원 only for two or more, and the claim says nothing of them, so the discount is no operand of its
    computation. A claim that shows the discount or its own working ("5,000원 − 2,000원 = 3,000원", "할인돼서", "45,000원 +
    35,000원 = 80,000원") states its premise, and the computation checks its arithmetic. ``claim`` is normalised, and
    ``stated`` holds its amounts."""
    span = value.span
    if not _DEDUCTED.match(text, span[1]) or value.alts[0][0] in stated:
        return False
    conditions = list(_CONDITION_BEFORE.finditer(text, 0, span[0]))
    if not conditions:
        return False
    return _names_none_of(conditions[-1].group(1), claim, ignored={"이상", "이하", "경우"})


# A clause that gives its amount to some only: "(사전 신청한 조만 해당)", "회원에 한해".
_ONLY_FOR = re.compile(r"([가-힣][가-힣\s]{1,20}?)\s*(?:만\s*해당|에\s*한(?:해|하여|함))")


def _only_for_unnamed(text: str, claim: str) -> bool:
    """An amount of a clause that gives it to some only ("자가용으로 배달하는 조에는 유류비 1만 원을 추가로 드립니다(사전
    신청한 조만 해당)") for a claim that names none of them: "유류비 | 10,000원 × 5일 | 50,000원" drops the condition, so
    the amount is no operand of its computation (as ``_unmet_condition`` for a discount). ``claim`` is normalised."""
    found = _ONLY_FOR.search(text)
    return found is not None and _names_none_of(found.group(1), claim, ignored={"경우", "해당"})


def _names_none_of(condition: str, claim: str, *, ignored: set[str]) -> bool:
    """Whether a condition has words (``_CONDITION_WORD``, but ``ignored``) and the claim names none of them, by their
    first two syllables ("함께 신청" by "함께", "사전 신청한 조" by "사전")."""
    words = {word.replace(" ", "") for word in _CONDITION_WORD.findall(condition)} - ignored
    said = claim.replace(" ", "")
    return bool(words) and not any(word[:2] in said for word in words)


def _states_its_case(claim: str) -> bool:
    """A claim with a case of its own ("친구분과 오시면 1인 40,000원"), which may be the line's, or that shows the discount
    or its working: no condition of a line's discount goes unmet in it (``_unmet_condition``)."""
    return bool(_CONDITION_BEFORE.search(normalise(claim)) or _SHOWS_WORK.search(claim))


_SUPPOSED = re.compile(r"\s*(?:짜리|어치)?\s*(?:이면|면|라면|이라면|일\s*때|짜리면)(?![가-힣])")
_FEE = re.compile(r"[가-힣]*(?:비|료|요금|금)(?=[을를은는이가도의:]|에서|에|\s|$)")
_SOME_ONLY = re.compile(r"째|부터|이상|만\s")
_EVERY = re.compile(r"(?<![가-힣])(?:모두|각각|둘\s*다|전부|모든|똑같이)(?![가-힣])")
_DEDUCTED = re.compile(r"\s*(?:씩\s*)?(?:을\s*|를\s*)?(?:할인|빼|차감|감면|깎)")
_REPLACED = re.compile(r"\s*(?:→|->|⇒|⟶)")  # "3,000원 → 2,000원": the first price is the one replaced
_PER_TIME = re.compile(r"(?:\d+\s*)?(?:분|시간)\s*(?:마다|당)")
_PER_PERSON = re.compile(r"(?:1\s*인|한\s*사람|1\s*명)(?:당)?(?![가-힣])|인당")
_PER_DAY = re.compile(r"(?:1\s*일|하루|1\s*박)(?:당)?(?![가-힣])|일당")
_EQUATION_RESULT = re.compile(r"=\s*([^=]+)$")


def _priced_per(text: str) -> str:
    """How a line's clause prices: "time" per some minutes or hours, "two" per person and per day, else ""."""
    if _PER_TIME.search(text):
        return "time"
    if _PER_PERSON.search(text) and _PER_DAY.search(text):
        return "two"
    return ""


def _result_reproduced(claim: str, results: list[float], formulas: list[str]) -> bool:
    """Whether a claim that writes out its own arithmetic ("4,000원 × 2회 = 8,000원") has its result, the amount
    after the last "=", reproduced by a formula: reproducing one of its operands instead (8,000원 × (1 − 50%) =
    4,000원) while the result is merely a figure of the lines says nothing of the claim's own step."""
    found = _EQUATION_RESULT.search(normalise(claim))
    if found is None:
        return True
    # every factor it writes is one a formula used: "500원 × 2점 × 3일 = 1,500원" drops its 2점
    if any(not re.search(rf"× {factor}(?!\d)", " ".join(formulas)) for factor in _WRITTEN_FACTOR.findall(normalise(claim))):
        return False
    # and so is every count with its unit it multiplies by ("2,000원 × 3일"): "2,000원 + 3,000원 + 1,000원" reaches the
    # same 6,000원 from other figures of the lines, and says nothing of the claim's product
    if any(not re.search(rf"× {count}(?![\d,.])", " ".join(formulas))  # its unit may be named otherwise (5회, 5번)
           for count, _unit in _WRITTEN_COUNT.findall(normalise(claim))):
        return False
    stated = _claim_values(found.group(1))
    amounts = [value.alts[0][0] for value, _ in stated or () if value.kind == "money"]
    return not amounts or any(abs(amounts[0] - result) < _EPS for result in results)


# Words that say which day without saying what happens on it ("마지막 날인 25일은 목요일")
_DATE_TALK = frozenset({"마지막", "날", "날인", "첫날", "그날", "날짜", "요일", "전날", "다음", "첫", "둘째", "셋째", "이니", "이니까"})
_DATED_DAY = re.compile(r"(\d{1,2})\s*일\s*(?:[은는이도]\s+|,\s*)?(?:\(\s*([월화수목금토일])\s*\)|([월화수목금토일])요일)")


def weekday_dates(text: str) -> set[tuple[str, str]]:
    """The dates ``text`` gives with their weekdays ("16일은 화요일", "13일(금)") as (day, weekday) pairs."""
    return {(m.group(1), m.group(2) or m.group(3)) for m in _DATED_DAY.finditer(text)}


_MONTH_DAY = re.compile(r"(\d{1,2})\s*월\s*\d{1,2}\s*일")


@dataclass(frozen=True)
class Calendar:
    """How the weekdays a claim gives its dates stand to the source's calendar: ``agrees`` or not, the steps shown
    ("19일(금) − 13일 = 6일(토)", each with the weekday the calendar gives) and the dated lines they count from."""

    agrees: bool
    formulas: tuple[str, ...]
    lines: tuple[int, ...]

    @property
    def text(self) -> str:
        return ", ".join(self.formulas)


def calendar(source: str | list[str], claim: str) -> Calendar | None:
    """For a claim that says nothing but dates and their weekdays ("6일은 토요일입니다", "31일 | 수요일"): whether they
    follow the calendar the source's own dated weekdays fix ("19일(금)"), on whichever lines those are.

    Preconditions, else None (the site cannot tell): the source gives at least one date with its weekday and its
    dated weekdays agree on one calendar; each date of the claim lies within two weeks of one of them (days come
    without a month, and a month's end would break the count); no month other than one is named anywhere (a "2월 3일"
    is not on January's calendar); and the claim says nothing else of the day (``_DATE_TALK``): "6일은 토요일이라
    접수하지 않습니다" also states a rule, which this check does not read.
    """
    text = normalise(claim)
    stated = weekday_dates(text)
    lines = _lines(source)
    if not stated or not _only_dates(text) or not _one_month([claim, *lines]):
        return None
    anchors: dict[tuple[str, str], int] = {}
    for number, line in enumerate(lines, start=1):
        for pair in weekday_dates(normalise(line)):
            anchors.setdefault(pair, number)
    in_order = sorted(stated, key=lambda pair: int(pair[0]))
    counted = _counted(in_order, anchors, later_in_month=_no_other_month([claim, *lines]))
    if counted is None:
        return None
    return Calendar(agrees=all(right == name for (_, name), (_, _, right) in zip(in_order, counted, strict=True)),
                    formulas=tuple(step for step, _, _ in counted), lines=tuple(sorted({n for _, n, _ in counted})))


def _only_dates(text: str) -> bool:
    """Whether ``text`` says nothing but dates, their weekdays and words about which day (``_DATE_TALK``):
    "16일(일): 오전 특별 접종" also puts an event on the day."""
    return not any(not word.light and word.stem not in _DATE_TALK
                   for part in analyse_claim(_DATED_DAY.sub(" ", text)) for word in part.words)


# A source that reaches into another month without naming it ("다음 달 3일", "내년"): its days are not all one month's.
_ANOTHER_MONTH = re.compile(r"다음\s*달|내달|익월|다음\s*해|내년|새해|말일|월말|월초")


def _no_other_month(texts: list[str]) -> bool:
    """Whether the texts reach into no month but their own (the callers have already required ``_one_month``): none
    by word, and no range of days that runs past a month's end ("28일부터 3일까지")."""
    return not any(_ANOTHER_MONTH.search(text) for text in texts) and not any(
        int(end) < int(start) for text in texts for start, end in _DAY_RANGE.findall(normalise(text)))


_DAY_RANGE = re.compile(r"(\d{1,2})\s*일(?:\s*\(\s*[월화수목금토일]\s*\))?\s*(?:부터|~|-|–|—)\s*(?:[가-힣]+\s+)?(\d{1,2})\s*일")


def _one_month(texts: list[str]) -> bool:
    """Whether the texts name at most one month: "2월 3일" is not on the calendar of "1월 5일(화)", and days are
    counted without months."""
    return len({month for text in texts for month in _MONTH_DAY.findall(normalise(text))}) <= 1


def _counted(stated: list[tuple[str, str]], anchors: dict[tuple[str, str], int], *,
             later_in_month: bool = False) -> list[tuple[str, int, str]] | None:
    """Each stated date's weekday as the calendar of ``anchors`` (dated weekdays, by line) gives it: the step shown
    ("19일(금) − 13일 = 6일(토)", or the date alone where an anchor gives it), the anchor's line and the weekday. None
    when the anchors fix no single calendar or a date lies more than two weeks from all of them (a month may end),
    unless ``later_in_month``: a day without its month is read in the source's month (issue 17), so a later day of
    it ("1일(일)" … "27일") counts from the latest anchor before it; an earlier day far back may be the next month's."""
    offsets = {(int(day) - _DAY_NAMES.index(name)) % 7 for day, name in anchors}
    if len(offsets) != 1:
        return None
    offset = offsets.pop()
    out = []
    for day, _name in stated:
        (near, near_name), number = min(anchors.items(), key=lambda item: (abs(int(item[0][0]) - int(day)),
                                                                            int(item[0][0])))
        gap = int(day) - int(near)
        earlier = [item for item in anchors.items() if int(item[0][0]) <= int(day)]
        if abs(gap) > 14 and later_in_month and earlier:
            (near, near_name), number = max(earlier, key=lambda item: int(item[0][0]))
            gap = int(day) - int(near)
        elif abs(gap) > 14:
            return None
        right = _DAY_NAMES[(int(day) - offset) % 7]
        out.append((f"{day}일({right})" if gap == 0 else
                    f"{near}일({near_name}) {'+' if gap > 0 else '−'} {abs(gap)}일 = {day}일({right})", number, right))
    return out


def _dated_steps(claim: str, given: list[Line]) -> list[tuple[str, frozenset[int]]] | None:
    """How each date's weekday the claim gives ("16일은 화요일", "13일(금)") follows from the lines, or None when one
    does not: "13일(금) 10시부터 14시까지 4시간" reproduces 4시간 but says nothing of whether 13일 is a Friday.

    A weekday a line gives with its date is copied; another date's is counted from the nearest such date, when the
    lines' dated weekdays agree on one calendar and the date is within two weeks of it ("15일(월)~17일(수)" gives
    16일 화요일: 15일(월) + 1일). Days come without a month, so a calendar the lines do not fix, or a date far from
    theirs, is beyond the check. A weekday said of no date (토요일, 주말, 평일) is the claim's case, as a count of people is.
    """
    stated = weekday_dates(normalise(claim))
    anchors: dict[tuple[str, str], int] = {}
    for line in given:
        for seg in line.segments:
            for pair in weekday_dates(seg.text):
                anchors.setdefault(pair, line.number)
    unknown = sorted(stated - set(anchors), key=lambda pair: int(pair[0]))
    if not unknown:
        return []
    if not _one_month([claim, *(seg.text for line in given for seg in line.segments)]):
        return None
    # Only the weekday: "16일(일): 오전 특별 접종" gets 16일's weekday right and puts an event no line gives on it.
    if not _only_dates(normalise(claim)):
        return None
    counted = _counted(unknown, anchors,
                       later_in_month=_no_other_month([claim, *(seg.text for line in given for seg in line.segments)]))
    if counted is None or any(right != name for (_, name), (_, _, right) in zip(unknown, counted, strict=True)):
        return None
    return [(step, frozenset({number})) for step, number, _ in counted]


def _duration_left_out(formulas: list[str], used: list[Line]) -> bool:
    """A length read off a time range ("19시~21시 30분 = 2시간 30분") from a line that also splits it into parts ("이론
    40분 뒤 실습 산행"): the claim may be about a part, and the range says nothing of it."""
    return any("~" in formula for formula in formulas) and any(
        any(v.kind == "time" and v.role == "range" for v in line.values)
        and any(v.kind == "dur" and _AFTER.match(seg.text, v.span[1]) for seg in line.segments for v in seg.values)
        for line in used)


def _rate_left_out(values: list[Value], given: list[Line], rates: list[tuple[float, str, frozenset[int]]]) -> bool:
    """A rule of the lines (주말은 1.5배, 10% 할인) that a computation which used no rate left out: it may be
    the one that applies, so the computation backs nothing. Only for a claim with an amount: a rate prices, and
    "2시간 × 4회 = 8시간" is no less right on a line that also gives "주민은 수강료 20% 할인"."""
    if not any(v.kind == "money" for v in values):
        return False
    return bool(rates) or any(
        other.kind in ("count:배", "count:%") for line in given for other in _line_values(line))


_PEOPLE = "명"


def _labelled(claim: str, formula: str, used: list[Line]) -> bool:
    """Whether the claim names the label a used line gives the formula's first amount ("어른" of "어른 5,000원")."""
    amount = re.match(r"[\d,]+원", formula)
    if amount is None:
        return False
    labels = {found.group(1) for line in used for seg in line.segments
              for found in re.finditer(rf"([가-힣]{{2,}})\s*(?:\([^)]*\))?\s*:?\s*{re.escape(amount.group())}", seg.text)}
    text = normalise(claim)
    return bool(labels) and all(re.search(rf"(?<![가-힣]){re.escape(label)}", text) for label in labels)
_FREE_OR_OTHER = re.compile(r"무료|면제|할인|반값|반액")
_GROUP_OF = re.compile(r"(\d{1,3})\s*명\s*이상")
_PEOPLE_FACTOR = re.compile(r"×\s*(\d{1,3})\s*명")


def _group_priced(formula: str, used: list[Line]) -> bool:
    """Whether the formula multiplies a price a line gives a group from some size on by a count of people of that
    size: "2,000원 × 6명" of "5명 이상 단체로 신청하면 1인 2,000원" (six are such a group; four would not be)."""
    amount, count = re.match(r"[\d,]+원", formula), _PEOPLE_FACTOR.search(formula)
    if amount is None or count is None:
        return False
    return any(amount.group() in seg.text and (least := _GROUP_OF.search(seg.text)) is not None
               and int(count.group(1)) >= int(least.group(1)) for line in used for seg in line.segments)


def _priced_apart(claim: str, formulas: list[str], used: list[Line]) -> bool:
    """A price times a number of people, from a line that prices some people apart (만 65세 이상은
    무료, 어린이 5,000원): who the people are decides the sum, and the claim does not say, so the
    product backs nothing ("두 분이 함께 맞으면 50,000원" when one of the two may be free). Unless the claim names
    the people of each price it multiplies as the line labels them ("어른 2명 10,000원" of "어른 5,000원")."""
    people = [formula for formula in formulas if _PEOPLE in formula]
    if not people or all(_labelled(claim, formula, used) or _group_priced(formula, used) for formula in people):
        return False
    for line in used:
        amounts = {v.alts[0][0] for v in _line_values(line) if v.kind == "money"}
        if len(amounts) > 1 or any(_FREE_OR_OTHER.search(segment.text) for segment in line.segments):
            return True
    return False


# A price per one of something that is not a person: "팀당 참가비 10,000원", "가구당 2장", "한 팀에 5만 원", "1대당".
_PER_THING = re.compile(r"(?<![가-힣])(?:1\s*|한\s*)?([가-힣]{1,2})\s*(?:당|마다|에)(?![가-힣])")
_PERSON_UNITS = frozenset({"인", "명", "사람", "분"})


def _priced_per_other(formulas: list[str], used: list[Line]) -> bool:
    """A product by a count of people of an amount a used line prices per something else, and not also per person:
    "10,000원 × 4명" of "2~4명이 한 팀, 팀당 참가비 10,000원" is what the team pays once, not each of four."""
    for formula in formulas:
        amount, count = re.match(r"[\d,]+원", formula), _PEOPLE_FACTOR.search(formula)
        if amount is None or count is None:
            continue
        for line in used:
            for seg in line.segments:
                if amount.group() not in seg.text or _PER_PERSON.search(seg.text):
                    continue
                units = {found.group(1) for found in _PER_THING.finditer(seg.text[:seg.text.index(amount.group())])}
                if units - _PERSON_UNITS - _TIME_UNITS:
                    return True
    return False


# An amount for each of several: "3위 두 명 각 50,000원", "2명에게 각각 1만 원".
_EACH_OF = re.compile(rf"(\d{{1,2}}|{NATIVE_NUMERAL_RE})\s*(?:명|팀|개|곳)\s*(?:\(?\s*)?(?:각|각각)\s*$")


# A claim that sums everything: "다 합하면", "모두 합쳐", "전부", "총", "합계 | 500,000원".
_ALL_OF_IT = re.compile(r"(?<![가-힣])(?:다|모두|전부|총|통틀어)(?![가-힣])|합계|총액|총합")


def _each_counted_once(formulas: list[str], used: list[Line]) -> bool:
    """A sum of everything (the caller checks ``_ALL_OF_IT``) that adds once an amount a line gives to each of several:
    "300,000원 + 150,000원 + 50,000원" of "우승 300,000원, 준우승 150,000원, 3위 두 명 각 50,000원" leaves out the second
    3위, so "다 합하면 500,000원" is not reproduced (550,000원 is). "장원과 차상 상금을 합치면" names what it adds."""
    for formula in formulas:
        if " + " not in formula or "×" in formula:
            continue
        left = formula.split("=")[0]
        for line in used:
            for seg in line.segments:
                for v in seg.values:
                    found = _EACH_OF.search(seg.text[:v.span[0]]) if v.kind == "money" else None
                    if found is None:
                        continue
                    count = int(found.group(1)) if found.group(1).isdigit() else native(found.group(1))
                    once = len(re.findall(rf"(?<![\d,]){re.escape(_money(v.alts[0][0]))}", left)) == 1
                    if count > 1 and once:
                        return True
    return False


_TIME_UNITS = frozenset({"시간", "분", "일", "박", "회", "번", "주", "달", "월", "하루", "매일", "매주", "매월"})


def _line_rates(given: list[Line]) -> list[tuple[float, str, frozenset[int]]]:
    """The multipliers the lines state: 1.5배 as 1.5, 10% as both 0.9 and 1.1 (a discount or a surcharge)."""
    rates = []
    for line in given:
        for v in _line_values(line):
            if v.kind == "count:배":
                rates.append((v.alts[0][0], f"{_number(v.alts[0][0])}배", frozenset({line.number})))
            elif v.kind == "count:%":
                share = v.alts[0][0] / 100
                rates.append((1 - share, f"(1 − {_number(v.alts[0][0])}%)", frozenset({line.number})))
                rates.append((1 + share, f"(1 + {_number(v.alts[0][0])}%)", frozenset({line.number})))
        if any(_HALF.search(seg.text) for seg in line.segments):
            rates.append((0.5, "절반", frozenset({line.number})))
    return rates


# Half a price in words: "둘째 아이부터는 이용료를 절반만 받습니다", "반값", "반액".
_HALF = re.compile(r"절반|반값|반액")


def _copied_time(value: Value, times: list[tuple[Value, int]]) -> _Known | None:
    """A clock time (or range) the lines state as it is: copied, not computed."""
    direct = [n for v, n in times if any(abs(a[0] - b[0]) < _EPS and abs(a[1] - b[1]) < _EPS
                                          for a in v.alts for b in value.alts)]
    return _Known(value.alts[0][0], "", frozenset({direct[0]})) if direct else None


def _found_duration(value: Value, times: list[tuple[Value, int]], durations: list[tuple[float, frozenset[int]]],
                    repeated: list[tuple[float, frozenset[int], float, str]], *, supposed: bool) -> _Known | None:
    """A duration the lines state, one the claim supposes for its own sum (두 시간이면 … 원), or one computed."""
    direct_lines = [lines_ for amount, lines_ in durations if lines_ and abs(amount - value.alts[0][0]) < _EPS]
    if direct_lines:
        return _Known(value.alts[0][0], "", direct_lines[0])
    if supposed:
        return _Known(value.alts[0][0], "", frozenset())
    if (found := _explain_duration(value, times, durations)) is not None:
        return found
    wanted = value.alts[0][0]
    for amount, lines, factor, name in repeated:
        if abs(amount * factor - wanted) < _EPS:
            return _Known(wanted, f"{_duration(amount)} × {name} = {_duration(wanted)}", lines)
    return None


# A length given per occasion: "활동 1회에 봉사시간 2시간", "회당 90분"; per day: "하루 5시간으로 인정"
_EACH_TIME = re.compile(r"(?:1\s*회|회당|한\s*번|매\s*회)(?:에|당|마다)?\s*(?:[가-힣]+\s*){0,2}\d+\s*(?:시간|분)")
_EACH_SUFFIX = re.compile(r"\s*씩")
_EACH_DAY = re.compile(r"(?:하루|1\s*일)(?:에|당|마다)?\s*(?:[가-힣]+\s*){0,2}\d+\s*(?:시간|분)")
# A length per one of a unit: "1되당 걸리는 시간 약 40분" (a table's column read with its header), "한 대에 1시간"
_PER_UNIT_TIME = re.compile(r"(?:(?<![가-힣])한|(?<!\d)1)\s*([가-힣]{1,2})(?:에|당|마다)\s*(?:[가-힣]{1,4}\s+){0,2}(?:약\s*)?\d+\s*(?:시간|분)")


def _repeated_lengths(given: list[Line], factors: list[tuple[float, str]]) -> list[tuple[float, frozenset[int], float, str]]:
    """A length a line gives per occasion or per day, with the claim's count of such occasions or days
    ("활동 1회에 봉사시간 2시간" and "5번": 2시간 × 5번), or a session's time range as many times as the line itself
    counts the sessions ("저녁 7시~8시 30분 (모두 4회)" and "4회": 1시간 30분 × 4회), never another count ("두 장", "3번 틀리면") or a length as a
    factor ("90분" is no 1.5 times anything)."""
    out = []
    for line in given:
        # "저녁 7시~8시 30분 (모두 4회)": each session's length, as many times as the line counts them
        counts = {v.alts[0][0] for v in line.values if v.kind in ("count:회", "count:번")}
        out += [((end - start) * 60, frozenset({line.number}), factor, name) for v in line.values
                if v.kind == "time" and v.role == "range" for start, end in v.alts[:1] if end > start
                for factor, name in factors if factor in counts]
        for seg in line.segments:
            # "오전 10시부터 2시간씩, 모두 4회": a length each time, as many times as the line itself counts them
            out += [(v.alts[0][0], frozenset({line.number}), count, f"{_number(count)}회") for v in seg.values
                    if v.kind == "dur" and _EACH_SUFFIX.match(seg.text, v.span[1]) for count in counts
                    if 1 < count <= 31 and count == int(count)]
            units = ("회", "번") if _EACH_TIME.search(seg.text) else ("일",) if _EACH_DAY.search(seg.text) else \
                tuple(found.group(1) for found in _PER_UNIT_TIME.finditer(seg.text))
            for v in seg.values:
                out += [(v.alts[0][0], frozenset({line.number}), factor, name) for factor, name in factors
                        if v.kind == "dur" and units and name.endswith(units) and factor == int(factor)]
    return out
