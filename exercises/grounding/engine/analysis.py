"""Reading one clause: its content words, values, negations and hedging cues.

Negation in Korean follows what it denies (영업하지 않습니다, 주차 공간이 없습니다,
촬영 금지), except 안/못 which come before the verb. Each negator therefore
covers what it denies: 없다 the noun phrase before it, 않다/금지/아니다 the two
words before it, 안/못 the word after it (or, before an empty verb as in
"들어가면 안 됩니다", the words before). A claim and a source line are then
compared only on negations that reach the words they share ("현금 1,600원으로
변동이 없습니다" says nothing against the fare). Two negations in one clause are
read together ("수영모 없이 입장할 수 없다" is a requirement).

Cues say how settled a statement is: a condition (확인 후, 승인되면, …하면,
…할 경우), a plan (예정, 계획, 발표합니다), a possibility (바뀔 수 있다, 수도
있다, 경우에 따라) or an open question (확정되지 않았다, 미정, 여부).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .claims import segments
from .hangul import WORD_RE, Word, analyse_word, normalise, stem
from .lexicon import CHANGE_STEMS, MYEON_NOUNS
from .values import Value, extract_values

CONDITION, PLAN, POSSIBILITY, UNSETTLED = "condition", "plan", "possibility", "unsettled"
MAX_CLAIM_WORDS, MAX_CLAIM_VALUES = 24, 6  # per clause of a claim
MAX_LINE_WORDS, MAX_LINE_VALUES = 60, 12  # per clause of a source line
# What a claim must itself say to repeat a source cue faithfully.
ACCEPTS: dict[str, frozenset[str]] = {
    CONDITION: frozenset({CONDITION}),
    PLAN: frozenset({PLAN, POSSIBILITY, UNSETTLED}),
    POSSIBILITY: frozenset({POSSIBILITY, PLAN, UNSETTLED}),
    UNSETTLED: frozenset({UNSETTLED, PLAN, POSSIBILITY}),
}

_CONDITION_RE = re.compile(
    r"(?:확인|검토|승인|협의|상담|점검|심사|논의|허가|결정|확정|접수)[가-힣]*(?:\s+[가-힣]+)?\s*(?:후|뒤|다음)(?![가-힣])"
    r"|(?:확인|검토|승인|협의|상담|점검|심사|논의|허가|결정|확정|접수)[가-힣]*\s*(?:후에|뒤에|다음에)"
    r"|(?:[가-힣]+\s+)?경우(?!에?\s*따라)")  # "경우에 따라" is "it depends": a possibility
_PLAN_RE = re.compile(
    r"예정|계획|추후|향후|전망|예상"
    r"|(?:검토|논의|협의|준비|추진|조율|조정)\s*(?:하고\s*있|중)"
    r"|(?:발표|안내|공지)(?:합니다|할|될|됩니다|한다|된다|하겠|드리겠)"
    r"|(?:결정|정해)(?:됩니다|된다|집니다|진다|질|될|합니다|한다)|정합니다|정한다")
_MAYBE_RE = re.compile(r"수도\s*있|가능성|지도\s*모르|에\s*따라")
_CAN_RE = re.compile(r"([가-힣]+)\s*수\s*(?:도\s*)?있")
# Syllables ending in ㄹ: the -ㄹ지 of an open question ("열지는", "운영할지는") is fused into one.
_RIEUL_FINAL = "".join(chr(0xAC00 + 28 * initial_and_vowel + 8) for initial_and_vowel in range(19 * 21))
_UNSETTLED_RE = re.compile(
    r"(?:확정|결정|정해|정하)[가-힣]*\s*(?:않|안\s|못)|미정|미확정|여부|불확실|(?:결정|확정)\s*전(?![가-힣])"
    r"|아직\s*(?:[가-힣]+\s*)?(?:[가-힣]*지\s*않|안\s|모르|없)|알\s*수\s*없|모른다|모릅니다"
    # "추가 점검일을 열지는 … 보고 정해 21일에 알립니다": whether it happens is decided later
    rf"|[{_RIEUL_FINAL}]지(?:는|를|도|가)?(?![가-힣]).*?(?:정하|정해|정합|정할|결정|알리|알려|알립|공지|발표)")
# How a chat model frames a claim ("안내문에 따르면", "…인 것으로 보입니다", "…라고 안내되어
# 있습니다"): words about the answer, not about the source's subject. Blanked before matching.
_HEDGE_RE = re.compile(
    r"(?:안내문|안내|공지|공지문|원문|자료|문서|글)\s*(?:에|상|에서)?\s*(?:는|도)?\s*(?:따르면|의하면|보면|나와\s*있듯이|적힌\s*대로)"
    r"|(?:안내문|안내|공지|공지문|원문|자료|문서)\s*(?:만으로는|만으로|만\s*봐서는|만\s*보면|에는|에서는|에|상)(?![가-힣])"
    r"|(?:것|걸)\s*으?로\s*(?:보입니다|보여요|보인다|보이네요|판단됩니다|생각됩니다|확인됩니다|나와\s*있습니다|되어\s*있습니다|안내되어\s*있습니다|적혀\s*있습니다)"
    r"|(?:것|거)\s*같(?:습니다|아요|다|네요)|듯(?:합니다|해요|하다|싶습니다)"
    r"|(?:라고|다고|이라고)\s*(?:합니다|해요|한다|안내(?:되어|돼)?\s*(?:있습니다|있어요|합니다)|나와\s*(?:있습니다|있어요)|적혀\s*(?:있습니다|있어요)|되어\s*있(?:습니다|어요))"
    r"|(?<![가-힣])(?:참고로|요약하면|정리하면|말씀드리면|다시\s*말해|즉|네|예|혹시|아마|아마도)(?![가-힣])"
    r"|(?:으로|로)\s*(?:보입니다|보여요|확인됩니다)"
    r"|(?<=[가-힣])(?:네요|군요)(?=[.!\s]|$)")
# A claim that the source says nothing of something ("안내문에는 주차 이야기가 없습니다").
SILENCE_RE = re.compile(
    r"(?:나와|적혀|쓰여|언급(?:되어)?|안내(?:되어)?|명시(?:되어)?|소개(?:되어)?)\s*있지\s*않"
    r"|(?:나오지|언급하지|다루지|밝히지|말하지|적지|안내되지|언급되지|명시되지|소개되지)\s*않"
    # the short negation of speech: "안내문에 안 나와 있어요", "요금은 안 적혀 있네요"
    r"|안\s*(?:나와|나오|나옵|적혀|쓰여|실려)"
    r"|(?:내용|정보|언급|안내|설명|이야기|얘기|말)(?:은|는|이|가|도)?\s*(?:따로\s*|별도로\s*|전혀\s*|아예\s*|하나도\s*"
    r"|어디에도\s*|어디에서도\s*)?"
    r"(?:없|보이지\s*않)"
    r"|(?:알|확인할|판단할|찾을|찾아볼|답할|대답할)\s*수\s*(?:가\s*)?없|자료\s*없음|자료가\s*없"
    r"|확인(?:이)?\s*안\s*(?:되|돼|됩)|확인되지\s*않"
    # a verdict cell: "| 확인 불가 | 주차, 강사 수 |", "주차: 확인 불가" (not a heading's "확인 불가 정보")
    r"|(?<![가-힣])(?:확인|판단)\s*불가(?=\s*(?:[|:;,.)\]]|$))"
    # "주차 안내는 포함되어 있지 않습니다", "주차는 다루고 있지 않아요"
    r"|포함(?:되어|돼)\s*있지\s*않|다루고\s*있지\s*않"
    # "회의 날짜는 실행 기록에 없습니다": the source itself, named, holds nothing of it.
    r"|(?:안내문|안내|자료|원문|기록|문서|공지|본문|목록)\s*(?:에는|에도|에|엔)\s*(?:따로\s*|별도로\s*|전혀\s*|아예\s*)?없")
_PRE_NEGATORS = frozenset({"안", "못"})
_PROHIBITION_RE = re.compile(r"\s*안\s*[되돼됩된]")
_POST_NEGATOR_STARTS = ("않", "없", "아니", "아닙", "아닌", "아님", "아냐", "불가", "금지", "마세요", "마십시오",
                        "말고", "말아", "마시고", "제외", "못하", "못합", "못한", "못해", "사절", "중단", "대신")
_FUSED_NEGATORS = ("없", "불가", "금지")  # 상관없이, 주차불가, 반입금지: content word + negator in one


@dataclass(frozen=True)
class Segment:
    """One clause, ready for matching."""

    text: str
    words: tuple[Word, ...]
    positions: tuple[int, ...]  # where each word starts in ``text``
    covers: tuple[frozenset[int], ...]  # for each word: the negators whose scope takes it in
    negators: int
    values: tuple[Value, ...]
    days: frozenset[int]
    cues: frozenset[str]  # in a claim, these are its hedges
    topic_end: int = 0
    conditions: tuple[Word, ...] = ()
    overloaded: bool = False  # more words or values than one clause of a claim carries: not judged

    def parity(self, matched: set[int] | None = None) -> int:
        """Odd when negated. With ``matched`` words, count only negators that reach one of them."""
        if matched is None or self.negators >= 2:
            # Two negations in one clause ("수영모 없이 입장할 수 없다") make a requirement:
            # read them together rather than word by word.
            return self.negators % 2
        reaching: set[int] = set()
        for index in matched:
            reaching |= self.covers[index]
        return len(reaching) % 2

    def word_before(self, offset: int) -> int | None:
        """The word nearest before ``offset`` (the qualifier of a value: "성인 5,000원"), else the one after."""
        before = [index for index, position in enumerate(self.positions) if position < offset]
        if before:
            return before[-1]
        return 0 if self.positions else None


def _possibility(text: str) -> bool:
    """"May happen" (바뀔 수 있다, 수도 있다, 에 따라), as opposed to "is allowed" (이용할 수 있다)."""
    if _MAYBE_RE.search(text):
        return True
    for match in _CAN_RE.finditer(text):
        verb = match.group(1)
        if verb.endswith(("될", "질", "뀔", "날", "길")) or verb.startswith(CHANGE_STEMS):
            return True
    return False


def cues_of(text: str, *, claim: bool = False) -> frozenset[str]:
    """The hedging cues present in normalised ``text``."""
    found: set[str] = set()
    if _CONDITION_RE.search(text) or _conditional_ending(text):
        found.add(CONDITION)
    if claim and re.search(r"(?<![가-힣])때(?:에|는|만|에는)?(?![가-힣])", text):
        found.add(CONDITION)
    if _PLAN_RE.search(text):
        found.add(PLAN)
    if _possibility(text):
        found.add(POSSIBILITY)
    if _UNSETTLED_RE.search(text):
        found.add(UNSETTLED)
    return frozenset(found)


def cue_phrase(text: str, cues: frozenset[str]) -> str:
    """The words of normalised ``text`` that carry one of ``cues`` ("승인되면", "예정", "바뀔 수 있"), or ""."""
    patterns = {CONDITION: [_CONDITION_RE], PLAN: [_PLAN_RE], POSSIBILITY: [_MAYBE_RE, _CAN_RE],
                UNSETTLED: [_UNSETTLED_RE]}
    for cue in (CONDITION, PLAN, POSSIBILITY, UNSETTLED):
        if cue not in cues:
            continue
        for pattern in patterns[cue]:
            found = pattern.search(text)
            if found:
                return found.group().strip()
        if cue == CONDITION:
            tokens = _conditional_tokens(text)
            if tokens:
                return tokens[0]
    return ""


def _conditional_ending(text: str) -> bool:
    return bool(_conditional_tokens(text))


def _conditional_tokens(text: str) -> list[str]:
    """Verbs in the conditional -면 (취소하면, 늦으면, 승인되면): not nouns (화면), purposes (하려면)
    nor prohibitions (들어가면 안 됩니다)."""
    found = []
    for match in WORD_RE.finditer(text):
        token = match.group()
        if len(token) < 2 or not token.endswith("면") or token in MYEON_NOUNS or token.endswith("려면"):
            continue
        if _PROHIBITION_RE.match(text, match.end()):
            continue
        found.append(token)
    return found


def condition_words(text: str) -> tuple[Word, ...]:
    """The content words of a clause's conditions: 확인 in "담당자 확인 뒤", 취소 in "취소하면"."""
    tokens = [token for match in _CONDITION_RE.finditer(text) for token in WORD_RE.findall(match.group())]
    tokens += _conditional_tokens(text)
    words = (analyse_word(token) for token in tokens)
    return tuple(word for word in words if word is not None)


