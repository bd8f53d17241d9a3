"""Make a program's output safe to store and show: decoded, every invisible character made visible, capped.

A run's output reaches the database, the pages reviewers read and the
operator's terminal (``lab_run``). Terminal escapes could rewrite that
terminal, bidi overrides could make a line read differently from what it
holds (the "Trojan Source" trick), and zero-width, tag and filler characters
could hide text. Each is replaced by a visible mark before anything is
stored: C0 controls by their Unicode control pictures (ESC becomes ␛, so an
escape sequence loses its effect and stays readable), the rest by
``<U+XXXX>``. Tab, newline and carriage return stay as they are.

Marked: C1 controls; every format character (Unicode category Cf: bidi
embeddings, overrides, isolates and marks, zero-width characters, the soft
hyphen, tag characters U+E0000–E007F, …); the Hangul fillers, which draw as
blanks; variation selectors (U+FE00–FE0F, U+E0100–E01EF); the line and
paragraph separators.

The output cap is counted on this stored text (``cap``), not on the bytes the
program wrote: a byte can become a mark of several.
"""

from __future__ import annotations

import functools
import sys
import unicodedata

KEPT_CONTROLS = frozenset("\t\n\r")
HANGUL_FILLERS = (0x115F, 0x1160, 0x3164, 0xFFA0)
VARIATION_SELECTORS = (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
TAG_CHARACTERS = tuple(range(0xE0000, 0xE0080))  # Cf where assigned; marked whole, assigned or not
OTHER_INVISIBLE = (0x180E, 0x2028, 0x2029)  # Mongolian vowel separator (Cf before Unicode 6.3), separators


@functools.cache
def invisible() -> frozenset[int]:
    """Every code point ``visible`` marks, besides the C0 and C1 controls."""
    formats = (c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf")
    return frozenset((*formats, *HANGUL_FILLERS, *VARIATION_SELECTORS, *TAG_CHARACTERS, *OTHER_INVISIBLE))


@functools.cache
def _table() -> dict[int, str]:
    table = {c: chr(0x2400 + c) for c in range(0x20) if chr(c) not in KEPT_CONTROLS}
    table[0x7F] = "\u2421"  # ␡
    table.update({c: f"<U+{c:04X}>" for c in range(0x80, 0xA0)})  # C1 controls, CSI among them
    table.update({c: f"<U+{c:04X}>" for c in invisible()})
    return table


def visible(text: str) -> str:
    """Replace every control and invisible character in ``text`` with a visible mark."""
    return text.translate(_table())


def decode(data: bytes) -> str:
    """Decode program output: invalid UTF-8 becomes U+FFFD, controls become visible marks."""
    return visible(data.decode("utf-8", errors="replace"))


def cap(stdout: str, stderr: str, limit: int) -> tuple[str, str, bool]:
    """Cut the stored texts to ``limit`` UTF-8 bytes together (stdout first); say whether anything was cut.

    A cut never splits a character, and never a mark: a mark that would not
    fit whole is left out whole.
    """
    out, out_cut = _cut(stdout, limit)
    err, err_cut = _cut(stderr, limit - len(out.encode()))
    return out, err, out_cut or err_cut


def _cut(text: str, limit: int) -> tuple[str, bool]:
    data = text.encode()
    if len(data) <= max(0, limit):
        return text, False
    kept = data[: max(0, limit)].decode("utf-8", errors="ignore")
    mark = kept.rfind("<U+")
    if mark != -1 and ">" not in kept[mark:]:
        kept = kept[:mark]
    return kept, True
