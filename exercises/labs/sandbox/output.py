"""Make a program's output safe to store and show: decoded, and every invisible control made visible.

A run's output reaches the database, the pages reviewers read and the
operator's terminal (``lab_run``). Terminal escapes could rewrite that
terminal, bidi overrides could make a line read differently from what it
holds (the "Trojan Source" trick), and zero-width characters could hide
text. Each is replaced by a visible mark before anything is stored: C0
controls by their Unicode control pictures (ESC becomes ␛, so an escape
sequence loses its effect and stays readable), the rest by ``<U+XXXX>``.
Tab, newline and carriage return stay as they are.
"""

from __future__ import annotations

import functools

KEPT_CONTROLS = frozenset("\t\n\r")
# Bidi embeddings, overrides and isolates, the bidi marks, and zero-width or invisible characters.
INVISIBLE = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # LRE RLE PDF LRO RLO
    + [chr(c) for c in range(0x2066, 0x206A)]  # LRI RLI FSI PDI
    + [chr(c) for c in range(0x200B, 0x2010)]  # ZWSP ZWNJ ZWJ LRM RLM
    + [chr(c) for c in range(0x2060, 0x2065)]  # word joiner, invisible operators
    + [chr(c) for c in range(0x206A, 0x2070)]  # deprecated format controls
    + ["\u061c", "\u180e", "\ufeff", "\u2028", "\u2029", "\u00ad"]
    + [chr(c) for c in range(0xFFF9, 0xFFFC)]  # interlinear annotation
)


@functools.cache
def _table() -> dict[int, str]:
    table = {c: chr(0x2400 + c) for c in range(0x20) if chr(c) not in KEPT_CONTROLS}
    table[0x7F] = "\u2421"  # ␡
    table.update({c: f"<U+{c:04X}>" for c in range(0x80, 0xA0)})  # C1 controls, CSI among them
    table.update({ord(ch): f"<U+{ord(ch):04X}>" for ch in INVISIBLE})
    return table


def visible(text: str) -> str:
    """Replace every control and invisible character in ``text`` with a visible mark."""
    return text.translate(_table())


def decode(data: bytes) -> str:
    """Decode program output: invalid UTF-8 becomes U+FFFD, controls become visible marks."""
    return visible(data.decode("utf-8", errors="replace"))
