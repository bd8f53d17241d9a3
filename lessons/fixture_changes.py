"""What changed between two versions of a fictional fixture, line by line ("기준 변경됨": old → new)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .models import FixtureVersion


@dataclass(frozen=True)
class LineChange:
    """One changed line: its number and text in the old version and in the new one (None where absent)."""

    old_number: int | None
    old_text: str | None
    new_number: int | None
    new_text: str | None


def changed_lines(old: FixtureVersion, new: FixtureVersion) -> list[LineChange]:
    """Pair the old and new lines that differ, so a reader sees what a citation of the old version rested on."""
    return changes_between(old.text, new.text)


def changed_numbers(before: str, after: str) -> set[int]:
    """Line numbers a reference may rest on that the change reaches: old numbers changed or gone, new ones added."""
    return {n for change in changes_between(before, after) for n in (change.old_number, change.new_number)
            if n is not None}


def changes_between(before_text: str, after_text: str) -> list[LineChange]:
    before, after = before_text.splitlines(), after_text.splitlines()
    changes: list[LineChange] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            changes.append(LineChange(
                old_number=i + 1 if i < i2 else None, old_text=before[i] if i < i2 else None,
                new_number=j + 1 if j < j2 else None, new_text=after[j] if j < j2 else None,
            ))
    return changes