def _negator(token: str) -> str | None:
    if token in _PRE_NEGATORS:
        return "pre"
    if token.startswith(_POST_NEGATOR_STARTS):
        return "post"
    if "않" in token:
        return "post"
    for fused in _FUSED_NEGATORS:
        if fused in token[1:]:
            return "fused"
    return None


def _scope(words: list[Word], spans: list[tuple[int, int]], text: str, negator: str) -> list[int]:
    """The words a following negator denies.

    없다 denies its subject, the noun phrase just before it (주차 공간이 없습니다, 변동이
    없습니다 -- not the fare before that). 않다, 금지, 아니다 deny a verb or noun together
    with its argument: the two words before (현금은 받지 않고, 사진 촬영이 금지).
    """
    if not words:
        return []
    last = len(words) - 1
    if negator.startswith(("없", "대신")):  # 대신: "A 대신 B" denies A
        scope = [last]
        while scope[-1] > 0 and words[scope[-1] - 1].bare:
            before, after = spans[scope[-1] - 1], spans[scope[-1]]
            if text[before[1]:after[0]].strip():  # a number or another word in between ends the phrase
                break
            scope.append(scope[-1] - 1)
        return scope
    return [index for index in (last, last - 1) if index >= 0]


def _before_negator(token: str, following: str) -> str:
    """The verb a following 않/못/말 denies, in its dictionary form: 받지 않고 -> 받다, 서지 않는다 -> 서다."""
    if token.endswith("지") and len(token) >= 2 and following.startswith(("않", "못", "말")) and stem(token) == token:
        return token[:-1] + "다"
    return token


