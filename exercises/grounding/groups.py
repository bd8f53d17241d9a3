"""Keys pinned to a fixture version, and answer groups: what the people who teach add to the checks.

- A key (a question's, a variant's override, a sample claim's) is pinned to the fixture
  version it was written for. On another version whose change reaches a line the key rests
  on, the key backs no verdict (``stale_key``) until an author or instructor confirms it.
- A submitted claim no check could judge joins an answer group: claims of the same exercise
  and fixture version whose normalised text (and so its values) is the same. An instructor
  judges the group once and the judgement is a claim key for every claim in it (``group_key``).

Pure functions over rows already read; the writes live in ``services``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from lessons.fixture_changes import changed_numbers
from lessons.fixture_refs import lines_referred
from lessons.models import FixtureVersion

from .engine import says_silent
from .engine.analysis import analyse_claim
from .engine.claims import strip_markdown
from .models import JUDGEMENT_FOR, ClaimGroup, GroupJudgement, Judgement, Relation

STALE_BASIS = "확인 안 됨 — 자료가 바뀌어 답안 키를 다시 확인하는 중"
AWAITING_BASIS = "강사 확인 대기"
GROUP_BASIS = "강사 판정"

_CITATION = re.compile(r"\(\s*\d{1,3}(?:\s*[,~–-]\s*\d{1,3})*\s*(?:번\s*줄)?\s*\)")
_MARKER = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)]|[가-하][.)])\s+")
_EMPHASIS = re.compile(r"[*_`~]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NOT_WORD = re.compile(r"[^\w]+")


def normalise_claim(text: str) -> str:
    """The text claims are grouped by: no list marker, citation, emphasis, punctuation or spacing."""
    text = unicodedata.normalize("NFKC", text)
    text = _MARKER.sub("", text)
    text = _CITATION.sub(" ", text)
    text = _EMPHASIS.sub("", text)
    text = _NOT_WORD.sub(" ", text.replace(",", "")).lower()
    return " ".join(text.split())


def claim_values(text: str) -> list[str]:
    """The numbers a claim states, in order (money and times written with commas read the same)."""
    return [n.replace(",", "") for n in _NUMBER.findall(_CITATION.sub(" ", unicodedata.normalize("NFKC", text)))]


def group_form(text: str) -> str:
    """What two claims must share to fall in one answer group: the same content words by their stems, the
    same values as read (10시 and 10:00, 3,000원 and 3천 원 alike; an hour without 오전/오후 read on the
    twelve-hour dial; "10시부터" is not "10시까지"), each word denied or not as in its clause, and the same hedges; in
    any order.

    Why not the spelling: learners asking their own assistant the same question get the same fact back with
    other endings, particles, spacing or number formats ("토요일은 10시에 열어요", "토요일 오전 10시에 엽니다"),
    and an instructor should judge that once. What it leaves apart on purpose: another word ("열어요" and
    "운영해요"), a negation, a hedge, another value. A group's members are listed to the instructor who
    judges it, and the bench measures the wrong verdicts a judged group would give its members.
    """
    text = _CITATION.sub(" ", _MARKER.sub("", unicodedata.normalize("NFKC", strip_markdown(text))))
    words: set[str] = set()
    values: set[str] = set()
    cues: set[str] = set()
    for segment in analyse_claim(text):
        # A word denied in its clause is another word: "A는 되고 B는 안 돼요" is not "A는 안 되고 B는 돼요".
        words |= {word.stem + ("¬" if len(cover) % 2 else "")
                  for word, cover in zip(segment.words, segment.covers, strict=True) if not word.light}
        values |= {_value_form(value.kind, value.alts, value.days) + f"@{value.role}" for value in segment.values}
        cues |= segment.cues
    if not words and not values:  # nothing read ("네, 맞아요."): only the same wording groups
        return normalise_claim(text)
    return " | ".join(" ".join(sorted(part)) for part in (words, values, cues))


def _value_form(kind: str, alts: tuple[tuple[float, float], ...], days: frozenset[int]) -> str:
    if kind == "time":  # "7시" may be 7:00 or 19:00, "저녁 7시" is 19:00: both are 7 on the dial
        alts = tuple((start % 12, end % 12) for start, end in alts)
    readings = ",".join(sorted({f"{start:g}-{end:g}" for start, end in alts}))
    return f"{kind}:{readings}:{','.join(str(day) for day in sorted(days))}"


def signature(text: str, question: str = "") -> str | None:
    """The answer group's key (``group_form``, hashed: it is stored and compared, never shown), or None when the claim
    joins no group.

    A claim that names no value and at most one thing ("네, 참가할 수 있어요", "네, 맞아요") says something only of the
    question it answers: "can an adult join?" and "can a five-year-old join?" get the same words with opposite right
    answers. It groups only with claims linked to the same question, and not at all while linked to none.
    """
    form = group_form(text)
    if _thin(form):
        if not question:
            return None
        form = f"{form} @ {question}"
    return hashlib.sha256(form.encode()).hexdigest()


def _thin(form: str) -> bool:
    parts = form.split(" | ")
    if len(parts) != 3:  # nothing read: the same wording groups
        return True
    words, values, _cues = parts
    return not values and len([word for word in words.split() if word.rstrip("¬") not in _YES_NO]) <= 1


_YES_NO = frozenset({"네", "예", "아니요", "아니오", "아뇨", "응", "맞"})


def key_lines(key: dict[str, Any], slug: str) -> set[int]:
    """Every line a key rests on: its lines, evidence and required lines, and those its explanation quotes."""
    lines = {int(n) for name in ("lines", "evidence", "required", "key_lines") for n in key.get(name) or []}
    quoted = lines_referred(str(key.get("explanation") or ""), slug, own=True)
    return lines | (quoted or set())


class Pins:
    """Decides, for one fixture version in use, whether a key pinned to another version still holds.

    A key holds when it is pinned to this version, when it has no pin (written before pins), or when
    the change between its version and this one reaches none of the lines it rests on. A key that
    quotes the whole fixture rests on every line.
    """

    def __init__(self, version: FixtureVersion) -> None:
        self.version = version
        self._changed: dict[int, set[int] | None] = {}

    def changed_since(self, number: int) -> set[int] | None:
        """Line numbers the change from version ``number`` to this one reaches; None if that version is gone."""
        if number not in self._changed:
            old = FixtureVersion.objects.filter(fixture_id=self.version.fixture_id, number=number).first()
            self._changed[number] = None if old is None else changed_numbers(old.text, self.version.text)
        return self._changed[number]

    def stale(self, key: dict[str, Any] | None) -> bool:
        if key is None:
            return False
        pinned = key.get("fixture_version")
        if pinned is None or int(pinned) == self.version.number:
            return False
        changed = self.changed_since(int(pinned))
        if changed is None:
            return True
        slug = self.version.fixture.slug
        if lines_referred(str(key.get("explanation") or ""), slug, own=True) is None or says_silent_key(key):
            return bool(changed)
        return bool(key_lines(key, slug) & changed)


def says_silent_key(key: dict[str, Any]) -> bool:
    """A key that the source is silent on something (relation 원문에 없음, 자료없음 resting on no line of its own, or a
    claim on no line that says so): it rests on every line, since a line added or changed anywhere may name what the source lacked. Its explanation's
    quotes ("4번 줄은 찾아오는 길") are what the source says instead, not what the judgement rests on."""
    if key.get("relation") == Relation.SILENT:
        return True
    if any(key.get(name) for name in ("lines", "evidence", "required", "key_lines")):
        return False
    # 자료없음 on no line, or a claim that rightly says the source is silent ("안내문에는 주차 이야기가 없습니다", 근거)
    return key.get("judgement") == Judgement.NO_DATA or says_silent(str(key.get("text") or ""))


def judgement_key(judgement: GroupJudgement, *, previous: GroupJudgement | None = None) -> dict[str, Any]:
    """An instructor's judgement of a group as a claim key (what ``claim_key`` reads, with its source)."""
    key: dict[str, Any] = {
        "text": judgement.group.text, "relation": judgement.relation,
        "judgement": JUDGEMENT_FOR[judgement.relation], "lines": sorted(judgement.lines), "question": "",
        "explanation": judgement.explanation, "source": "group", "group": judgement.group_id,
        "key_version": judgement.version, "fixture_version": judgement.group.fixture_version.number,
    }
    if previous is not None:
        key["previous"] = {"relation": previous.relation, "judgement": JUDGEMENT_FOR[previous.relation],
                           "key_version": previous.version}
    return key


