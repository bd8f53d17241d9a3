"""Feedback on a submitted attempt, claim by claim: a verdict only where a named check backs it.

A claim's right judgement follows from what the claim says of the source (restates or
computes → 근거, not addressed → 자료없음 원문에 없음, contradicted → 자료없음 원문과
어긋남, made conditional → 보류), not from the key of the question it answers. The
feedback says 맞음 or 다시 보기 only when a check whose precondition holds decides it.

The checks are a declared, ordered table (``CHECKS``). Each is a ``Check``: a name, a
label, a precondition (``applies``: when it may speak at all) and a rule (``judge``)
that returns a ``Finding`` (맞음 / 다시 보기, with the Korean sentence shown as its basis)
or None. For each claim the checks run in order; those whose precondition fails are
skipped. The claim's verdict is 다시 보기 if any finding says so, else 맞음 if any does,
else 확인 안 됨 (the learner's judgement is then shown beside the source lines). A
check marked ``final`` ends the run when it speaks. A finding with the verdict
``UNCHECKED`` holds the claim at 확인 안 됨 with its basis shown (for a key that no
longer fits its fixture version) and ends the run.

To add a check: write one function ``def my_check(claim: ClaimContext) -> Finding | None``
(and, if it has one, a precondition ``def my_applies(claim: ClaimContext) -> bool``),
then add one ``Check(...)`` entry to ``CHECKS`` where it belongs in the order. Checks
that rest on a curated judgement of this very claim (a sample key, an instructor's
group judgement) go before the source checks and set ``key_version`` on their finding;
the source checks only speak where no key backs the claim (``unkeyed``). Anything a
check needs beyond the claim goes in ``ClaimContext.extra``.

No verdict ever comes from the suggestion engine's hint. An attempt is a completion
record, not a review.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .engine import LineScore, is_aside, says_silent, suggest, unrelated_lines, verbatim_line
from .engine.checks import (
    absent_subjects,
    absent_values,
    absent_words_shared,
    denied_line,
    leaves_open,
    may_compute,
    may_say_absent,
    names_the_claim,
    pending_lines_about,
    restated_line,
    silent_on,
    value_conflicts,
)
from .engine.claims import is_advice, is_opinion, states_something
from .engine.compute import calendar, computation
from .engine.matcher import index_for, values_on
from .engine.particles import attach
from .groups import GROUP_BASIS, STALE_BASIS, Pins, effective_key, people_notes
from .models import Attempt, Judgement, Relation

FORMAT = 2
RIGHT, REVIEW, UNCHECKED, UNMARKED, SET_ASIDE = "right", "review", "unchecked", "unmarked", "set_aside"
JUDGED = (Judgement.GROUNDED, Judgement.NO_DATA, Judgement.PENDING)
ACCOUNTS_FOR = 0.5  # a line ranked at least this accounts for most of a claim (ranking only, never a verdict)


def label(judgement: str) -> str:
    return str(Judgement(judgement).label) if judgement in Judgement.values else _("없음")


def relation_label(relation: str) -> str:
    return str(Relation(relation).label) if relation in Relation.values else ""


def _lines_text(numbers: list[int] | tuple[int, ...] | set[int]) -> str:
    return ", ".join(map(str, sorted(numbers)))


@dataclass(frozen=True)
class ClaimContext:
    """One marked claim and what the checks may consult: the source lines, its question and key."""

    text: str
    judgement: str
    cited: tuple[int, ...]
    question: Mapping[str, Any] | None
    key: Mapping[str, Any] | None
    lines: tuple[str, ...]
    key_version: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def silent(self) -> bool:
        """The claim says the source is silent on something (안내문에는 주차 이야기가 없습니다)."""
        return says_silent(self.text)

    @cached_property
    def valid_cited(self) -> tuple[int, ...]:
        return tuple(n for n in self.cited if 1 <= n <= len(self.lines) and self.lines[n - 1].strip())

    @cached_property
    def ranked(self) -> list[LineScore]:
        """The source lines ranked by how much of the claim each accounts for (ranking only, never a verdict)."""
        return suggest(list(self.lines), [self.text])[0].lines

    @cached_property
    def best_line(self) -> int | None:
        """The source line that accounts for most of the claim (at least half of it)."""
        return self.ranked[0].line if self.ranked and self.ranked[0].score >= ACCOUNTS_FOR else None

    @cached_property
    def cites_its_values(self) -> bool:
        """The claim states values (times, dates, amounts, durations), and the cited lines agree with each of them."""
        return values_on(index_for(self.lines), self.text, list(self.valid_cited))

    @cached_property
    def cites_an_account(self) -> bool:
        """A cited line accounts for most of the claim by the same measure as the best line."""
        return any(ranked.score >= ACCOUNTS_FOR for ranked in self.ranked if ranked.line in self.valid_cited)


@dataclass(frozen=True)
class Finding:
    """What a check says: 맞음 (RIGHT), 다시 보기 (REVIEW) or, to hold the claim, UNCHECKED."""

    verdict: str
    basis: str
    key_version: int | None = None


@dataclass(frozen=True)
class Check:
    name: str
    label: Any  # a lazy translation
    judge: Callable[[ClaimContext], Finding | None]
    applies: Callable[[ClaimContext], bool] = lambda claim: True
    final: bool = False
    # A soft hold says only what the site could not find; it holds the claim at 확인 안 됨 when no
    # other check spoke, and is dropped when one did (it never outweighs a backed finding).
    soft: bool = False


# --- preconditions --------------------------------------------------------
def unkeyed(claim: ClaimContext) -> bool:
    """No curated judgement of this claim exists: the source checks may speak."""
    return claim.key is None


def keyed(claim: ClaimContext) -> bool:
    return claim.key is not None


def _sample_keyed(claim: ClaimContext) -> bool:
    """A sample claim's curated key (not an instructor's group judgement)."""
    return claim.key is not None and claim.key.get("source") != "group"


def _group_judged(claim: ClaimContext) -> bool:
    """An instructor judged the answer group this claim falls in (its key says so)."""
    return claim.key is not None and claim.key.get("source") == "group"


def _key_set_aside(claim: ClaimContext) -> bool:
    """A key this claim rests on (its own or its question's) was written for a fixture version whose
    line has since changed, and nobody has confirmed it for this version."""
    return bool(claim.extra.get("stale_key"))


def _cites(claim: ClaimContext) -> bool:
    return unkeyed(claim) and bool(claim.valid_cited)


def _answers_silent_question(claim: ClaimContext) -> bool:
    """Linked to a question the source cannot answer, and the claim names what it asks and the source lacks."""
    question = claim.question
    return (unkeyed(claim) and question is not None and question.get("judgement") == Judgement.NO_DATA
            and states_something(claim.text)  # a label ("화장실 정보") answers nothing
            and not is_advice(claim.text)  # "환불 여부는 …팀(031-…)에 확인해 보세요" points elsewhere, answers nothing
            # an opinion ("토요일 오전이라 아이와 같이 가기 좋아요") weighs a fact of the source; it answers nothing
            and not is_opinion(claim.text)
            # a line the learner cites accounts for the claim ("상품권으로 하면 배터리 교체가 개당 1,000원 싸져요"): it states
            # the source, whatever word it shares with the question
            and not claim.cites_an_account
            and absent_words_shared(list(claim.lines), str(question.get("text", "")), claim.text))


def _answers_question_from_its_evidence(claim: ClaimContext) -> bool:
    """The claim's best line is one of its question's evidence lines: it really answers that question. Not when a
    line it cites accounts for it as well ("신청은 13일(금)까지 주민센터 방문이나 전화로" citing the application lines,
    while a line on the visit's phone call ranks first): the learner's lines explain the claim, the question's
    need not. Nor when the lines it cites hold every value it states ("평일 운영 시간은 오전 9시 ~ 오후 6시" citing the
    hours line, while the line saying 평일에만 운영 ranks first on its words)."""
    question = claim.question
    return (_cites(claim) and question is not None and bool(question.get("evidence"))
            and claim.judgement in (Judgement.GROUNDED, Judgement.PENDING)
            and claim.best_line is not None and claim.best_line in set(question["evidence"])
            and not claim.cites_an_account and not claim.cites_its_values)


# --- checks ---------------------------------------------------------------
def claim_key(claim: ClaimContext) -> Finding | None:
    """The curated key of this claim decides its judgement."""
    key = claim.key
    assert key is not None
    relation = relation_label(key["relation"])
    expected = label(key["judgement"])
    prefix = f"{key['basis']}: " if key.get("basis") else ""
    if claim.judgement == key["judgement"]:
        return Finding(RIGHT, prefix + _("%(relation)s: %(expected)s 맞습니다.")
                       % {"relation": relation, "expected": attach(expected, "이/가")}, claim.key_version)
    return Finding(REVIEW, prefix + _("%(relation)s: 이 주장의 판단은 %(expected)s입니다.")
                   % {"relation": relation, "expected": expected}, claim.key_version)


def stale_key(claim: ClaimContext) -> Finding | None:
    """A key whose lines changed backs no verdict: the claim is held at 확인 안 됨 until the key is confirmed."""
    return Finding(UNCHECKED, STALE_BASIS)


def group_judgement(claim: ClaimContext) -> Finding | None:
    """An instructor's judgement of the claim's answer group decides its judgement, for every learner in it."""
    key = claim.key
    assert key is not None
    relation = relation_label(key["relation"])
    expected = label(key["judgement"])
    if claim.judgement == key["judgement"]:
        return Finding(RIGHT, _("%(basis)s: %(relation)s — %(expected)s 맞습니다.")
                       % {"basis": GROUP_BASIS, "relation": relation, "expected": attach(expected, "이/가")},
                       key["key_version"])
    return Finding(REVIEW, _("%(basis)s: %(relation)s — 이 주장의 판단은 %(expected)s입니다.")
                   % {"basis": GROUP_BASIS, "relation": relation, "expected": expected}, key["key_version"])


def key_citation(claim: ClaimContext) -> Finding | None:
    """A right 근거 or 보류 under a key must cite at least one of the key's lines."""
    key = claim.key
    assert key is not None
    lines = set(key.get("lines") or [])
    if claim.judgement != key["judgement"] or key["judgement"] not in (Judgement.GROUNDED, Judgement.PENDING) \
            or not lines:
        return None
    version = key.get("key_version") if key.get("source") == "group" else claim.key_version
    if not claim.cited:
        return Finding(REVIEW, _("줄을 인용하지 않았습니다. %(lines)s번 줄을 인용하세요.") % {"lines": _lines_text(lines)},
                       version)
    if not set(claim.cited) & lines:
        return Finding(REVIEW, _("인용한 줄에 이 주장을 받치는(조건을 단) 줄이 없습니다. %(lines)s번 줄도 인용하세요.")
                       % {"lines": _lines_text(lines)}, version)
    return None


def no_lines(claim: ClaimContext) -> Finding | None:
    """근거 with no cited line: a claim the source supports has a line to cite (unless it says the source is silent).

    Only where the claim says nothing is absent, unknown or refused. A claim that does ("방수 보증서를 써 준다는 말은
    어디에도 없어요", "확인 불가 | 주차", "전망대 화장실 | 없음") may be a way of saying the source is silent that the silence
    check does not read, and such a claim has no line to cite; the site holds it at 확인 안 됨 and says why, and a person
    judges it (answer groups)."""
    if claim.judgement != Judgement.GROUNDED or claim.cited or claim.silent:
        return None
    if may_say_absent(claim.text):
        return Finding(UNCHECKED, _("인용한 줄이 없습니다. 원문에 없다는 주장이면 줄이 없어도 되지만, 원문이 말하는 것이면 "
                                    "받치는 줄을 인용하세요. 어느 쪽인지는 사이트가 가리지 못해 판단하지 않았습니다."))
    return Finding(REVIEW, _("근거라면 줄을 인용하세요: 이 주장을 받치는 원문 줄 번호를 적어 주세요."))



def missing_line(claim: ClaimContext) -> Finding | None:
    """A cited line that the source does not have (or that is blank)."""
    missing = sorted(set(claim.cited) - set(claim.valid_cited))
    if missing:
        return Finding(REVIEW, _("%(lines)s번 줄은 원문에 없습니다 (원문은 1–%(max)d번 줄).")
                       % {"lines": _lines_text(missing), "max": len(claim.lines)})
    return None


def verbatim(claim: ClaimContext) -> Finding | None:
    """The claim repeats a cited line (or a whole sentence of one) word for word: it restates the source."""
    copied = verbatim_line(list(claim.lines), claim.text, list(claim.valid_cited))
    if copied is None or claim.judgement not in JUDGED or leaves_open(list(claim.lines), copied):
        return None  # a line that leaves its matter open: 근거 or 보류 for its copy is the key's or a person's call
    if claim.judgement == Judgement.GROUNDED:
        return Finding(RIGHT, _("%(line)d번 줄을 그대로 옮긴 주장이라 원문과 같습니다. 근거가 맞습니다.") % {"line": copied})
    return Finding(REVIEW, _("%(line)d번 줄을 그대로 옮긴 주장입니다. 원문과 같은 주장은 근거입니다.") % {"line": copied})


def restated(claim: ClaimContext) -> Finding | None:
    """The claim says every word and value of a cited line and nothing more, in other endings or order."""
    if claim.judgement not in JUDGED:
        return None
    number = restated_line(list(claim.lines), claim.text, list(claim.valid_cited))
    if number is None or leaves_open(list(claim.lines), number):
        return None  # as for a verbatim copy: what the line leaves open is no plain restatement
    if claim.judgement == Judgement.GROUNDED:
        return Finding(RIGHT, _("%(line)d번 줄의 낱말과 값을 모두, 그것만 말하는 주장입니다 (어미·순서만 다름). 근거가 맞습니다.")
                       % {"line": number})
    return Finding(REVIEW, _("%(line)d번 줄의 낱말과 값을 모두, 그것만 말하는 주장입니다. 원문과 같은 주장은 근거입니다.")
                   % {"line": number})


def denied(claim: ClaimContext) -> Finding | None:
    """The claim says a cited line's words and values with the opposite negation: it contradicts the line."""
    if claim.judgement not in JUDGED:
        return None
    number = denied_line(list(claim.lines), claim.text, list(claim.valid_cited))
    if number is None:
        return None
    if claim.judgement == Judgement.NO_DATA:
        return Finding(RIGHT, _("%(line)d번 줄과 같은 말에 부정만 반대입니다: 원문과 어긋남. 자료없음이 맞습니다.") % {"line": number})
    return Finding(REVIEW, _("%(line)d번 줄과 같은 말에 부정만 반대입니다: 원문과 어긋나는 주장은 자료없음입니다.")
                   % {"line": number})


def _aside(claim: ClaimContext) -> bool:
    """A heading, question, greeting, sign-off or advice that is no claim about the source (``engine.is_aside``)."""
    return is_aside(claim.text, claim.ranked[0].score if claim.ranked else 0.0)


def set_aside(claim: ClaimContext) -> Finding | None:
    """A greeting, sign-off or piece of advice is not a claim about the source."""
    if claim.judgement == Judgement.NOT_A_CLAIM:
        return Finding(RIGHT, _("제목·질문·표 머리글·인사말·맺음말·권유는 원문에 대한 주장이 아닙니다. 주장 아님이 맞습니다."))
    return Finding(REVIEW, _("제목·질문·표 머리글·인사말·맺음말·권유는 원문에 대한 주장이 아닙니다. 주장 아님으로 표시하세요."))


def absent_subject(claim: ClaimContext) -> Finding | None:
    """The claim is about something (주차장이, 카페는) that no source line names."""
    if claim.judgement not in (Judgement.GROUNDED, Judgement.NO_DATA):
        return None
    named = absent_subjects(list(claim.lines), claim.text)
    if not named:
        return None
    what = attach("'" + "', '".join(named) + "'", "은/는")
    if claim.judgement == Judgement.NO_DATA:
        return Finding(RIGHT, _("%(what)s 원문 어느 줄에도 없습니다. 원문이 다루지 않는 것에 대한 주장은 자료없음이 맞습니다.")
                       % {"what": what})
    return Finding(REVIEW, _("%(what)s 원문 어느 줄에도 없습니다. 원문이 다루지 않는 것에 대한 주장은 근거가 아니라 자료없음입니다.")
                   % {"what": what})


def silence(claim: ClaimContext) -> Finding | None:
    """The claim says the source is silent on something no source line names: 근거 is right."""
    if claim.judgement != Judgement.GROUNDED or not claim.silent:
        return None
    named = silent_on(list(claim.lines), claim.text)
    if not named:
        return None
    return Finding(RIGHT, _("원문 어느 줄에도 %(words)s 없습니다. 원문에 없다고 말하는 주장은 근거가 맞습니다.")
                   % {"words": attach("'" + "', '".join(named) + "'", "이/가")})


def computed(claim: ClaimContext) -> Finding | None:
    """A value computed from the cited lines (a sum, a product, a rate, a shifted time) that the site reproduces."""
    if claim.judgement not in (Judgement.GROUNDED, Judgement.NO_DATA):
        return None
    found = computation(list(claim.lines), claim.text, list(claim.valid_cited), cited=list(claim.valid_cited))
    if found is None:
        return None
    if claim.judgement == Judgement.GROUNDED:
        return Finding(RIGHT, _("인용한 줄의 값으로 계산됩니다: %(f)s. 근거가 맞습니다.") % {"f": found.text})
    return Finding(REVIEW, _("인용한 줄의 값으로 계산하면 이 값이 나옵니다: %(f)s. 원문에서 계산되는 주장은 근거입니다.")
                   % {"f": found.text})


def weekdays(claim: ClaimContext) -> Finding | None:
    """Dates and their weekdays, and nothing else, against the calendar the source's own dated weekdays fix, on
    whichever line gives it (``compute.calendar``; outside its preconditions it says nothing)."""
    if claim.judgement not in (Judgement.GROUNDED, Judgement.NO_DATA):
        return None
    found = calendar(list(claim.lines), claim.text)
    if found is None:
        return None
    where = _lines_text(list(found.lines))
    if found.agrees and claim.judgement == Judgement.GROUNDED:
        return Finding(RIGHT, _("요일은 %(lines)s번 줄의 날짜에서 나옵니다: %(f)s. 근거가 맞습니다.")
                       % {"lines": where, "f": found.text})
    if found.agrees:
        return Finding(REVIEW, _("%(lines)s번 줄의 날짜로 보면 이 요일이 맞습니다: %(f)s. 원문에서 나오거나 계산되는 "
                                 "주장은 근거입니다.") % {"lines": where, "f": found.text})
    if claim.judgement == Judgement.NO_DATA:
        return Finding(RIGHT, _("%(lines)s번 줄의 날짜로 보면 요일이 다릅니다: %(f)s. 자료없음이 맞습니다.")
                       % {"lines": where, "f": found.text})
    return Finding(REVIEW, _("%(lines)s번 줄의 날짜로 보면 요일이 다릅니다: %(f)s. 원문과 어긋나는 주장은 "
                             "자료없음입니다.") % {"lines": where, "f": found.text})


def incomplete_citation(claim: ClaimContext) -> Finding | None:
    """The claim's values follow from the source only with a line the learner did not cite."""
    if claim.judgement not in (Judgement.GROUNDED, Judgement.PENDING):
        return None
    everything = [n for n, line in enumerate(claim.lines, start=1) if line.strip()]
    if computation(list(claim.lines), claim.text, list(claim.valid_cited), cited=list(claim.valid_cited)) is not None:
        return None
    found = computation(list(claim.lines), claim.text, everything, cited=list(claim.valid_cited))
    if found is None:
        return None
    # Only a line a formula takes an operand from is wanted: "무료로 받는 2개만 해도 9,000원어치" takes 무료 from the
    # title as it is, and its sum needs nothing of that line.
    operands = {number for step in found.steps for number in step}
    extra = sorted(operands - set(claim.valid_cited))
    if not extra or not set(found.lines) & set(claim.valid_cited):
        return None
    cited = set(claim.valid_cited)
    if any(step and not cited & set(step) for step in found.steps):
        return None  # a formula made only of uncited lines is another computation, not a line left out
    if not names_the_claim(list(claim.lines), claim.text, found.lines):
        return None  # "7,000원 + 8,000원 = 15,000원" from two fares is no reason to cite the second fare's line
    return Finding(REVIEW, _("%(lines)s번 줄도 인용하세요: 이 값은 그 줄까지 있어야 계산됩니다 (%(f)s).")
                   % {"lines": _lines_text(extra), "f": found.text})


def values(claim: ClaimContext) -> Finding | None:
    """An amount, a duration or an opening or closing time the claim states as the source's own, against the same kind
    of value on the cited lines (dates, other clock times and counts are left to a person: see ``value_conflicts``)."""
    if claim.judgement not in JUDGED:
        return None
    conflicts = value_conflicts(list(claim.lines), claim.text, list(claim.valid_cited))
    if not conflicts:
        return None
    what = "; ".join(_("%(value)s %(line)d번 줄과 다름") % {"value": attach(f"'{c.claim_text}'", "은/는"), "line": c.line}
                     for c in conflicts)
    if claim.judgement == Judgement.NO_DATA:
        return Finding(RIGHT, _("원문과 어긋남: %(what)s. 자료없음이 맞습니다.") % {"what": what})
    return Finding(REVIEW, _("원문과 어긋남: %(what)s. 원문과 다르게 말하는 주장은 자료없음입니다.") % {"what": what})


def absent_value(claim: ClaimContext) -> Finding | None:
    """A stated amount, time or date of a kind the source never gives: nothing to restate or compute it from."""
    if claim.judgement not in JUDGED:
        return None
    absent = absent_values(list(claim.lines), claim.text)
    if not absent or pending_lines_about(list(claim.lines), claim.text):
        return None  # a value for a matter the source leaves pending: 보류 or 자료없음 is a person's call
    what = ", ".join(_("'%(value)s'(%(kind)s)") % {"value": a.claim_text, "kind": a.kind} for a in absent)
    if claim.judgement == Judgement.NO_DATA:
        return Finding(RIGHT, _("원문에는 %(what)s 같은 값이 어디에도 없습니다. 자료없음이 맞습니다.") % {"what": what})
    return Finding(REVIEW, _("원문에는 %(what)s 같은 값이 어디에도 없습니다. 원문에 없는 값은 자료없음입니다.")
                   % {"what": what})


def question_silent(claim: ClaimContext) -> Finding | None:
    """The linked question is one the source cannot answer, and the claim answers it."""
    if claim.judgement == Judgement.GROUNDED and claim.silent:
        return Finding(RIGHT, _("원문은 이 질문에 답하지 않고, 주장도 원문에 없다고 말합니다. 근거가 맞습니다."))
    if claim.judgement == Judgement.GROUNDED:
        return Finding(REVIEW, _("원문에 없음: 원문은 이 질문에 답하지 않는데 이 주장은 답을 내놓습니다."))
    if claim.judgement == Judgement.NO_DATA and not claim.silent:
        return Finding(RIGHT, _("원문에 없음: 원문은 이 질문에 답하지 않습니다. 자료없음이 맞습니다."))
    return None


def question_evidence(claim: ClaimContext) -> Finding | None:
    """A claim that answers its question from the question's lines, citing none of them."""
    assert claim.question is not None
    evidence = set(claim.question["evidence"])
    if set(claim.valid_cited) & evidence:
        return None
    return Finding(REVIEW, _("%(lines)s번 줄도 인용하세요: 이 주장이 답하는 질문의 근거 줄입니다.")
                   % {"lines": _lines_text(evidence)})


def unrelated_citation(claim: ClaimContext) -> Finding | None:
    """A cited line that shares no word and no value with the claim (nor with the other cited lines).

    Sharing no word is not evidence of a wrong mark: a paraphrase ("주말" for "토·일") shares none
    either. So the check says what it did not find and holds the claim at 확인 안 됨; it never says
    다시 보기 (a check speaks only where its basis is true).
    """
    if claim.judgement not in (Judgement.GROUNDED, Judgement.PENDING) or may_compute(claim.text):
        return None  # a line may lend a rule to a computation the site cannot reproduce
    unrelated = unrelated_lines(list(claim.lines), claim.text, list(claim.valid_cited))
    if not unrelated:
        return None
    return Finding(UNCHECKED, _("%(lines)s번 줄에서 이 주장의 낱말도 값도 찾지 못했습니다. 같은 뜻을 다른 말로 "
                                "썼을 수 있어 판단하지 않았습니다: 줄을 다시 읽어 보세요.") % {"lines": _lines_text(unrelated)})


def open_matter(claim: ClaimContext) -> Finding | None:
    """A cited line leaves its matter open (예정, 미정, 검토 중, "바뀔 수 있습니다"): no check may call the claim the
    source's own or contradicted by it, so instead of a bare 확인 안 됨 the learner is told which line leaves it
    open, and that the course files such matters under 보류 while the key or an instructor decides this one."""
    if claim.judgement not in JUDGED:
        return None
    open_lines = [number for number in claim.valid_cited if leaves_open(list(claim.lines), number)]
    if not open_lines:
        return None
    return Finding(UNCHECKED, _("%(lines)s번 줄은 이 일을 아직 정하지 않았거나 바뀔 수 있다고 말합니다(예정·미정·검토 중). "
                                "원문이 열어 둔 일은 보통 보류로 표시하지만, 이 주장의 판단은 답안 키나 강사가 정합니다.")
                   % {"lines": _lines_text(open_lines)})


CHECKS: tuple[Check, ...] = (
    Check("stale_key", gettext_lazy("답안 키의 원문 판"), stale_key, _key_set_aside),
    Check("group_judgement", gettext_lazy("강사 판정"), group_judgement, _group_judged),
    Check("claim_key", gettext_lazy("주장별 답안 키"), claim_key, _sample_keyed),
    Check("key_citation", gettext_lazy("답안 키의 줄 인용"), key_citation, keyed),
    Check("set_aside", gettext_lazy("제목·질문·인사말·권유"), set_aside, lambda c: unkeyed(c) and _aside(c), final=True),
    Check("no_lines", gettext_lazy("인용 없음"), no_lines, unkeyed),
    Check("missing_line", gettext_lazy("없는 줄 인용"), missing_line, unkeyed),
    Check("verbatim", gettext_lazy("원문 그대로 옮김"), verbatim, _cites, final=True),
    Check("restated", gettext_lazy("줄과 같은 말 (어미·순서만 다름)"), restated, _cites, final=True),
    Check("silence", gettext_lazy("원문에 없다는 주장"), silence, unkeyed, final=True),
    Check("computed", gettext_lazy("값 계산 (인용한 줄로)"), computed, _cites, final=True),
    Check("weekdays", gettext_lazy("요일 계산 (원문의 날짜로)"), weekdays, _cites, final=True),
    Check("incomplete_citation", gettext_lazy("빠진 인용"), incomplete_citation, _cites),
    Check("values", gettext_lazy("값 대조 (금액·기간·여닫는 시각)"), values, _cites),
    Check("denied", gettext_lazy("부정이 반대인 같은 말"), denied, _cites),
    Check("absent_value", gettext_lazy("원문에 없는 값"), absent_value, unkeyed),
    Check("absent_subject", gettext_lazy("원문에 없는 대상"), absent_subject, unkeyed),
    Check("question_silent", gettext_lazy("질문의 답안 키: 원문에 없음"), question_silent, _answers_silent_question),
    Check("question_evidence", gettext_lazy("질문의 근거 줄"), question_evidence, _answers_question_from_its_evidence),
    Check("open_matter", gettext_lazy("원문이 열어 둔 일"), open_matter, _cites, soft=True),
    Check("citation", gettext_lazy("인용한 줄 대조"), unrelated_citation, _cites, soft=True),
)
CHECK_LABELS = {check.name: check.label for check in CHECKS}


def run_checks(claim: ClaimContext, checks: tuple[Check, ...] = CHECKS) -> list[tuple[Check, Finding]]:
    """The findings of the checks whose precondition holds, in order (a final or holding finding ends the run)."""
    found: list[tuple[Check, Finding]] = []
    for check in checks:
        if not check.applies(claim):
            continue
        finding = check.judge(claim)
        if finding is None:
            continue
        if finding.verdict == UNCHECKED:
            if check.soft and found:
                continue
            return [(check, finding)]
        found.append((check, finding))
        if check.final:
            break
    return found


def claim_feedback(*, text: str, judgement: str, cited: list[int], question: dict[str, Any] | None,
                   key: dict[str, Any] | None, lines: list[str], key_version: int | None = None,
                   extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One claim's verdict (맞음, 다시 보기, 확인 안 됨), the check and basis behind it, and what to compare."""
    item: dict[str, Any] = {"text": text, "judgement": judgement, "judgement_label": label(judgement),
                            "cited": sorted(cited), "question": question["key"] if question else "",
                            "checks": [], "compare": [], "explanation": "", "check": "", "basis": "",
                            "key_version": None}
    if key is not None:
        item.update(relation=key["relation"], relation_label=relation_label(key["relation"]),
                    expected=key["judgement"], expected_label=label(key["judgement"]),
                    explanation=key["explanation"], key_lines=key["lines"])
    if not judgement:
        item["verdict"] = UNMARKED
        return item
    context = ClaimContext(text=text, judgement=judgement, cited=tuple(sorted(set(cited))), question=question,
                           key=key, lines=tuple(lines), key_version=key_version, extra=extra or {})
    findings = run_checks(context)
    if judgement == Judgement.NOT_A_CLAIM and key is None and not findings:
        item["verdict"] = SET_ASIDE
        return item
    item["checks"] = [{"name": check.name, "label": str(check.label), "verdict": finding.verdict,
                       "reason": finding.basis} for check, finding in findings if finding.verdict != UNCHECKED]
    decisive = (next((pair for pair in findings if pair[1].verdict == REVIEW), None)
                or next((pair for pair in findings if pair[1].verdict == RIGHT), None)
                or next((pair for pair in findings if pair[1].verdict == UNCHECKED), None))
    item["verdict"] = decisive[1].verdict if decisive else UNCHECKED
    if decisive:
        item.update(check=decisive[0].name, basis=decisive[1].basis, key_version=decisive[1].key_version)
    shown = sorted(set(key["lines"] if key else question["evidence"] if question else []) | set(cited))
    item["compare"] = [[n, lines[n - 1]] for n in shown if 1 <= n <= len(lines)]
    if key is None and question is not None:
        item["explanation"] = question["explanation"]
        item["facts"] = question.get("facts", [])
    return item


def answer_key(attempt: Attempt) -> dict[str, dict[str, Any]]:
    """The question keys for the attempt's variant: base questions with the variant's overrides applied."""
    overrides: dict[str, dict[str, Any]] = {}
    pin: int | None = None
    if attempt.variant_key:
        variant = attempt.exercise.variants.filter(key=attempt.variant_key).first()
        overrides = variant.overrides if variant else {}
        pin = variant.fixture_version if variant else None
    return {
        q.key: {"key": q.key, "text": q.text, "judgement": q.judgement, "evidence": q.evidence,
                "required": q.required, "explanation": q.explanation, "facts": q.facts,
                "fixture_version": pin if attempt.variant_key else q.fixture_version,
                **overrides.get(q.key, {})}
        for q in attempt.exercise.questions.all()
    }


def evaluate(attempt: Attempt) -> dict[str, Any]:
    questions = answer_key(attempt)
    lines = attempt.fixture_version.text.splitlines()
    pins = Pins(attempt.fixture_version)
    stale_questions = {k for k, q in questions.items() if pins.stale(q)}
    claims = []
    for claim in attempt.claims.select_related("group"):
        key, stale_key_ = effective_key(claim.key, claim.group, pins)
        stale = stale_key_ or (key is None and claim.question_key in stale_questions)
        item = claim_feedback(text=claim.text, judgement=claim.judgement, cited=list(claim.cited_lines),
                              question=None if claim.question_key in stale_questions else questions.get(claim.question_key),
                              key=key, lines=lines, extra={"stale_key": stale})
        people_notes(item, stale=stale, awaiting=claim.group_id is not None, key=key)
        claims.append({"order": claim.order, **item})
    backed = [c for c in claims if c["verdict"] in (RIGHT, REVIEW)]
    caught = [c["order"] for c in backed if c["verdict"] == RIGHT and c["judgement"] in (Judgement.NO_DATA, Judgement.PENDING)]
    citation_only = {"citation", "key_citation", "no_lines", "missing_line", "incomplete_citation", "question_evidence"}
    missed = [c["order"] for c in claims if c["verdict"] == REVIEW and c["judgement"] == Judgement.GROUNDED
              and any(ch["name"] not in citation_only for ch in c["checks"] if ch["verdict"] == REVIEW)]
    covered = {c["question"] for c in claims if c["question"]}
    return {
        "format": FORMAT,
        "claims": claims,
        "summary": {
            "claims": len(claims),
            "right": sum(1 for c in claims if c["verdict"] == RIGHT),
            "review": sum(1 for c in claims if c["verdict"] == REVIEW),
            "unchecked": sum(1 for c in claims if c["verdict"] == UNCHECKED),
            "set_aside": sum(1 for c in claims if c["verdict"] == SET_ASIDE),
            "unmarked": sum(1 for c in claims if c["verdict"] == UNMARKED),
            "caught": caught,
            "missed": missed,
            "unaddressed_questions": [k for k in questions if k not in covered],
        },
        "questions": {k: {"text": v["text"], "expected_label": label(v["judgement"]),
                          "explanation": v["explanation"], "evidence": v["evidence"]} if k not in stale_questions
                      else {"text": v["text"], "expected_label": "", "explanation": "", "evidence": [], "stale": True}
                      for k, v in questions.items()},
    }
