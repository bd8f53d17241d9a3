"""Normalising and stemming Korean words without a morphological analyser.

Korean attaches particles and endings to the word (책방은 / 책방에서,
영업합니다 / 영업한다), so whole-word matching fails. We strip the longest known
ending, undo the few contractions that hide a verb stem (연다 -> 여, 엽니다 -> 여,
빌려 -> 빌리), and map notice vocabulary to shared concept keys (쉰다 / 휴무 ->
"not open"). What the table misses is still caught by prefix and character
bigram similarity in the matcher.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from .lexicon import (
    CLOSE_WORDS,
    COMPOUND_HEADS_MIN,
    CONCEPTS,
    CONTRACTIONS,
    LIGHT,
    LIGHT_CONCEPTS,
    NEGATIVE_CONCEPTS,
    NEGATIVE_PREFIXES,
    PROTECTED,
    STOPWORDS,
    SUFFIXES,
)

SUFFIX_SET = frozenset(suffix for suffix, _ in SUFFIXES)  # a bare particle left beside a masked value
_SUBJECT_PARTICLES = ("이", "가")
_AFTER_EO = ("요", "야", "서")  # endings that follow the -어/아 form, which contracts with the stem
_SYLLABLE_BASE = 0xAC00
_FINAL_N, _FINAL_L, _FINAL_B = 4, 8, 17
_TILDES = str.maketrans({"〜": "~", "∼": "~", "～": "~", "–": "~", "—": "~", "―": "~", "−": "~",
                         "ㆍ": "·", "・": "·", "‧": "·"})
# One-syllable words that mean something else when they stand uninflected
# (주 "week", 내 "inside", 선 "line"): their concept applies only to inflected forms.
_BARE_AMBIGUOUS = frozenset({"주", "내", "선", "서", "보", "쓰", "신", "입", "빌", "파", "판", "들", "써"})

WORD_RE = re.compile(r"[가-힣]+|[a-z]+")


def normalise(text: str) -> str:
    """Compatibility-normalise (full-width digits, odd tildes) and lower-case; length may change."""
    return unicodedata.normalize("NFKC", text).translate(_TILDES).lower()


def is_syllable(char: str) -> bool:
    return "가" <= char <= "힣"


def final_of(char: str) -> int:
    """The final-consonant index (0 = none) of a Hangul syllable."""
    return (ord(char) - _SYLLABLE_BASE) % 28 if is_syllable(char) else 0


def drop_final(char: str) -> str:
    return chr(ord(char) - final_of(char)) if is_syllable(char) else char


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """Strip one particle or ending: 책방에서 -> 책방, 영업합니다 -> 영업, 연다 -> 여, 쉽니다 -> 쉬."""
    if token in PROTECTED or token in CONCEPTS or token in NEGATIVE_CONCEPTS:
        return token
    for suffix, min_left in SUFFIXES:
        if len(token) - len(suffix) >= min_left and token.endswith(suffix):
            base = token[: -len(suffix)]
            last = base[-1]
            if suffix in _SUBJECT_PARTICLES and (final_of(last) == 0) != (suffix == "가"):
                continue  # 이 follows a final consonant, 가 a vowel: 평가, 나이 are words
            if suffix in _SUBJECT_PARTICLES and len(base) == 1 and token in PROTECTED:
                continue
            merged_b = suffix == "니다" and final_of(last) == _FINAL_B  # 엽니다 -> 여, 쉽니다 -> 쉬
            merged_n = suffix == "다" and final_of(last) == _FINAL_N and len(base) <= 3  # 연다 -> 여
            if merged_b or merged_n:
                base = base[:-1] + drop_final(last)
            elif suffix in _AFTER_EO and last in CONTRACTIONS:  # 와요 -> 오, 써야 -> 쓰, 빌려서 -> 빌리
                base = base[:-1] + CONTRACTIONS[last]
            return base
    return token


@lru_cache(maxsize=65536)
def variants(word: str) -> frozenset[str]:
    """Other spellings of the same stem: adnominal and contracted forms (바뀐 -> 바뀌, 빌려 -> 빌리)."""
    out = {word}
    last = word[-1]
    if is_syllable(last):
        if final_of(last) in (_FINAL_N, _FINAL_L, _FINAL_B):
            out.add(word[:-1] + drop_final(last))
        if last in CONTRACTIONS:
            out.add(word[:-1] + CONTRACTIONS[last])
    return frozenset(out)


@dataclass(frozen=True)
class Word:
    """One content word: its stem, spelling variants, concepts, and whether it denies its concept."""

    surface: str
    stem: str
    keys: frozenset[str]
    concepts: frozenset[str]
    negative: bool
    light: bool
    compound: bool = False  # concepts come from the head of a compound (영업시간 -> 영업)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Words are dictionary keys in every memo of the matcher: hash the fields once.
        object.__setattr__(self, "_hash", hash((self.surface, self.stem, self.keys, self.concepts, self.negative,
                                                self.light, self.compound)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def bare(self) -> bool:
        """No particle or ending attached: part of a compound noun phrase (주차 공간)."""
        return self.stem == self.surface


def _concepts_for(form: str, inflected: bool) -> tuple[frozenset[str], bool]:
    if form in _BARE_AMBIGUOUS and not inflected:
        return frozenset(), False
    if form in NEGATIVE_CONCEPTS:
        return NEGATIVE_CONCEPTS[form], True
    if form in CONCEPTS:
        return CONCEPTS[form], False
    return frozenset(), False


@lru_cache(maxsize=65536)
def analyse_word(surface: str, near_time: bool = False) -> Word | None:
    """A content word, or None for stop words. ``near_time``: a clock time is in the same clause."""
    base = stem(surface)
    if base in STOPWORDS or surface in STOPWORDS or surface in SUFFIX_SET:
        return None
    keys = variants(base) | {base}
    inflected = base != surface
    if base in CLOSE_WORDS or surface.startswith("닫"):
        # "문을 닫는다" next to a time is a closing time; on its own it says "closed".
        if near_time:
            return Word(surface, base, keys, frozenset({"@end"}), False, False)
        return Word(surface, base, keys, frozenset({"@open"}), True, False)
    concepts: frozenset[str] = frozenset()
    negative = False
    for form in (surface, base, *sorted(keys)):
        found, neg = _concepts_for(form, inflected or form != surface)
        if found:
            concepts, negative = found, neg
            break
    if not concepts:
        for prefix, concept in NEGATIVE_PREFIXES:
            if base.startswith(prefix):
                concepts, negative = frozenset({concept}), True
                break
    compound = False
    if not concepts:  # a compound whose head is known: 영업시간 -> 영업, 대출기간 -> 대출
        for cut in range(len(base) - 1, COMPOUND_HEADS_MIN - 1, -1):
            if base[:cut] in CONCEPTS:
                concepts, compound = CONCEPTS[base[:cut]], True
                break
    light = base in LIGHT or bool(concepts & LIGHT_CONCEPTS)
    return Word(surface, base, frozenset(keys), concepts, negative, light, compound)


@lru_cache(maxsize=65536)
def bigrams(word: str) -> frozenset[str]:
    return frozenset(word[i:i + 2] for i in range(len(word) - 1)) if len(word) > 1 else frozenset({word})


@lru_cache(maxsize=262144)
def word_similarity(a: Word, b: Word) -> float:
    """How well word ``b`` (source) stands for word ``a`` (claim), from 0 to 1 (not symmetric)."""
    if a.stem == b.stem:
        return 1.0
    if a.keys & b.keys:
        return 0.95
    short, long_ = (a.stem, b.stem) if len(a.stem) <= len(b.stem) else (b.stem, a.stem)
    if len(short) >= 2 and long_.startswith(short):  # 주차 / 주차장, 영업 / 영업시간
        return 0.95
    if a.concepts & b.concepts:
        # A synonym (운영 for 영업) is a little less than the word itself, and a compound's
        # head (참가비 for 참가) less again: it is about it, not the same thing.
        return 0.8 if a.compound or b.compound else 0.9
    if len(short) >= 2:
        if long_.endswith(short):
            # The source's word is more specific (카페라테 for 라테): fine. The claim's is
            # (저상버스 for 버스): it says more than the source does.
            return 0.85 if short == a.stem else 0.3
        ga, gb = bigrams(a.stem), bigrams(b.stem)
        dice = 2 * len(ga & gb) / (len(ga) + len(gb))
        if dice >= 0.5:
            return 0.7 * dice
    return 0.0
