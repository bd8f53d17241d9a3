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
from dataclasses import dataclass

from .analysis import analyse_claim
from .hangul import normalise
from .matcher import Line, index_for
from .values import Value

_EPS = 1e-6
_MAX_TERMS = 3


@dataclass(frozen=True)
class Computation:
    """How the claim's values follow from the lines: the formulas shown, and the lines they use."""

    formulas: tuple[str, ...]
    lines: tuple[int, ...]

    @property
    def text(self) -> str:
        return ", ".join(self.formulas)


@dataclass(frozen=True)
class _Known:
    amount: float
    label: str
    lines: frozenset[int]


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


def _claim_values(claim: str) -> list[tuple[Value, bool]] | None:
    """The claim's values, each with whether its clause is plain (not negated); None when none is certain."""
    out = []
    for part in analyse_claim(claim):
        for value in part.values:
            if value.kind in ("weekday", "num", "approx") or value.role == "within":
                continue
            out.append((value, part.negators == 0))
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


def _explain_money(target: float, known: list[_Known], factors: list[tuple[float, str]],
                   rates: list[tuple[float, str, frozenset[int]]]) -> _Known | None:
    """``target`` as one known amount, or a sum, product or rate of them (one operation, or sum then product)."""
    for item in known:
        if abs(item.amount - target) < _EPS:
            return item
    for size in range(2, _MAX_TERMS + 1):
        for combo in itertools.combinations(known, size):
            total = sum(item.amount for item in combo)
            label = " + ".join(_money(item.amount) for item in combo)
            used = frozenset().union(*(item.lines for item in combo))
            if abs(total - target) < _EPS:
                return _Known(target, f"{label} = {_money(target)}", used)
            for factor, name in factors:
                if abs(total * factor - target) < _EPS:
                    return _Known(target, f"({label}) × {name} = {_money(target)}", used)
    for item in known:
        for factor, name in factors:
            if abs(item.amount * factor - target) < _EPS:
                return _Known(target, f"{_money(item.amount)} × {name} = {_money(target)}", item.lines)
        for rate, name, lines in rates:
            if abs(item.amount * rate - target) < _EPS:
                return _Known(target, f"{_money(item.amount)} × {name} = {_money(target)}", item.lines | lines)
    return None


def _explain_time(target: Value, times: list[tuple[Value, int]], durations: list[tuple[float, frozenset[int]]]) \
        -> _Known | None:
    """A clock time as a source time shifted by a duration (19시 − 30분, 10시 + 90분)."""
    wanted = [alt[0] for alt in target.alts]
    for source, number in times:
        points = [p for alt in source.alts for p in {alt[0], alt[1]}]
        for minutes, lines in durations:
            for point in points:
                for sign, symbol in ((1, "+"), (-1, "−")):
                    shifted = point + sign * minutes / 60
                    if any(abs(shifted - w) < _EPS for w in wanted):
                        return _Known(shifted, f"{_clock(point)} {symbol} {_duration(minutes)} = {_clock(shifted)}",
                                      lines | {number})
    return None


def _explain_duration(target: Value, times: list[tuple[Value, int]]) -> _Known | None:
    """A duration as the length of a source time range (16시~17시 = 1시간)."""
    wanted = target.alts[0][0]
    for source, number in times:
        if source.role != "range":
            continue
        for start, end in source.alts:
            if abs((end - start) * 60 - wanted) < _EPS:
                return _Known(wanted, f"{_clock(start)}~{_clock(end)} = {_duration(wanted)}", frozenset({number}))
    return None


def computation(source: str | list[str], claim: str, lines: list[int]) -> Computation | None:
    """How every amount, time and duration the claim states follows from ``lines``, if one at least is computed.

    None when a value cannot be reproduced, when all are merely copied (that is restating,
    not computing), or when a clause with a value is negated.
    """
    index = index_for(_lines(source))
    wanted = set(lines)
    given = [line for line in index.lines if line.number in wanted and line.segments]
    claimed = _claim_values(normalise(claim))
    if not given or claimed is None or not all(plain for _, plain in claimed):
        return None
    values = [value for value, _ in claimed]
    known = [_Known(v.alts[0][0], _money(v.alts[0][0]), frozenset({line.number}))
             for line in given for v in _line_values(line) if v.kind == "money" and v.role in ("point", "max", "min")]
    rates = []
    for line in given:
        for v in _line_values(line):
            if v.kind == "count:배":
                rates.append((v.alts[0][0], f"{_number(v.alts[0][0])}배", frozenset({line.number})))
            elif v.kind == "count:%":
                share = v.alts[0][0] / 100
                rates.append((1 - share, f"(1 − {_number(v.alts[0][0])}%)", frozenset({line.number})))
                rates.append((1 + share, f"(1 + {_number(v.alts[0][0])}%)", frozenset({line.number})))
    times = [(v, line.number) for line in given for v in _line_values(line) if v.kind == "time"]
    durations = [(v.alts[0][0], frozenset({line.number})) for line in given for v in _line_values(line)
                 if v.kind == "dur"]
    durations += [(v.alts[0][0], frozenset()) for v in values if v.kind == "dur"]
    factors = _multipliers(values)
    formulas: list[str] = []
    used: set[int] = set()
    computed = False
    pending = [v for v in values if v.kind in ("money", "time", "dur")]
    if not pending:
        return None
    for _ in range(len(pending) + 1):  # a value explained can be the operand of the next (7,500원 × 2)
        progress = False
        for value in list(pending):
            found: _Known | None = None
            if value.kind == "money" and value.role in ("point", "max", "min"):
                found = _explain_money(value.alts[0][0], known, factors, rates)
            elif value.kind == "time":
                direct = [n for v, n in times if any(abs(a[0] - b[0]) < _EPS and abs(a[1] - b[1]) < _EPS
                                                      for a in v.alts for b in value.alts)]
                if direct:
                    found = _Known(value.alts[0][0], "", frozenset({direct[0]}))
                else:
                    found = _explain_time(value, times, [d for d in durations if d[1]])
            elif value.kind == "dur":
                direct_lines = [lines_ for amount, lines_ in durations if lines_ and abs(amount - value.alts[0][0]) < _EPS]
                if direct_lines:
                    found = _Known(value.alts[0][0], "", direct_lines[0])
                elif value in [v for v in values if v.kind == "dur"] and factors and any(v.kind == "money" for v in pending):
                    found = _Known(value.alts[0][0], "", frozenset())  # a supposed duration (두 시간이면)
                else:
                    found = _explain_duration(value, times)
            if found is None:
                continue
            pending.remove(value)
            progress = True
            used |= found.lines
            if "=" in found.label:
                computed = True
                formulas.append(found.label)
                if value.kind == "money":
                    known.append(_Known(value.alts[0][0], _money(value.alts[0][0]), found.lines))
        if not pending or not progress:
            break
    if pending or not computed:
        return None
    return Computation(formulas=tuple(formulas), lines=tuple(sorted(used)))
