"""Times, dates, weekdays, money and counts read as values, not as strings.

A claim may say 오후 5시 where the source says 11~18시, or 2만 원 where it says
20,000원; and 1시 must not match 11시. Each mention becomes a ``Value``: a kind
(time, date, weekday, money, count:<unit>, dur, num), a set of candidate
intervals (``오후`` is missing from "5시", so 5시 may be 5:00 or 17:00) and a
role (a point, a range, its start or end, an upper or lower bound). Spans of the
text that became values are masked so the words around them are matched apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Interval = tuple[float, float]

_DAYS = "월화수목금토일"
_DAY_INDEX = {char: index for index, char in enumerate(_DAYS)}
HOLIDAY = 7
_NATIVE_ONES = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5,
                "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70,
                "여든": 80, "아흔": 90}
_ONES_RE = "다섯|여섯|일곱|여덟|아홉|하나|한|둘|두|셋|세|넷|네"
_NATIVE_RE = rf"(?:스물|서른|마흔|예순|일흔|여든|아흔|스무|열|쉰)(?:{_ONES_RE})?|{_ONES_RE}"
NATIVE_NUMERAL_RE = _NATIVE_RE  # a native numeral (두, 세, 열두) as a pattern, for counts read elsewhere


def native(text: str) -> int:
    """A native Korean numeral below 100 (마흔다섯 -> 45, 열두 -> 12, 스무 -> 20)."""
    for tens, value in sorted(_NATIVE_TENS.items(), key=lambda item: -len(item[0])):
        if text.startswith(tens):
            return value + _NATIVE_ONES.get(text[len(tens):], 0)
    return _NATIVE_ONES.get(text, 0)

_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_UNIT_ALIASES = {"인": "명", "사람": "명", "분": "명", "회": "번", "차례": "번", "살": "세",
                 "퍼센트": "%", "프로": "%", "군데": "곳"}
_DAY_MINUTES = 1440.0


@dataclass(frozen=True)
class Value:
    """One value mention; ``alts`` are the readings it may have (5시 -> 5:00 or 17:00)."""

    kind: str
    alts: tuple[Interval, ...]
    role: str = "point"  # point | range | start | end | min | max | within
    days: frozenset[int] = frozenset()
    span: tuple[int, int] = (0, 0)
    strict: bool = False
    wraps: bool = False  # a date range across the new year, as its two stretches in ``alts``

    def with_role(self, role: str) -> Value:
        return Value(self.kind, self.alts, role, self.days, self.span, self.strict, self.wraps)


@dataclass
class _Scan:
    text: str
    taken: list[bool] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.taken = [False] * len(self.text)

    def free(self, start: int, end: int) -> bool:
        return not any(self.taken[start:end])

    def add(self, value: Value) -> None:
        start, end = value.span
        for index in range(start, end):
            self.taken[index] = True
        self.values.append(value)

    def after(self, end: int, width: int = 8) -> str:
        return self.text[end:end + width].lstrip()

    def before(self, start: int, width: int = 8) -> str:
        return self.text[max(0, start - width):start]


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _sino(text: str) -> int:
    """A Sino-Korean numeral below 100 (이십, 오, 십이); empty means 1 (만 원 = 1만 원)."""
    if not text:
        return 1
    if "십" in text:
        tens, _, ones = text.partition("십")
        return _SINO.get(tens, 1) * 10 + _SINO.get(ones, 0)
    return _SINO.get(text, 0)


# --- clock times -----------------------------------------------------------
_MERIDIEM = "오전|오후|아침|낮|저녁|밤|새벽"
_NOT_HOUR = "간작민청설험장각대즌내외범행"


def _atom(prefix: str, unit_optional: bool = False) -> str:
    unit = (rf"(?:\s*:\s*(?P<{prefix}c>\d{{2}})|\s*시(?![{_NOT_HOUR}])"
            rf"(?:\s*(?P<{prefix}n>\d{{1,2}})\s*분|\s*(?P<{prefix}half>반))?)")
    return (rf"(?:(?P<{prefix}m>{_MERIDIEM})\s*)?(?<![\d,.])(?P<{prefix}h>\d{{1,2}})"
            + (f"{unit}?" if unit_optional else unit))


_TIME_RANGE = re.compile(_atom("a", unit_optional=True) + r"\s*(?:~|-|부터|에서)\s*" + _atom("b")
                         + r"(?P<until>\s*까지)?")
_TIME = re.compile(_atom("a"))
_PERIOD = re.compile(rf"(?<![가-힣])({_MERIDIEM})(?![가-힣]*시간)")
_PERIODS: dict[str, Interval] = {"오전": (0, 12), "아침": (5, 11), "낮": (11, 17), "오후": (12, 24),
                                 "저녁": (17, 22), "밤": (18, 29), "새벽": (0, 6)}


def _hours(match: re.Match[str], prefix: str) -> list[float]:
    hour = int(match.group(f"{prefix}h"))
    meridiem = match.group(f"{prefix}m")
    minutes = match.group(f"{prefix}c") or match.group(f"{prefix}n")
    extra = (int(minutes) / 60 if minutes else 0.0) + (0.5 if match.group(f"{prefix}half") else 0.0)
    if meridiem in ("오후", "저녁", "밤"):
        hours = [24 if (meridiem == "밤" and hour == 12) else hour + 12 if hour < 12 else hour]
    elif meridiem == "낮":
        hours = [hour + 12 if 1 <= hour <= 6 else hour]
    elif meridiem in ("오전", "아침", "새벽"):
        hours = [0 if hour == 12 else hour]
    elif hour == 0 or hour >= 12:
        hours = [hour]
    else:
        hours = [hour, hour + 12]  # no 오전/오후: both readings stay possible
    return [h + extra for h in hours]


def _time_ranges(starts: list[float], ends: list[float]) -> tuple[Interval, ...]:
    if len(starts) == 2 and len(ends) == 2:
        pairs = [(starts[0], ends[0]), (starts[1], ends[1])] if ends[0] > starts[0] else [(starts[0], ends[1])]
    else:
        pairs = [(a, b) for a in starts for b in ends if a < b]
    return tuple(pairs or [(starts[0], ends[-1])])


def _time_role(scan: _Scan, start: int, end: int) -> str:
    after = scan.after(end)
    if after.startswith(("까지", "전까지", "이전", "전에")):
        return "end"
    if after.startswith(("부터", "이후", "후부터", "후에", "넘어")):
        return "start" if after.startswith("부터") else "min"
    if after.startswith(("에도", "에는", "쯤", "경", "사이", "와", "과")):
        return "within_point"
    return "point"


# --- dates -----------------------------------------------------------------
_DATE = r"(?P<{p}mo>\d{{1,2}})\s*월\s*(?P<{p}d>\d{{1,2}})\s*일"
_PAREN_DAY = rf"(?:\s*\(\s*[{_DAYS}]\s*\))?"
_DATE_RANGE = re.compile(
    _DATE.format(p="a") + _PAREN_DAY + r"\s*(?:~|-|부터|에서)\s*(?:(?P<bmo>\d{1,2})\s*월\s*)?(?P<bd>\d{1,2})\s*일"
    + _PAREN_DAY + r"(?P<until>\s*까지)?")
_DATE_ONE = re.compile(_DATE.format(p="a"))
_MONTH_RANGE = re.compile(r"(?<!\d)(\d{1,2})\s*월\s*(?:~|-|부터|에서)\s*(\d{1,2})\s*월(\s*까지)?")
_MONTH = re.compile(r"(?<!\d)(\d{1,2})\s*월(?!\s*\d{1,2}\s*일)")


def _day_of_year(month: int, day: int) -> float:
    return month * 31 + day


def _month_span(month: int) -> Interval:
    return (month * 31 + 1, month * 31 + 31)


# --- weekdays --------------------------------------------------------------
_WEEKDAY_RANGE = re.compile(
    rf"(?<![\d가-힣])([{_DAYS}])(?:요일)?\s*(?:~|-|부터)\s*([{_DAYS}])(?:요일|(?=까지|에|은|는|엔|의|[^가-힣]|$))")
_WEEKDAY_FULL = re.compile(rf"([{_DAYS}])요일")
_WEEKDAY_LIST = re.compile(rf"(?<![\d가-힣])[{_DAYS}](?:\s*[·,/]\s*[{_DAYS}])+(?![가-힣])")
_WEEKDAY_PAREN = re.compile(rf"\(\s*([{_DAYS}])\s*\)")
_WEEKDAY_WORDS: dict[str, frozenset[int]] = {
    "평일": frozenset(range(5)), "주중": frozenset(range(5)), "주말": frozenset({5, 6}),
    "매일": frozenset(range(7)), "날마다": frozenset(range(7)), "연중무휴": frozenset(range(7)),
    "공휴일": frozenset({HOLIDAY}), "국경일": frozenset({HOLIDAY}),
}
_WEEKDAY_WORD = re.compile("|".join(sorted(_WEEKDAY_WORDS, key=len, reverse=True)))


def _day_span(first: str, last: str) -> frozenset[int]:
    a, b = _DAY_INDEX[first], _DAY_INDEX[last]
    return frozenset(range(a, b + 1)) if a <= b else frozenset([*range(a, 7), *range(b + 1)])


# --- money, durations, counts ---------------------------------------------
_MONEY_MAN = re.compile(r"(?<![\d,.])(\d[\d,]*(?:\.\d+)?)\s*만\s*(?:(\d[\d,]*)\s*천\s*)?(?:(\d[\d,]*)\s*)?원")
_MONEY_CHEON = re.compile(r"(?<![\d,.])(\d[\d,]*)\s*천\s*원")
_MONEY_PLAIN = re.compile(r"(?<![\d,.])(\d[\d,]*)\s*원")
_MONEY_SINO_MAN = re.compile(r"(?<![가-힣\d])([일이삼사오육칠팔구]?십?[일이삼사오육칠팔구]?)\s*만\s*"
                             r"(?:([일이삼사오육칠팔구]?)\s*천\s*)?원")
_MONEY_SINO_CHEON = re.compile(r"(?<![가-힣\d])([일이삼사오육칠팔구]?)\s*천\s*원")
_RATE = re.compile(
    rf"(?:(?<![가-힣])(?P<y>연|매년|해마다)|(?P<y2>(?:1|한)\s*(?:년|해))\s*(?:에|마다|당)"
    rf"|(?<![가-힣])(?P<m>월|매월|매달)|(?P<m2>(?:1|한)\s*달)\s*(?:에|마다|당)"
    rf"|(?<![가-힣])(?P<w>주|매주)|(?P<w2>(?:1|한)\s*주(?:일)?)\s*(?:에|마다|당)"
    rf"|(?P<d2>하루|1\s*일)\s*(?:에|마다|당)?)"
    rf"\s*(?P<n>\d+|{_NATIVE_RE})\s*(?P<u>회|번|차례)")
_DUR_HOURS = re.compile(r"(?<![\d,.])(\d+(?:\.\d+)?)\s*시간(?:\s*(\d{1,2})\s*분|\s*(반))?")
_DUR_NATIVE_HOURS = re.compile(rf"(?<![가-힣])({_NATIVE_RE})\s*시간(\s*반)?")
_DUR_MINUTES = re.compile(r"(?<![\d,.])(\d+)\s*분(?!의)")
_DUR_DAYS = re.compile(r"(?<![\d,.])(\d+)\s*(주일|주|개월|달|년|일)(?!요일)")
_DUR_WORDS: dict[str, float] = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "일주일": 7, "보름": 15,
                                "한 달": 30, "두 달": 60, "석 달": 90, "한 주": 7, "두 주": 14, "일 년": 365,
                                "한 해": 365}
_DUR_WORD = re.compile(r"(?<![가-힣])(" + "|".join(sorted(_DUR_WORDS, key=len, reverse=True)) + r")(?![가-힣]*일)")
# "한 달에 9,900원", "1년에 두 번": a rate's period, not a duration
_PER = re.compile(r"\s*(?:에|마다|당)(?![가-힣])")
_DAY_UNITS = {"일": 1.0, "주": 7.0, "주일": 7.0, "개월": 30.0, "달": 30.0, "년": 365.0}
_COUNT = re.compile(r"(?<![\d,.])(\d+(?:\.\d+)?)\s*(명|인|권|개|회|번|층|세|살|대|석|잔|장|곳|호|편|마리|차례|%|"
                    r"퍼센트|cm|mm|km|kg|m|g|배|가지|쪽|박)(?![a-z])")
_COUNT_NATIVE = re.compile(rf"(?<![가-힣])({_NATIVE_RE})\s*(명|권|개|번|잔|장|곳|대|마리|차례|살|가지|사람|분|군데)")
_BARE_NUMBER = re.compile(r"(?<![\d,.])\d+(?:[.,]\d+)*")
_SINO_DIGIT = "일이삼사오육칠팔구"
# 삼십 일, 이십 명, 십오 분: a Sino-Korean number of two syllables or more before a unit (not 일 alone)
_SINO_COUNT = re.compile(rf"(?<![가-힣])([{_SINO_DIGIT}]?십[{_SINO_DIGIT}]?|[{_SINO_DIGIT}]백)\s*(명|일|분|개|권|세|층|번)(?![가-힣])")
# 이삼일, 두세 명: "two or three", a vague amount that no source figure confirms
_APPROX = re.compile(r"(?<![가-힣])(?:이삼|삼사|사오|오륙|두세|서너|네다섯|대여섯)\s*(일|명|번|개|시간|주|달|분)")
_FREE = re.compile(r"(?<![가-힣\d,.])(?:무료|공짜|무상|0원)"
                   r"|(?:돈|요금|비용|대여료|이용료|사용료|참가비|수강료)(?:을|를|이|가|은|는)?\s*(?:따로\s*|별도로\s*)?"
                   r"(?:내지|받지|들지)\s*않")
_SEASON = re.compile(r"(?<![가-힣])(봄|여름|가을|겨울)(?=철|에|부터|까지|에는|과|와|\s|,|$)")
_SEASONS = {"봄": (3, 5), "여름": (6, 8), "가을": (9, 11), "겨울": (12, 12)}

_BOUND_AFTER = (("전까지", "min", False), ("이상", "min", False), ("이하", "max", False),
                ("미만", "max", True), ("초과", "min", True), ("이내", "max", False), ("까지", "max", False),
                ("부터", "min", False), ("보다 적", "max", True), ("보다 많", "min", True),
                ("넘", "min", True), ("으로 제한", "max", False), ("로 제한", "max", False),
                ("안쪽", "max", False))
_BOUND_BEFORE = (("최대", "max"), ("최고", "max"), ("정원", "max"), ("많아야", "max"),
                 ("최소", "min"), ("적어도", "min"), ("최저", "min"))


def _bound(scan: _Scan, start: int, end: int, kind: str) -> tuple[str, bool]:
    after = scan.after(end, 10)
    for word, role, strict in _BOUND_AFTER:
        if after.startswith((word, f"을 {word}", f"를 {word}")):
            if word == "전까지" and kind != "dur":
                return "max", False
            return role, strict
    before = scan.before(start, 8)
    for word, role in _BOUND_BEFORE:
        if word in before:
            return role, False
    return "point", False


def _numeric(scan: _Scan, kind: str, amount: float, span: tuple[int, int]) -> None:
    role, strict = _bound(scan, span[0], span[1], kind)
    scan.add(Value(kind, ((amount, amount),), role, span=span, strict=strict))


def extract_values(text: str) -> tuple[list[Value], str]:
    """All values in ``text`` (already normalised) and the text with their spans blanked out."""
    scan = _Scan(text)
    for match in _FREE.finditer(text):  # 무료 is an amount: it disagrees with 15,000원
        if scan.free(*match.span()):
            scan.add(Value("money", ((0.0, 0.0),), "point", span=match.span()))
    for match in _APPROX.finditer(text):
        if scan.free(*match.span()):
            scan.add(Value("approx", ((0.0, 0.0),), "point", span=match.span()))
    for match in _RATE.finditer(text):
        if scan.free(*match.span()):
            per = "year" if (match.group("y") or match.group("y2")) else "month" if (
                match.group("m") or match.group("m2")) else "week" if (match.group("w") or match.group("w2")) else "day"
            raw = match.group("n")
            amount = float(raw) if raw.isdigit() else float(native(raw))
            _numeric(scan, f"count:번@{per}", amount, match.span())
    _dates(scan)
    _times(scan)
    _weekdays(scan)
    _money(scan)
    _durations(scan)
    _counts(scan)
    for match in _BARE_NUMBER.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "num", _num(match.group()), match.span())
    for match in _PERIOD.finditer(text):
        if scan.free(*match.span()):
            scan.add(Value("time", (_PERIODS[match.group(1)],), "within", span=match.span()))
    masked = "".join(" " if taken else char for char, taken in zip(text, scan.taken, strict=True))
    return sorted(scan.values, key=lambda value: value.span), masked


def _dates(scan: _Scan) -> None:
    text = scan.text
    for match in _DATE_RANGE.finditer(text):
        if scan.free(*match.span()):
            first = _day_of_year(int(match.group("amo")), int(match.group("ad")))
            last_month = int(match.group("bmo") or match.group("amo"))
            last = _day_of_year(last_month, int(match.group("bd")))
            if last < first:  # 12월 29일부터 1월 2일까지 crosses the year: the two ends as two stretches
                alts: tuple[Interval, ...] = ((first, _day_of_year(12, 31)), (_day_of_year(1, 1), last))
                scan.add(Value("date", alts, "range", span=match.span(), wraps=True))
                continue
            scan.add(Value("date", ((first, last),), "range", span=match.span()))
    for match in _DATE_ONE.finditer(text):
        if scan.free(*match.span()):
            day = _day_of_year(int(match.group("amo")), int(match.group("ad")))
            scan.add(Value("date", ((day, day),), _time_role(scan, *match.span()), span=match.span()))
    for match in _MONTH_RANGE.finditer(text):
        if scan.free(*match.span()):
            opening, closing = _month_span(int(match.group(1))), _month_span(int(match.group(2)))
            scan.add(Value("date", ((opening[0], closing[1]),), "range", span=match.span()))
    for match in _SEASON.finditer(text):  # 봄 is 3~5월: vague, it agrees with any overlap
        if scan.free(*match.span()):
            first, last = _SEASONS[match.group(1)]
            scan.add(Value("date", ((_month_span(first)[0], _month_span(last)[1]),), "within", span=match.span()))
    for match in _MONTH.finditer(text):
        if scan.free(*match.span()) and 1 <= int(match.group(1)) <= 12:
            role = _time_role(scan, *match.span())
            scan.add(Value("date", (_month_span(int(match.group(1))),),
                           role if role in ("start", "end") else "within", span=match.span()))


def _times(scan: _Scan) -> None:
    for match in _TIME_RANGE.finditer(scan.text):
        if scan.free(*match.span()):
            alts = _time_ranges(_hours(match, "a"), _hours(match, "b"))
            scan.add(Value("time", alts, "range", span=match.span()))
    for match in _TIME.finditer(scan.text):
        if scan.free(*match.span()):
            alts = tuple((hour, hour) for hour in _hours(match, "a"))
            scan.add(Value("time", alts, _time_role(scan, *match.span()), span=match.span()))


def _weekdays(scan: _Scan) -> None:
    text = scan.text
    found: list[tuple[tuple[int, int], frozenset[int]]] = []
    for match in _WEEKDAY_RANGE.finditer(text):
        found.append((match.span(), _day_span(match.group(1), match.group(2))))
    for pattern in (_WEEKDAY_FULL, _WEEKDAY_PAREN):
        for match in pattern.finditer(text):
            found.append((match.span(), frozenset({_DAY_INDEX[match.group(1)]})))
    for match in _WEEKDAY_LIST.finditer(text):
        found.append((match.span(), frozenset(_DAY_INDEX[c] for c in match.group() if c in _DAY_INDEX)))
    for match in _WEEKDAY_WORD.finditer(text):
        found.append((match.span(), _WEEKDAY_WORDS[match.group()]))
    for span, days in sorted(found, key=lambda item: (item[0][0], -item[0][1])):
        if scan.free(*span):
            scan.add(Value("weekday", ((0, 0),), "set", days=days, span=span))


def _money(scan: _Scan) -> None:
    text = scan.text
    for match in _MONEY_MAN.finditer(text):
        if scan.free(*match.span()):
            amount = _num(match.group(1)) * 10000 + _num(match.group(2) or "0") * 1000 + _num(match.group(3) or "0")
            _numeric(scan, "money", amount, match.span())
    for match in _MONEY_CHEON.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "money", _num(match.group(1)) * 1000, match.span())
    for match in _MONEY_PLAIN.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "money", _num(match.group(1)), match.span())
    for match in _MONEY_SINO_MAN.finditer(text):
        if scan.free(*match.span()):
            thousands = _sino(match.group(2)) if match.group(2) is not None and "천" in match.group() else 0
            _numeric(scan, "money", _sino(match.group(1)) * 10000 + thousands * 1000, match.span())
    for match in _MONEY_SINO_CHEON.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "money", _sino(match.group(1) or "") * 1000, match.span())


def _durations(scan: _Scan) -> None:
    text = scan.text
    for match in _DUR_HOURS.finditer(text):
        if scan.free(*match.span()):
            minutes = _num(match.group(1)) * 60 + int(match.group(2) or 0) + (30 if match.group(3) else 0)
            _numeric(scan, "dur", minutes, match.span())
    for match in _DUR_NATIVE_HOURS.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "dur", native(match.group(1)) * 60 + (30 if match.group(2) else 0), match.span())
    for match in _DUR_DAYS.finditer(text):
        if scan.free(*match.span()) and not _PER.match(text, match.end()):
            _numeric(scan, "dur", int(match.group(1)) * _DAY_UNITS[match.group(2)] * _DAY_MINUTES, match.span())
    for match in _DUR_WORD.finditer(text):
        if scan.free(*match.span()) and not _PER.match(text, match.end()):
            _numeric(scan, "dur", _DUR_WORDS[match.group(1)] * _DAY_MINUTES, match.span())
    for match in _DUR_MINUTES.finditer(text):
        if scan.free(*match.span()):
            _numeric(scan, "dur", float(match.group(1)), match.span())


_FLOOR_SINO = re.compile(r"(?<![가-힣])(일|이|삼|사|오|육|칠|팔|구|십)\s*층")


def _counts(scan: _Scan) -> None:
    for match in _SINO_COUNT.finditer(scan.text):
        if scan.free(*match.span()):
            raw, unit = match.group(1), match.group(2)
            amount = _sino(raw[:-1]) * 100 if raw.endswith("백") else _sino(raw)
            if unit in ("일", "분") and not _PER.match(scan.text, match.end()):
                _numeric(scan, "dur", amount * (_DAY_MINUTES if unit == "일" else 1.0), match.span())
            else:
                _numeric(scan, f"count:{_UNIT_ALIASES.get(unit, unit)}", float(amount), match.span())
    for match in _FLOOR_SINO.finditer(scan.text):  # 이층 = 2층
        if scan.free(*match.span()):
            _numeric(scan, "count:층", float(_sino(match.group(1))), match.span())
    for match in _COUNT.finditer(scan.text):
        if scan.free(*match.span()):
            unit = _UNIT_ALIASES.get(match.group(2), match.group(2))
            _numeric(scan, f"count:{unit}", _num(match.group(1)), match.span())
    for match in _COUNT_NATIVE.finditer(scan.text):
        if scan.free(*match.span()):
            unit = _UNIT_ALIASES.get(match.group(2), match.group(2))
            _numeric(scan, f"count:{unit}", float(native(match.group(1))), match.span())


# --- comparing -------------------------------------------------------------
def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _interval_ok(claim_role: str, claim: Interval, source_role: str, source: Interval) -> bool:
    """Whether a claimed time or date agrees with one reading of a source time or date."""
    c_lo, c_hi = claim
    s_lo, s_hi = source
    if claim_role == "within":  # the claim is vague ("오후에", "6월에"): any overlap will do
        return c_lo <= s_hi and s_lo <= c_hi
    if source_role == "within":  # the source is vague: a precise claim is not supported by it
        return False
    if claim_role == "range":
        return source_role == "range" and _close(c_lo, s_lo) and _close(c_hi, s_hi)
    point = c_lo
    if {claim_role, source_role} == {"start", "end"}:  # an opening time is not a closing time
        return False
    if source_role == "range":
        if claim_role == "start":
            return _close(point, s_lo)
        if claim_role == "end":
            return _close(point, s_hi)
        if claim_role == "min":
            return _close(point, s_lo)
        if claim_role == "max":
            return _close(point, s_hi)
        return s_lo <= point <= s_hi
    if source_role == "min":
        return _close(point, s_lo) if claim_role in ("min", "start") else point >= s_lo
    if source_role == "max" or (source_role == "end" and claim_role in ("point", "within_point")):
        return _close(point, s_lo) if claim_role in ("max", "end") else point <= s_lo
    return _close(point, s_lo)


def _number_ok(claim: Value, source: Value) -> bool:
    amount, bound = claim.alts[0][0], source.alts[0][0]
    claim_role = {"start": "min", "end": "max"}.get(claim.role, claim.role)
    source_role = {"start": "min", "end": "max"}.get(source.role, source.role)
    if claim_role in ("point", "within_point"):
        if source_role == "max":
            return amount < bound if source.strict else amount <= bound + 1e-6
        if source_role == "min":
            return amount > bound if source.strict else amount >= bound - 1e-6
        return _close(amount, bound)
    if claim_role == source_role or source_role == "point":
        return _close(amount, bound)
    return False


def comparable(a: Value, b: Value) -> bool:
    return a.kind == b.kind


def compatible(claim: Value, source: Value, *, strict: bool = False) -> bool:
    """Whether the source value supports the claimed one (same kind assumed).

    "5시에 연다" (role open_at) may mean "opens at 5" or "is open at 5": it agrees with a
    range containing 5 unless ``strict``, when only the opening time itself agrees.
    """
    if claim.kind == "weekday":
        return bool(claim.days) and claim.days <= source.days
    if claim.kind in ("time", "date"):
        source_role = "start" if source.role == "open_at" else source.role
        if claim.role == "open_at":
            # "is open at 5" needs the whole opening range; a bare closing time cannot tell.
            roles = ["start"] if strict or source_role != "range" else ["start", "within_point"]
        else:
            roles = [claim.role]
        return any(_interval_ok(role, c, source_role, s) for role in roles for c in claim.alts for s in source.alts)
    return _number_ok(claim, source)


def endpoints(value: Value) -> list[Value]:
    """A claimed range as its start and its end, for sources that state them on separate lines."""
    if value.role != "range":
        return [value]
    starts = tuple((lo, lo) for lo, _ in value.alts)
    ends = tuple((hi, hi) for _, hi in value.alts)
    return [Value(value.kind, starts, "start", span=value.span), Value(value.kind, ends, "end", span=value.span)]