@lru_cache(maxsize=8192)
def analyse(text: str, *, claim: bool = False) -> Segment:
    """Words, values, negation scopes and cues of one clause."""
    norm = normalise(text)
    if claim:
        norm = _HEDGE_RE.sub(lambda match: " " * len(match.group()), norm)
    values, masked = extract_values(norm)
    near_time = any(value.kind == "time" for value in values)
    unsettled = [m.span() for m in _UNSETTLED_RE.finditer(norm)]
    words: list[Word] = []
    positions: list[int] = []
    spans: list[tuple[int, int]] = []
    covers: list[set[int]] = []
    negators = 0
    pending_pre: list[int] = []
    matches = list(WORD_RE.finditer(masked))
    for number, match in enumerate(matches):
        token = match.group()
        following = matches[number + 1].group() if number + 1 < len(matches) else ""
        token = _before_negator(token, following)
        inside_unsettled = any(s <= match.start() < e for s, e in unsettled)
        kind = None if inside_unsettled else _negator(token)
        if kind == "pre" and following and analyse_word(following) is None:
            kind = "post"  # "들어가면 안 돼요": 안 before an empty verb denies what came before
        if kind == "pre":
            pending_pre.append(negators)
            negators += 1
            continue
        if kind == "fused":
            cut = min(token.find(f) for f in _FUSED_NEGATORS if token.find(f) > 0)
            word = analyse_word(token[:cut], near_time)
            if word is not None:
                words.append(word)
                positions.append(match.start())
                spans.append(match.span())
                covers.append({negators})
            negators += 1
            continue
        if kind == "post" and not words and token.startswith("대신"):
            continue  # "대신 28일에 보강해요": a sentence adverb (instead) with nothing before it to deny
        if kind == "post":
            for index in _scope(words, spans, norm, token):
                covers[index].add(negators)
            negators += 1
            word = analyse_word(token, near_time)
            if word is not None and word.concepts:  # 못해요 etc. carry no content, 불필요 does
                words.append(word)
                positions.append(match.start())
                spans.append(match.span())
                covers.append({negators - 1})
            continue
        word = analyse_word(token, near_time)
        if word is None:
            continue
        cover = set(pending_pre)
        pending_pre = []
        if word.negative:  # 휴무 = "not open"
            cover.add(negators)
            negators += 1
        words.append(word)
        positions.append(match.start())
        spans.append(match.span())
        covers.append(cover)
    values, absorbed = _verb_roles(values, words, norm)
    if absorbed:
        # "6시에 닫는다" says no more than "6시까지": the verb is in the value's role. It stays
        # for negation ("운영하지 않습니다") but is not missed where the source has only the time.
        words = [replace(word, light=True) if word.concepts and word.concepts <= absorbed else word
                 for word in words]
    topic_end = _topic_end(matches, norm)
    days: frozenset[int] = frozenset().union(*(value.days for value in values if value.kind == "weekday"))
    cues = cues_of(norm, claim=claim)
    # Bounded cost: matching grows with words x values on both sides. A clause beyond these
    # sizes is a list or a dump, not one claim; it is ranked on its first part and not judged.
    word_cap, value_cap = (MAX_CLAIM_WORDS, MAX_CLAIM_VALUES) if claim else (MAX_LINE_WORDS, MAX_LINE_VALUES)
    overloaded = len(words) > word_cap or len(values) > value_cap
    keep = min(len(words), word_cap)
    return Segment(text=norm, words=tuple(words[:keep]), positions=tuple(positions[:keep]),
                   covers=tuple(frozenset(c) for c in covers[:keep]), negators=negators,
                   values=tuple(values[:value_cap]), days=days, cues=cues, topic_end=topic_end,
                   conditions=condition_words(norm) if CONDITION in cues else (), overloaded=overloaded)


