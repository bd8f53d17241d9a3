"""Korean particles that follow the word they attach to: 근거가 / 보류가, '7,500원'은, 줄을 / 값를.

A particle pair is written "이/가", "은/는", "을/를", "과/와", "으로/로": the first form
follows a final consonant, the second a vowel (and 으로/로 takes 로 after ㄹ too). The
last sound is read from the last letter of the word, looking past closing quotes and
brackets; Arabic digits are read as Sino-Korean numbers (7,500 → 칠천오백, ends in ㄱ).
Anything that cannot be read (a Latin letter, a symbol) is taken as ending in a vowel.
"""

from __future__ import annotations

_BASE = 0xAC00
_FINAL_L = 8
_CLOSERS = "'\"’”)]」』>»*` "
# Whether the Sino-Korean reading of a last digit ends in a consonant (일 삼 육 칠 팔 = yes)
# and which final it has (ㄹ for 일, 칠, 팔).
_DIGIT_FINAL = {"0": 0, "1": _FINAL_L, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": _FINAL_L, "8": _FINAL_L, "9": 0}
# A number ending in 0 is read by its last non-zero place: 10 십 (ㅂ), 100 백 (ㄱ), 1000 천 (ㄴ), 10000 만 (ㄴ).
_ZERO_PLACES = {1: 17, 2: 1, 3: 4, 4: 4}
PAIRS = {"이/가": ("이", "가"), "은/는": ("은", "는"), "을/를": ("을", "를"), "과/와": ("과", "와"),
         "으로/로": ("으로", "로"), "이에요/예요": ("이에요", "예요"), "이라/라": ("이라", "라")}


def _final_of_number(digits: str) -> int:
    digits = digits.replace(",", "")
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros == 0:
        return _DIGIT_FINAL[digits[-1]]
    if zeros == len(digits):
        return 16  # 영 (ㅇ): a final consonant
    return _ZERO_PLACES.get(zeros % 4 or 4, 4) if zeros < 4 else _ZERO_PLACES[4]


def final_sound(word: str) -> int:
    """The final-consonant index of the last readable letter of ``word`` (0: a vowel or unknown)."""
    text = word.rstrip(_CLOSERS)
    if not text:
        return 0
    last = text[-1]
    if "가" <= last <= "힣":
        return (ord(last) - _BASE) % 28
    if last.isdigit():
        start = len(text)
        while start > 0 and (text[start - 1].isdigit() or text[start - 1] == ","):
            start -= 1
        return _final_of_number(text[start:].lstrip(","))
    return 0


def particle(word: str, pair: str) -> str:
    """The form of ``pair`` ("이/가", "은/는", ...) that follows ``word``."""
    consonant, vowel = PAIRS[pair]
    final = final_sound(word)
    if pair == "으로/로":
        return vowel if final in (0, _FINAL_L) else consonant
    return consonant if final else vowel


def attach(word: str, pair: str) -> str:
    """``word`` followed by the right form of ``pair``: attach("근거", "이/가") == "근거가"."""
    return f"{word}{particle(word, pair)}"
