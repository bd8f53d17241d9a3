"""CSV that a spreadsheet opens safely: formulas neutralised, UTF-8 with a BOM so the Korean is read.

Every cell that a spreadsheet would read as a formula (starting with = + - @,
a tab or a carriage return) is prefixed with an apostrophe (OWASP's CSV
injection rule).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(rows: Iterable[list[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return BOM + buffer.getvalue()
