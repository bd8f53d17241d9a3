"""A notice's table rows read with their header, as a sentence says them.

Notices put prices and times in tables: "구분 | 1되당 삯 | 1되당 걸리는 시간" over "참기름 | 9,000원 | 약 40분". The row
alone does not say that 9,000원 is per 되, or that 12,000원 is the adult's fare; its header does. A model answering
from the notice reads the row with its header ("참기름은 1되에 9,000원이라 3되면 27,000원"), so the computation check
reads it so too: "참기름 1되당 삯 9,000원, 참기름 1되당 걸리는 시간 약 40분". The line keeps its number; only its reading changes.

What counts as a table, by form alone: two or more lines in a row whose cells are split by "|"; the first of them is
the header when it states no amount and no clock time (a notice's table names its columns before its rows), and so is
such a row right after a row that states one (a second table); a row is read with the header only when it has as many
cells. Anything else is left as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_STATED = re.compile(r"\d\s*[,.]?\d*\s*원|\d{1,2}:\d{2}|\d\s*시(?!간)")


def _cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if "|" not in stripped:
        return None
    cells = [cell.strip() for cell in stripped.strip("|").split("|")]
    return cells if len(cells) >= 2 and all(cells) else None


@lru_cache(maxsize=256)  # as many sources as the matcher keeps analysed (matcher.MAX_SOURCES): each check asks again
def read_tables(lines: tuple[str, ...]) -> tuple[str, ...]:
    """``lines`` with each table row under a header read as "<first cell> <column> <cell>, <first cell> <column> <cell>…":
    the row's first cell names what every cell of it is about ("4~6통 … 오후 위주" is not 1~3통's time)."""
    out = list(lines)
    index = 0
    while index < len(lines):
        block = []
        while index < len(lines) and (_RULE.match(lines[index]) or _cells(lines[index]) is not None):
            block.append(index)
            index += 1
        if not block:
            index += 1
            continue
        rows = [number for number in block if not _RULE.match(lines[number])]
        if len(rows) < 2 or _STATED.search(lines[rows[0]]):
            continue
        header = _cells(lines[rows[0]]) or []
        for before, number in zip(rows, rows[1:], strict=False):
            cells = _cells(lines[number]) or []
            if _STATED.search(lines[before]) and not _STATED.search(lines[number]):
                header = cells  # a second table right under a table of prices: its own header
                continue
            if len(cells) == len(header):
                out[number] = ", ".join(f"{cells[0]} {name} {cell}" for name, cell in zip(header[1:], cells[1:],
                                                                                          strict=True))
    return tuple(out)
