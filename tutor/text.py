"""Characters that change how text reads without showing themselves, in one place.

Code, evidence and reviews written by one person are shown to others (peers,
instructors, the author reading a review). Bidi controls can make a line read
differently from what it holds ("Trojan Source"), zero-width and other format
characters (Unicode category Cf, tag characters among them), Hangul fillers
and variation selectors can hide or disguise text. ``hidden`` says which
characters those are; ``visible`` replaces each by a mark such as ⟨U+202E⟩;
the ``visible`` template filter (``tutor.templatetags.text``, a builtin of every
template) shows the marks as a styled span. Lab output uses the same
classification (``exercises.labs.sandbox.output``).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

KEPT = frozenset("\t\n\r")
BIDI_CONTROLS = frozenset([chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
                          + ["\u200e", "\u200f", "\u061c"])
HANGUL_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
#: Not category Cf, yet invisible or reshaping what comes before: the combining grapheme joiner, the line and
#: paragraph separators, Mongolian free variation selectors.
OTHER_INVISIBLE = frozenset(["\u034f", "\u2028", "\u2029", "\u180b", "\u180c", "\u180d", "\u180f"])


def _is_variation_selector(code: int) -> bool:
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


@functools.cache
def is_hidden(char: str) -> bool:
    """Say whether ``char`` is a control, a format character (Cf), a Hangul filler or a variation selector."""
    if char in KEPT:
        return False
    category = unicodedata.category(char)
    return (category in {"Cc", "Cf"} or char in HANGUL_FILLERS or char in OTHER_INVISIBLE
            or _is_variation_selector(ord(char)))


def mark(char: str) -> str:
    return f"⟨U+{ord(char):04X}⟩"


def hidden_in(text: str) -> list[str]:
    """The distinct hidden characters of ``text`` in order of appearance."""
    return list(dict.fromkeys(char for char in text if is_hidden(char)))


def visible(text: str) -> str:
    """``text`` with every hidden character replaced by its mark (plain text, for Markdown sources and CSV)."""
    return "".join(mark(char) if is_hidden(char) else char for char in text)


_MARK = re.compile(r"⟨U\+[0-9A-F]{4,6}⟩")


def visible_html(text: object) -> SafeString:
    """``text`` escaped for HTML with each hidden character shown as a marked span a reader cannot miss."""
    parts = []
    for char in str(text):
        if is_hidden(char):
            name = unicodedata.name(char, "") or f"U+{ord(char):04X}"
            parts.append(f'<span class="hidden-char" title="{escape(name)}">{mark(char)}</span>')
        else:
            parts.append(escape(char))
    return mark_safe("".join(parts))  # noqa: S308 - every character is escaped or a fixed mark


def real_characters(text: str) -> int:
    """How many letters and digits ``text`` holds, not counting hidden characters (a Hangul filler is a letter to
    Unicode): what a minimum length of a submission counts."""
    return sum(1 for char in text if unicodedata.category(char)[0] in {"L", "N"} and not is_hidden(char))