def current_judgement(group: ClaimGroup | None) -> GroupJudgement | None:
    if group is None:
        return None
    return group.judgements.select_related("group__fixture_version").order_by("-version").first()


def group_key(group: ClaimGroup | None) -> dict[str, Any] | None:
    """The key the group's current judgement makes, with the one it replaced; None while nobody judged it."""
    if group is None:
        return None
    latest = list(group.judgements.select_related("group__fixture_version").order_by("-version")[:2])
    if not latest:
        return None
    return judgement_key(latest[0], previous=latest[1] if len(latest) > 1 else None)


def effective_key(claim_key: dict[str, Any] | None, group: ClaimGroup | None, pins: Pins) -> tuple[
        dict[str, Any] | None, bool]:
    """The key that may back a claim's verdict, and whether a key was set aside because its lines changed.

    An instructor's judgement of the claim's group comes first (it was made on this very version);
    a sample claim's key counts only while it holds on this version.
    """
    judged = group_key(group)
    if judged is not None:
        return judged, False
    if pins.stale(claim_key):
        return None, True
    return claim_key, False


def people_notes(item: dict[str, Any], *, stale: bool, awaiting: bool, key: dict[str, Any] | None) -> None:
    """What the people side adds to one claim's feedback item after the checks ran: for an instructor's
    judgement, what it replaced; for a claim held by a changed key, no explanation from that key; for a
    claim in a group nobody has judged yet, the basis 강사 확인 대기."""
    if key is not None and key.get("source") == "group":
        previous = key.get("previous")
        if previous:
            item["changed"] = f"강사 판정이 바뀌었습니다 (판 {previous['key_version']} → 판 {key['key_version']})."
        return
    if item.get("verdict") != "unchecked":
        return
    if stale:
        item["stale"] = True
        item["explanation"] = ""
        item.pop("facts", None)
        item["basis"] = item.get("basis") or STALE_BASIS
    elif awaiting and not item.get("basis"):
        item["awaiting"] = True
        item["basis"] = AWAITING_BASIS