_STARTS = frozenset({"@start", "@depart"})
_OPENS = frozenset({"@open"})
_ENDS = frozenset({"@end"})


def _verb_roles(values: list[Value], words: list[Word], text: str) -> tuple[list[Value], frozenset[str]]:
    """"10시에 연다" gives the opening time, "6시에 닫는다" the closing one: say so on the value.

    Also returns the verb concepts now carried by a value's role (끝나다, 시작하다), which
    need not be found again as words.
    """
    concepts: set[str] = set()
    for word in words:
        if not word.negative:
            concepts |= word.concepts
    # "5시에 연다" is either "opens at 5" or "is open at 5": the role "open_at" keeps both.
    role = ("end" if concepts & _ENDS else "start" if concepts & _STARTS
            else "open_at" if concepts & _OPENS else None)
    absorbed: frozenset[str] = frozenset()
    if role is None:
        if any(v.kind == "time" and v.role in ("start", "end") for v in values):
            absorbed = frozenset({"@open"})  # "10시까지 영업한다": the hours are in the value
        return values, absorbed
    out = []
    for value in values:
        follow = text[value.span[1]:value.span[1] + 3].lstrip()
        if value.kind in ("time", "date") and value.role == "point" and follow.startswith("에") \
                and not follow.startswith(("에도", "에는")):
            value = value.with_role(role)
            absorbed = {"end": frozenset({"@end"}), "start": frozenset({"@start"}),
                        "open_at": frozenset({"@open"})}[role]
        out.append(value)
    if any(v.kind == "time" and v.role in ("start", "end", "open_at") for v in out):
        absorbed |= {"@open"}  # "10시까지 영업한다": the hours are in the value
    return out, absorbed


def _topic_end(matches: list[re.Match[str]], text: str) -> int:
    """Where the topic ("720번 버스는", "책방은") ends, when the clause goes on after it; else 0.

    The topic names what the whole notice is about; ranking leans on the rest of the clause.
    """
    for number, match in enumerate(matches[:3]):
        token = match.group()
        if len(token) >= 2 and token.endswith(("은", "는")) and stem(token) == token[:-1] \
                and number + 1 < len(matches):
            return match.end()
    return 0


@lru_cache(maxsize=4096)
def analyse_line(text: str) -> tuple[Segment, ...]:
    """A source line as its clauses (cut at commas too: "평일 12분, 주말 20분")."""
    return tuple(analyse(piece) for piece in segments(text)) or (analyse(text),)


@lru_cache(maxsize=4096)
def analyse_claim(text: str) -> tuple[Segment, ...]:
    return tuple(analyse(piece, claim=True) for piece in segments(text)) or (analyse(text, claim=True),)
