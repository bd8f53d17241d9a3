"""References to fixture lines in authored text, filled in from the fixture version in use.

Explanations, task and lab instructions and lesson text never copy what a
fixture says; they point at it, and the reader sees the version in use:

- ``[[2]]``: line 2 of the fixture the text belongs to (an exercise's, or its
  variant's), shown as a quotation;
- ``[[bookshop-notice:2]]``: line 2 of a named fixture;
- ``[[bookshop-notice]]``: the whole fixture, each line with its number.

After a fixture admin changes a line, every text that points at it shows the
new line at once, and a line that no longer exists says so instead of
quoting something else. Brackets that name no fixture (code such as
``[[1]]`` in a lesson, where no fixture is the text's own) are left as written;
the course test checks that every intended reference names a real line. Where these references are, and which lines they rest
on, is what the fixture admin lists before a change is saved (``uses_of``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import unescape

from django.utils.html import escape

from tutor import extensions

from .extensions import FixtureUsers
from .models import Fixture, FixtureVersion

_TAG = re.compile(r"(<[^>]*>)")
REF = re.compile(r"\[\[(?:(?P<slug>[a-z][a-z0-9-]*)(?::(?P<line>\d{1,4}))?|(?P<own>\d{1,4}))\]\]")


@dataclass(frozen=True)
class Reference:
    """One reference: a named fixture (or None for the text's own) and a line (None for the whole fixture)."""

    slug: str | None
    line: int | None


def references_in(text: str) -> list[Reference]:
    found = []
    for match in REF.finditer(text):
        if match["own"]:
            found.append(Reference(slug=None, line=int(match["own"])))
        else:
            found.append(Reference(slug=match["slug"], line=int(match["line"]) if match["line"] else None))
    return found


def lines_referred(text: str, slug: str, *, own: bool = False) -> set[int] | None:
    """Lines of fixture ``slug`` the text points at; None if it shows the whole fixture.

    ``own`` says the text belongs to that fixture, so ``[[2]]`` counts too.
    """
    lines: set[int] = set()
    for ref in references_in(text):
        if ref.slug == slug or (own and ref.slug is None):
            if ref.line is None:
                return None
            lines.add(ref.line)
    return lines


def current_versions(slugs: Iterable[str]) -> dict[str, FixtureVersion]:
    """The version in use of each named fixture, in one query."""
    wanted = set(slugs)
    if not wanted:
        return {}
    fixtures = Fixture.objects.filter(slug__in=wanted, current_version__isnull=False).select_related("current_version")
    return {f.slug: f.current_version for f in fixtures if f.current_version is not None}


def versions_for(*texts: str) -> dict[str, FixtureVersion]:
    """The versions in use of every fixture the texts name."""
    return current_versions({ref.slug for text in texts for ref in references_in(text) if ref.slug})


def resolve(text: str, versions: Mapping[str, FixtureVersion], *, own: FixtureVersion | None = None,
            html: bool = False) -> str:
    """Fill the references in ``text`` from ``versions`` (and ``own`` for ``[[N]]``).

    With ``html`` the text is already safe markup and each filled-in line is
    escaped into it; otherwise the result is plain text for a template to escape.
    """

    def fill(match: re.Match[str]) -> str:
        slug = match["slug"]
        version = versions.get(slug) if slug else own
        number = match["line"] or match["own"]
        if version is None:
            return match[0]  # not a reference here (code such as [[1]], or no such fixture): left as written
        lines = version.text.splitlines()
        if number is None:
            body = "\n".join(f"{n} {line}" for n, line in enumerate(lines, start=1))
            return escape(body) if html else body
        n = int(number)
        if not 1 <= n <= len(lines):
            body = f"({version.fixture.slug} 판 {version.number}에는 {n}번 줄이 없습니다)"
            return escape(body) if html else body
        if html:
            return (f'<q class="fixture-ref" title="{escape(version.fixture.slug)} 판 {version.number}, '
                    f'{n}번 줄">{escape(lines[n - 1])}</q>')
        return f"“{lines[n - 1]}”"

    if not html:
        return REF.sub(fill, text)
    # Only in text between tags: a reference inside an attribute (an alt text, say) stays as written
    # rather than put markup where an attribute's value is.
    return "".join(part if part.startswith("<") else REF.sub(fill, part) for part in _TAG.split(text))


@dataclass(frozen=True)
class FixtureUse:
    """A place that rests on a fixture: what it is, and the lines it rests on (None: the whole fixture)."""

    kind: str
    label: str
    lines: frozenset[int] | None


def uses_of(fixture: Fixture) -> list[FixtureUse]:
    """Everything resting on ``fixture``: each app answers ``fixture_uses(fixture)`` for its own content."""
    uses: list[FixtureUse] = []
    for app in extensions.providers(FixtureUsers):
        uses.extend(app.fixture_uses(fixture))
    return uses


def use(kind: str, label: str, lines: Iterable[int] | None) -> FixtureUse:
    return FixtureUse(kind=kind, label=label, lines=None if lines is None else frozenset(lines))


def affected_by(uses: Iterable[FixtureUse], changed: set[int]) -> list[FixtureUse]:
    """The uses a change of the ``changed`` line numbers reaches: those on a changed line, and whole-fixture ones."""
    if not changed:
        return []
    return [u for u in uses if u.lines is None or u.lines & changed]


# Texts that name a line by number ("2번 줄", "(2)") or restate its values in their own words never
# follow a change of that line. The fixture admin lists them too, block by block (a table row, a list
# item, a paragraph), so whoever changes the line knows what to rewrite.

_BLOCK_END = re.compile(r"</(?:p|li|tr|h[1-6]|pre|blockquote|dd|dt)>|\n")
_ANY_TAG = re.compile(r"<[^>]+>")
_ROW = re.compile(r"<tr[ >].*?</tr>", re.S)
_LINE_NUMBERS = re.compile(r"((?:\d{1,3}\s*[·,、와과]\s*)*\d{1,3})\s*번\s*(?:줄|$|[^\d가-힣])")
_CITED = re.compile(r"\(\s*(\d{1,3}(?:\s*,\s*\d{1,3})*)(?:\s*[은는]?\s*[가-힣 ]{0,6})?\)")
_VALUE = re.compile(r"\d+(?:[.,]\d+)?\s*(?:시|분|명|원|일|월|층|%|개|회|주|년)")
_HANGUL_WORD = re.compile(r"[가-힣]{2,}")


def _anchors(line: str) -> set[str]:
    """Two-syllable pieces of the line's words: what a row about this line shares with it."""
    return {word[i:i + 2] for word in _HANGUL_WORD.findall(line) for i in range(len(word) - 1)}


def _values(text: str) -> set[str]:
    return {re.sub(r"\s+", "", v) for v in _VALUE.findall(text)}


def blocks_of(text: str) -> list[str]:
    """The text's blocks as plain text (rows, list items, paragraphs), without markup."""
    found = []
    text = _ROW.sub(lambda row: row[0].replace("\n", " "), text)  # a table row is one block, cells and all
    for raw in _BLOCK_END.split(text):
        plain = " ".join(unescape(_ANY_TAG.sub(" ", raw)).split())
        if plain:
            found.append(plain)
    return found


def lines_named_in(block: str, version: FixtureVersion) -> set[int]:
    """Lines of ``version`` a block names by number or restates by value, when it is about that line.

    A number or a value alone could be another fixture's line, so either counts only with two word
    pieces shared with that line.
    """
    lines = version.text.splitlines()
    mentioned = {int(n) for group in _LINE_NUMBERS.findall(block) + _CITED.findall(block)
                 for n in re.findall(r"\d{1,3}", group)}
    block_anchors = _anchors(block)
    block_values = _values(block)
    named = set()
    for number, line in enumerate(lines, start=1):
        shared = len(_anchors(line) & block_anchors)
        if shared >= 2 and (number in mentioned or _values(line) & block_values):
            named.add(number)
    return named


def named_uses(kind: str, label: str, text: str, version: FixtureVersion | None) -> list[FixtureUse]:
    """One use per block of ``text`` that names lines of ``version`` by number or value, with an excerpt."""
    if version is None:
        return []
    uses = []
    for block in blocks_of(text):
        if found := lines_named_in(block, version):
            excerpt = block if len(block) <= 60 else block[:59] + "…"
            uses.append(use(kind, f"{label} · “{excerpt}”", found))
    return uses
