"""What a learner meets from the grounding engine and feedback, per split of data.

Splits, kept apart:

- ``course``: the claims of the course's own sample answers, with their claim-level
  keys (lessons/content/*/exercises/*/exercise.yaml), over the real fixtures;
- ``own``: tests/data/grounding_eval.yaml (the engine's original labelled set, all of
  it seen while tuning) and ``chat-dev``: tests/data/grounding_chat_dev.yaml
  (chat-style claims written for tuning this engine);
- ``heldout-chat``: tests/data/grounding_heldout.yaml, chat-style claims written by
  someone who never saw the engine. Never tuned on: its figures are the honest ones;
- ``answers-dev``: tests/data/grounding_answers_dev.yaml, whole pasted answers with their
  questions and gold claim spans (written for tuning issue 17's failure classes);
- ``answers-dev2``: tests/data/grounding_answers_dev2.yaml, the same schema, written on 2026-12-05 by a
  writer who saw neither blind set, as development data for the splitter (tuned on: own data);
- ``answers-dev3``: tests/data/grounding_answers_dev3.yaml, the same schema, written on 2026-12-06 by a
  writer who saw neither the engine nor the blind sets; measured once as it came, then tuned on;
- ``blind``: tests/data/grounding_blind_2026-12-04.yaml, the same schema, written by
  someone who never saw the engine and never tuned on. Only aggregate figures are printed
  for it (``-v blind`` is refused);
- ``dev-b`` (was ``blind-b``): tests/data/grounding_blind_2026-12-04b.yaml, a second blind set in the
  same schema, written on 2026-12-04 by a writer who saw neither the engine nor the first blind set, and
  run as blind (aggregate figures only) until 2026-12-06. Since the evening of 2026-12-06, once
  ``blind-d`` was committed and measured, it is development data: its misses are read and tuned on, so
  its figures are no longer blind ones.
- ``blind-c``: tests/data/grounding_blind_2026-12-06c.yaml, a third blind set in the same schema
  (ten new notices, 380 claims), written on 2026-12-06 by a writer who saw neither the engine nor
  any other data set, committed before its first measurement.
- ``blind-d``: tests/data/grounding_blind_2026-12-06d.yaml, a fourth blind set in the same schema
  (ten new notices, 40 answers, 426 claims), written on 2026-12-06 by a writer who read only the schema
  header, committed before its first measurement; it stands for the engine's changes made after it.
- ``answers-dev6``: tests/data/grounding_answers_dev6.yaml, development data in the same schema and of the
  same make as ``blind-e`` (one class: six learners' answers to each question), written on 2026-12-06 by a
  writer who read only set D's schema header; the answer groups were developed on it.
- ``answers-dev7``: tests/data/grounding_answers_dev7.yaml, development data of the same make weighted to
  computation (327 claims, 109 computed), written on 2026-12-06 by a writer who read only set D's schema header.
- ``blind-e``: tests/data/grounding_blind_2026-12-06e.yaml, a fifth blind set in the same schema, made to
  measure answer groups: one class, six learners' pasted answers to each of ten questions on five new
  notices (60 answers, 334 claims), written on 2026-12-06 by a writer who read only set D's schema header,
  committed (b873883) before its first measurement.
- ``blind-f``: tests/data/grounding_blind_2026-12-07f.yaml, a sixth blind set of the same make as ``blind-e``
  (one class: six learners × ten questions on five new notices, 60 answers, 306 claims), written on
  2026-12-07 by a writer who read only set E's 44-line schema header, committed (1579994) before its first
  measurement.

For sets of whole answers, claims are the gold spans (Markdown emphasis removed, as the
splitter does), each linked to its answer's question for the second link policy, and the
splitter's claims are compared with the gold spans (boundary precision and recall).

Per split it prints:

- hint: what a learner is shown (``Suggestion.shown``: 근거, 보류 with its cue, 주장 아님,
  else 모름): the share of claims given one, accuracy where given, false 근거 (a 근거 hint
  on a claim whose gold is not 근거), and accuracy per kind shown;
- lines: precision@1 and recall@3 on claims with gold lines;
- verdicts a learner would see from ``feedback.claim_feedback``: for a learner who marked
  every claim correctly (gold judgement, gold lines), the share shown a wrong verdict
  (다시 보기) and the share given a backed verdict at all; for a learner who marked
  wrongly (each other judgement), the share wrongly told 맞음. Two link policies: claims
  not linked to a question, and each claim linked to the question its answer responds to
  (sets with questions only). The course split is run with its claim keys and again with
  the keys withheld. ``after groups`` is the backed share once instructors have judged the
  answer groups (filled by the answer-group feature through ``GROUP_COVERAGE``; "-" here);
- hint accuracy per phenomenon tag;
- latency of ``suggest``: 5-claim batches on a warm process, and the worst case at the
  API's limits with cold caches (value-dense and word-dense text).

Usage: python bench/grounding_eval.py [-v SPLIT] [--passes N] [--no-latency]. ``-v`` lists
misses of one split (never use it on heldout-chat or blind while changing the engine).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml
from _common import ROOT, percentile, setup_django

DATA = ROOT / "tests" / "data"
CONTENT = ROOT / "lessons" / "content"
CODES = {"grounded": "근거", "no_data": "자료없음", "pending": "보류"}
ALL_CODES = {**CODES, "not_claim": "주장 아님"}
JUDGEMENT_OF = {v: k for k, v in ALL_CODES.items()}
STATUS_JUDGEMENT = {"answered": "grounded", "no_data": "no_data", "conditional": "pending"}
BATCH = 5
BLIND = DATA / "grounding_blind_2026-12-04.yaml"
BLIND_B = DATA / "grounding_blind_2026-12-04b.yaml"
BLIND_C = DATA / "grounding_blind_2026-12-06c.yaml"
BLIND_D = DATA / "grounding_blind_2026-12-06d.yaml"
BLIND_E = DATA / "grounding_blind_2026-12-06e.yaml"
BLIND_F = DATA / "grounding_blind_2026-12-07f.yaml"  # measured once blind on 2026-12-07; development data since
BLIND_G = DATA / "grounding_blind_2026-12-07g.yaml"
BLIND_H = DATA / "grounding_blind_2026-12-07h.yaml"  # measured once blind on 2026-12-07; development data since
BLIND_I = DATA / "grounding_blind_2026-12-07i.yaml"
BLIND_J = DATA / "grounding_blind_2026-12-07j.yaml"  # measured once blind on 2026-12-07; development data since
BLIND_K = DATA / "grounding_blind_2026-12-07k.yaml"  # measured once blind on 2026-12-07; development data since
BLIND_L = DATA / "grounding_blind_2026-12-07l.yaml"  # measured once blind on 2026-12-07; development data since
BLIND_M = DATA / "grounding_blind_2026-12-07m.yaml"
# Set N: the same brief, written 2026-12-07 (afternoon) before this session's engine changes; measured once blind
# on 2026-12-07 (see the README), development data since.
BLIND_N = DATA / "grounding_blind_2026-12-07n.yaml"
# Set O: the same brief, written 2026-12-07 (afternoon) while this session's changes were made; measured once blind
# on 2026-12-07 (see the README), development data since.
BLIND_O = DATA / "grounding_blind_2026-12-07o.yaml"
# Set P: the same brief, written 2026-12-07 (afternoon) after set O's run; measured once blind on 2026-12-07 (see the
# README), development data since.
BLIND_P = DATA / "grounding_blind_2026-12-07p.yaml"
# Set Q: the same brief, written 2026-12-07 (afternoon) after set P's run; run once on that session's final engine,
# development data since (the next session).
BLIND_Q = DATA / "grounding_blind_2026-12-07q.yaml"  # measured once blind on 2026-12-07; development data since
# Set R: the same brief, written 2026-12-07 before that session's engine changes (committed 0d062a0 unread); run once
# on that session's final engine, development data since (the next session).
BLIND_R = DATA / "grounding_blind_2026-12-07r.yaml"  # measured once blind on 2026-12-07; development data since
# Set S: the same brief, written 2026-12-07 by a helper while that session's changes were made, from set M's header and
# set G's layout only (committed cb91c6f unread); run once on that session's engine (f62252f), development data since.
BLIND_S = DATA / "grounding_blind_2026-12-07s.yaml"  # measured once blind on 2026-12-07; development data since
# Set T: the same brief, written 2026-12-07 by a helper while this session's changes from S were made, from set M's
# header and set G's layout only (committed 8abde13 unread); run once on that session's final engine (96b36b7),
# development data since (the next session).
BLIND_T = DATA / "grounding_blind_2026-12-07t.yaml"  # measured once blind on 2026-12-07; development data since
# Set U: the same brief, written 2026-12-07 by a helper at the end of the session that ran T, from set M's header and
# set G's layout only (committed 8202d28 unread, registered before any engine change); run once on that session's
# engine (3465059), development data since (the next session).
BLIND_U = DATA / "grounding_blind_2026-12-07u.yaml"  # measured once blind on 2026-12-07; development data since
# Set V: the same brief, written 2026-12-07 by a helper while the changes from T were made, from set M's header and
# set G's layout only (committed 6162f0c unread, registered before any engine change); run once on the engine of
# 3efee8d, development data since.
BLIND_V = DATA / "grounding_blind_2026-12-07v.yaml"  # measured once blind on 2026-12-07; development data since
# Set W: the same brief, written 2026-12-07 by a helper while U's misses were read, from set M's header and set G's
# layout only (committed 73aad3d unread, registered before any further engine change); run once on the engine of
# 7c574c0, development data since.
BLIND_W = DATA / "grounding_blind_2026-12-07w.yaml"  # measured once blind on 2026-12-07; development data since
# Set X: the same brief, written 2026-12-07 by a helper while W's misses were read, from set M's header and set G's
# layout only (committed b4326d2 unread, registered in 38d7f04); run once on the engine of b063a3b, development data
# since.
BLIND_X = DATA / "grounding_blind_2026-12-07x.yaml"  # measured once blind on 2026-12-07; development data since
# Set Y: the same brief, written 2026-12-07 by a helper while X's misses were read, from set M's header and set G's
# layout only (committed cd292bb unread, registered in c281be0); run once on the engine of abb42de, development data
# since.
BLIND_Y = DATA / "grounding_blind_2026-12-07y.yaml"  # measured once blind on 2026-12-07; development data since
# Set Z: the same brief, written 2026-12-07 by a helper while Y's misses were read, from set M's header and set G's
# layout only (committed c1056e4 unread, registered in bdb7805); run once on the engine of 5c3fb5e, development data
# since.
BLIND_Z = DATA / "grounding_blind_2026-12-07z.yaml"  # measured once blind on 2026-12-07; development data since
# Set AA: the same brief, written 2026-12-07 by a helper at the end of the session that ran Z, from set M's header and
# set G's layout only (committed 6f31c22 unread); registered 2026-12-07 before any further engine change; run once on
# the engine of 519f3ee (two of its claims were seen before that run: see the README), development data since.
BLIND_AA = DATA / "grounding_blind_2026-12-07aa.yaml"  # measured once blind on 2026-12-07; development data since
# Set AB: the same brief, written 2026-12-07 by a helper while the value check's kinds were being measured, from set
# M's header and set G's layout only (committed d681531 unread); run once on the engine of 519f3ee, development data
# since.
BLIND_AB = DATA / "grounding_blind_2026-12-07ab.yaml"  # measured once blind on 2026-12-07; development data since
# Set AC: the same brief, written 2026-12-07 by a helper while the changes before 519f3ee were made, from set M's
# header and set G's layout only (committed 5a55b27 unread, before AA's and AB's misses were read); run once on the
# engine of 3f60cbd (every goal of issue 17 met; see the README). Its misses have not been read.
BLIND_AC = DATA / "grounding_blind_2026-12-07ac.yaml"
# Set AD: the same brief, written 2026-12-07 by a helper after the engine of c0f8bb3, from set M's header and set G's
# layout only (committed f18176c unread); run once on that engine (every verdict goal met, hint coverage 0.284),
# development data since.
BLIND_AD = DATA / "grounding_blind_2026-12-07ad.yaml"  # measured once blind on 2026-12-07; development data since
# Set AE: the same brief, written 2026-12-07 by a helper after AD's run, from set M's header and set G's layout only
# (committed dfa7dba unread); run once on the engine of 37e5bdc (every goal met but hint coverage, 0.288). Its misses
# have not been read.
BLIND_AE = DATA / "grounding_blind_2026-12-07ae.yaml"
BLIND_SETS = ("blind", "blind-c", "blind-d", "blind-e", "blind-g", "blind-i", "blind-m", "blind-ac", "blind-ae")
_RELATION_OF = {"computed": "restates", "not_a_claim": "not_claim"}


def group_figures(items: list[dict[str, Any]]) -> dict[str, float]:
    """What answer groups add, as the site forms and uses them: the claims no check backs are grouped per
    source by ``groups.signature`` (normalised text and figures, across learners); each group of two or
    more is judged once by an instructor, and that one judgement becomes the claim key of every claim in
    it (``groups.judgement_key``'s shape).

    The instructor's judgement is the one most of the group's members deserve (gold relation and lines;
    the first member's on a tie), as a careful instructor reading the group would give. A member whose own
    gold differs then gets a key that is wrong for it: a learner who marked that member correctly is told
    다시 보기, which is counted (``grouped_wrong``). Grouping that merges claims with different answers is
    thereby measured, not assumed away.

    Returns the backed share after groups, the share of all claims wrongly told 다시 보기 after groups, how
    many claims fell in groups of two or more, how many groups that made, and the share of grouped claims
    a judged group then backs with a right verdict.
    """
    from exercises.grounding.feedback import claim_feedback
    from exercises.grounding.groups import signature
    from exercises.grounding.models import JUDGEMENT_FOR

    def verdict(item: dict[str, Any], key: dict[str, Any] | None) -> str:
        return str(claim_feedback(text=item["claim"], judgement=JUDGEMENT_OF[item["gold"]],
                                  cited=list(item["gold_lines"]), question=item.get("question"), key=key,
                                  lines=item["lines"])["verdict"])

    def answer_of(item: dict[str, Any]) -> tuple[str, str, tuple[int, ...]]:
        return item["gold"], _RELATION_OF.get(item["relation"], item["relation"]) or "restates", \
            tuple(item["gold_lines"])

    before = [verdict(item, None) for item in items]
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, item in enumerate(items):
        key = signature(item["claim"], str((item.get("question") or {}).get("key") or ""))
        if before[index] not in ("right", "review") and key is not None:
            groups[(item["source"], key)].append(index)
    judged = [members for members in groups.values() if len(members) >= 2]
    after = list(before)
    for members in judged:
        answers = Counter(answer_of(items[index]) for index in members)
        first = answer_of(items[members[0]])
        _gold, relation, lines = max(answers, key=lambda a: (answers[a], a == first))
        for index in members:
            key = {"text": items[members[0]]["claim"], "relation": relation,
                   "judgement": JUDGEMENT_FOR.get(relation, "grounded"), "lines": list(lines), "question": "",
                   "explanation": "강사 판정", "source": "group", "key_version": 1}
            after[index] = verdict(items[index], key)
    grouped = [index for members in judged for index in members]
    n = len(items)
    return {"after": sum(v in ("right", "review") for v in after) / n if n else 0.0,
            "wrong_after": sum(v == "review" for v in after) / n if n else 0.0,
            "grouped": float(len(grouped)), "groups": float(len(judged)),
            "grouped_backed": (sum(after[i] == "right" for i in grouped) / len(grouped)) if grouped else 0.0}


# The "after groups" column: the backed share once instructors have judged the answer groups.
def GROUP_COVERAGE(items: list[dict[str, Any]]) -> float:  # noqa: N802 - the bench's long-standing hook name
    return group_figures(items)["after"]


def _claims_of(path: Path, split: str) -> list[dict[str, Any]]:
    """Claims of an eval file as {source lines, claim, gold, gold_lines, tags, relation}."""
    out = []
    for source in yaml.safe_load(path.read_text(encoding="utf-8"))["sources"]:
        for item in source["claims"]:
            out.append({"split": split, "source": source["id"], "lines": source["lines"], "claim": item["claim"],
                        "gold": item["gold"], "gold_lines": item.get("gold_lines", []) or [],
                        "tags": item.get("tags", []) or [], "relation": item.get("relation", "")})
    return out


def _as_list(value: Any) -> list[Any]:
    return list(value or [])


def answer_set(path: Path, split: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Claims (gold spans, with their answer's question) and whole answers of a set in the answers schema.

    Questions and answers may sit under each source or at the top level with a ``source`` id.
    """
    from exercises.grounding.engine import split_claims
    from exercises.grounding.engine.claims import strip_markdown

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    sources = {str(source["id"]): source for source in _as_list(data.get("sources"))}
    questions: dict[tuple[str, str], dict[str, Any]] = {}
    answers: list[tuple[str, dict[str, Any]]] = []
    for source_id, source in sources.items():
        for question in _as_list(source.get("questions")):
            questions[(source_id, str(question["id"]))] = question
        answers += [(source_id, answer) for answer in _as_list(source.get("answers"))]
    for question in _as_list(data.get("questions")):
        questions[(str(question["source"]), str(question["id"]))] = question
    answers += [(str(answer["source"]), answer) for answer in _as_list(data.get("answers"))]
    items, wholes = [], []
    for source_id, answer in answers:
        lines = [str(line) for line in sources[source_id]["lines"]]
        raw = questions.get((source_id, str(answer.get("question") or "")))
        question = None
        if raw is not None:
            evidence = [int(n) for n in _as_list(raw.get("evidence_lines"))]
            question = {"key": str(raw["id"]), "text": str(raw["text"]),
                        "judgement": STATUS_JUDGEMENT.get(str(raw.get("status")), "grounded"),
                        "evidence": evidence, "required": evidence, "explanation": "", "facts": []}
        spans = []
        presented = [_boundary_key(found.text) for found in split_claims(str(answer["text"]))]
        for claim in _as_list(answer.get("claims")):
            spans.append({"span": str(claim["span"]), "gold": str(claim["gold"])})
            items.append({"split": split, "source": source_id, "lines": lines, "left_out": _left_out(claim, presented),
                          "claim": strip_markdown(str(claim["span"])).strip(), "gold": str(claim["gold"]),
                          "gold_lines": [int(n) for n in _as_list(claim.get("gold_lines"))],
                          "tags": [str(t) for t in _as_list(claim.get("tags"))],
                          "relation": str(claim.get("relation") or ""), "linked": question})
        wholes.append({"text": str(answer["text"]), "spans": spans})
    return items, wholes


# A table row's outer pipes are edges too, like a bullet: "| 삯 | 27,000원 |" and "삯 | 27,000원" are the same row.
_EDGE = re.compile(r"^[\s\-*•·>#\d.)|]*|[\s.?!。,;:|]*$")
_CITE_END = re.compile(r"(?:\s*(?:\(\s*\d[\d\s,~\-번줄]*\)|\[\s*\d[\d\s,~\-]*\]))+[\s.?!。]*$")


def _boundary_key(text: str) -> str:
    from exercises.grounding.engine.claims import strip_markdown

    text = _CITE_END.sub("", strip_markdown(text).strip())
    return re.sub(r"\s+", " ", _EDGE.sub("", text))


def _left_out(claim: dict[str, Any], presented: list[str]) -> bool:
    """Whether the site never presents this gold span as a claim to mark: it shares no text with any claim the splitter
    gives (a heading, a table's header row, a question line, a greeting the splitter leaves out). A span cut
    differently still overlaps a presented claim."""
    key = _boundary_key(str(claim["span"]))
    return bool(key) and not any(key in other or other in key for other in presented if other)


def splitter_figures(wholes: list[dict[str, Any]]) -> Counter:
    """The splitter's claims against the gold spans: a boundary is right when the texts agree
    (emphasis, bullets, a table row's outer pipes, end punctuation and trailing citations aside)."""
    from exercises.grounding.engine import split_claims

    c: Counter = Counter()
    for whole in wholes:
        predicted = [_boundary_key(claim.text) for claim in split_claims(whole["text"])]
        gold_all = [_boundary_key(span["span"]) for span in whole["spans"]]
        gold_claims = [_boundary_key(span["span"]) for span in whole["spans"] if span["gold"] != "주장 아님"]
        c["predicted"] += len(predicted)
        c["predicted_right"] += sum(1 for p in predicted if p in gold_all)
        c["cut_inside"] += _cut_inside(predicted, gold_all)
        c["gold"] += len(gold_claims)
        c["gold_found"] += sum(1 for g in gold_claims if g in predicted)
    return c


def _joined(text: str) -> str:
    return re.sub(r"[\s,.;:!?~]", "", text)


def _cut_inside(predicted: list[str], gold: list[str]) -> int:
    """How many predicted claims that match no gold span are runs of pieces that together make one gold span:
    a sentence the splitter cut at its linking endings (…이고, …는데) where the writer kept it whole. The count is
    printed beside precision, never folded into it: whether such a cut is right is the writers' convention."""
    whole = {_joined(g) for g in gold}
    inside: set[int] = set()
    for start in range(len(predicted)):
        for end in range(start + 2, min(len(predicted), start + 4) + 1):
            if _joined("".join(predicted[start:end])) in whole:
                inside.update(i for i in range(start, end) if predicted[i] not in gold)
    return len(inside)


def course_claims() -> list[dict[str, Any]]:
    """The course's sample-answer claims with their claim-level keys, and the question each answers."""
    out = []
    for path in sorted(CONTENT.glob("*/exercises/*/exercise.yaml")):
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        fixtures = {"": spec["fixture"], **{v["key"]: v["fixture"] for v in spec.get("variants", []) or []}}
        overrides = {v["key"]: {q["key"]: q for q in v.get("questions", [])} for v in spec.get("variants", []) or []}
        for sample in spec.get("samples", []) or []:
            variant = sample.get("variant") or ""
            lines = (path.parents[2] / "fixtures" / f"{fixtures[variant]}.txt").read_text(encoding="utf-8").splitlines()
            questions = {q["key"]: {**q, **overrides.get(variant, {}).get(q["key"], {})} for q in spec["questions"]}
            for key in sample.get("claims", []) or []:
                if key["relation"] == "not_claim":
                    continue
                question = questions.get(key.get("question") or "")
                out.append({"split": "course", "source": path.parent.name, "lines": lines, "claim": key["text"],
                            "gold": CODES[_judgement(key)], "gold_lines": key.get("lines", []) or [],
                            "tags": [key["relation"]], "relation": key["relation"], "key": key,
                            "question": _question(question) if question else None})
    return out


def _judgement(key: dict[str, Any]) -> str:
    return key.get("judgement") or {"restates": "grounded", "silent": "no_data", "contradicts": "no_data",
                                    "partial": "no_data", "conditional": "pending"}[key["relation"]]


def _question(raw: dict[str, Any]) -> dict[str, Any]:
    return {"key": raw["key"], "text": raw["text"], "judgement": raw["judgement"], "evidence": raw.get("evidence", []),
            "required": raw.get("required", []), "explanation": raw.get("explanation", ""), "facts": []}


def _claim_key(item: dict[str, Any]) -> dict[str, Any]:
    key = item["key"]
    return {"text": key["text"], "judgement": _judgement(key), "relation": key["relation"],
            "lines": key.get("lines", []) or [], "question": key.get("question", ""), "explanation": ""}


def hint_figures(items: list[dict[str, Any]], verbose: bool) -> dict[str, Any]:
    from exercises.grounding.engine import suggest

    c: Counter = Counter()
    tags: dict[str, Counter] = defaultdict(Counter)
    for item in items:
        result = suggest(item["lines"], [item["claim"]])[0]
        top = [s.line for s in result.lines]
        shown = result.shown
        given = shown != "모름"
        right = shown == item["gold"]
        c[f"given:{shown}"] += given
        c[f"right:{shown}"] += given and right
        c["claims"] += 1
        c["given"] += given
        c["right_given"] += given and right
        c[f"{item['gold']}->{shown}"] += 1
        if item["gold"] != "근거":
            c["not_grounded"] += 1
            c["false_grounded"] += shown == "근거"
        # the same over the claims the site presents (a span the splitter leaves out is never marked nor hinted)
        if not item.get("left_out"):
            c["presented"] += 1
            c["presented_given"] += given
            c["presented_right_given"] += given and right
        else:
            c[f"left_out:{item['gold']}"] += 1
        if item["gold_lines"]:
            c["with_lines"] += 1
            c["p1"] += bool(top) and top[0] in item["gold_lines"]
            c["r3"] += bool(set(top[:3]) & set(item["gold_lines"]))
        for tag in item["tags"]:
            tags[tag]["n"] += 1
            tags[tag]["given"] += given
            tags[tag]["right"] += given and right
        if verbose and (not right and given or (item["gold_lines"] and top[:1] and top[0] not in item["gold_lines"])):
            print(f"  miss [{item['source']}] gold={item['gold']} hint={shown} ({result.hint}) gold_lines={item['gold_lines']} "
                  f"top={[(s.line, s.score) for s in result.lines[:3]]} {item['claim']}")
    return {"counts": c, "tags": tags}


def verdict_figures(items: list[dict[str, Any]], *, keys: bool, linked: bool = False,
                    verbose: bool = False) -> Counter:
    """Verdicts shown to a learner who marked right, and to one who marked wrong.

    ``linked``: each claim linked to the question its answer responds to (else to none, or for
    the course split to its key's question).
    """
    from exercises.grounding.feedback import claim_feedback

    c: Counter = Counter()
    for item in items:
        key = _claim_key(item) if keys and item.get("key") else None
        question = item.get("linked") if linked else item.get("question")
        gold = JUDGEMENT_OF[item["gold"]]
        shown = claim_feedback(text=item["claim"], judgement=gold, cited=list(item["gold_lines"]), question=question,
                               key=key, lines=item["lines"])
        c["claims"] += 1
        c["backed"] += shown["verdict"] in ("right", "review")
        c["wrong_to_right_marker"] += shown["verdict"] == "review"
        c[f"check:{shown['check']}"] += shown["verdict"] in ("right", "review")
        if verbose and shown["verdict"] == "review":
            print(f"  wrong verdict [{item['source']}] gold={item['gold']} {shown['check']}: {shown['basis']} | {item['claim']}")
        for other in ALL_CODES:
            if other == gold:
                continue
            wrong = claim_feedback(text=item["claim"], judgement=other, cited=list(item["gold_lines"]),
                                   question=question, key=key, lines=item["lines"])
            c["wrong_marks"] += 1
            c["told_right_when_wrong"] += wrong["verdict"] == "right"
            if verbose and wrong["verdict"] == "right":
                print(f"  맞음 on wrong [{item['source']}] gold={item['gold']} marked={other} {wrong['check']}: "
                      f"{wrong['basis']} | {item['claim']}")
            c["wrong_marks_backed"] += wrong["verdict"] in ("right", "review")
    return c


def latencies(items: list[dict[str, Any]], passes: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds per 5-claim ``suggest`` call, sources warm, claims new to the process."""
    from exercises.grounding.engine import suggest
    from exercises.grounding.engine.matcher import clear_caches

    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        by_source[item["source"]].append(item)
    batches = []
    for group in by_source.values():
        claims = [item["claim"] for item in group]
        for start in range(0, len(claims), BATCH):
            batch = claims[start:start + BATCH]
            batch += claims[:BATCH - len(batch)]
            batches.append((group[0]["lines"], batch))
    timings, cpu = [], []
    for _ in range(passes):
        clear_caches()
        for lines, _batch in batches:
            suggest(lines, [])
        for lines, batch in batches:
            started, used = time.perf_counter(), time.process_time()
            suggest(lines, batch)
            timings.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
    return timings, cpu


def _dense_values(chars: int, seed: int) -> str:
    parts, i = [], seed
    while len(" ".join(parts)) < chars:
        parts.append(f"{i % 12 + 1}시 {i % 28 + 1}일 {1000 * (i % 50) + 500}원 {i % 9 + 1}명 월요일 {i % 5 + 1}시간")
        i += 1
    return " ".join(parts)[:chars]


def _dense_words(chars: int, seed: int) -> str:
    vocab = ["책방", "영업", "시간", "토요일", "주차", "무료", "신청", "확정", "담당자", "확인", "참가비", "독서", "모임", "문자", "누리집", "계산대", "게시판"]
    endings = ["은", "을", "에서", "입니다", "하고", "하며", "지만"]
    out, i = [], seed
    while len(" ".join(out)) < chars:
        out.append(vocab[(i * 7) % len(vocab)] + endings[i % len(endings)])
        i += 1
    return " ".join(out)[:chars]


def worst_at_limits() -> list[tuple[str, float, float]]:
    """Cold-cache wall and CPU milliseconds of one request at the API limits, value- and word-dense text.

    CPU time is printed beside wall time because the machine is shared: under load the wall
    time mostly measures waiting for a core.
    """
    from exercises.grounding.engine import suggest
    from exercises.grounding.engine.matcher import clear_caches
    from exercises.grounding.schemas import (
        MAX_CLAIM_CHARS,
        MAX_CLAIMS,
        MAX_LINE_CHARS,
        MAX_LINES,
        MAX_SOURCE_CHARS,
    )

    out = []
    for name, make in (("values", _dense_values), ("words", _dense_words)):
        for lines, width in ((MAX_LINES, MAX_SOURCE_CHARS // MAX_LINES - 1), (MAX_SOURCE_CHARS // MAX_LINE_CHARS, MAX_LINE_CHARS)):
            source = [make(width, k) for k in range(lines)]
            claims = [make(MAX_CLAIM_CHARS, 100 + k) for k in range(MAX_CLAIMS)]
            clear_caches(sources=True)
            started, cpu = time.perf_counter(), time.process_time()
            suggest(source, claims)
            out.append((f"{name} {lines}x{width} chars, {MAX_CLAIMS}x{MAX_CLAIM_CHARS}",
                        (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000))
    return out


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "  -  "


def load_splits(no_blind: bool) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """Every claim set by name, and the sets of whole answers (for the splitter) by name."""
    splits = {
        "course": course_claims(),
        "own": _claims_of(DATA / "grounding_eval.yaml", "own"),
        "chat-dev": _claims_of(DATA / "grounding_chat_dev.yaml", "chat-dev"),
    }
    heldout = DATA / "grounding_heldout.yaml"
    if heldout.exists():
        splits["heldout-chat"] = _claims_of(heldout, "heldout-chat")
    wholes: dict[str, list[dict[str, Any]]] = {}
    answer_sets = [("answers-dev", DATA / "grounding_answers_dev.yaml")]
    for dev_name in ("answers-dev2", "answers-dev3", "answers-dev4", "answers-dev5", "answers-dev6", "answers-dev7"):
        dev_path = DATA / f"grounding_{dev_name.replace('-', '_')}.yaml"
        if dev_path.exists():
            answer_sets.append((dev_name, dev_path))
    answer_sets.append(("dev-b", BLIND_B))  # blind until 2026-12-06 (see above)
    answer_sets.append(("dev-f", BLIND_F))  # blind until measured once on 2026-12-07 (see the README)
    answer_sets.append(("dev-h", BLIND_H))  # likewise
    answer_sets.append(("dev-j", BLIND_J))  # likewise
    answer_sets.append(("dev-k", BLIND_K))  # likewise
    answer_sets.append(("dev-l", BLIND_L))  # likewise
    answer_sets.append(("dev-n", BLIND_N))  # likewise
    answer_sets.append(("dev-o", BLIND_O))  # likewise
    answer_sets.append(("dev-p", BLIND_P))  # likewise
    answer_sets.append(("dev-q", BLIND_Q))  # likewise
    answer_sets.append(("dev-r", BLIND_R))  # likewise
    answer_sets.append(("dev-s", BLIND_S))  # likewise
    answer_sets.append(("dev-t", BLIND_T))  # likewise
    answer_sets.append(("dev-u", BLIND_U))  # likewise
    answer_sets.append(("dev-v", BLIND_V))  # likewise
    answer_sets.append(("dev-w", BLIND_W))  # likewise
    answer_sets.append(("dev-x", BLIND_X))  # likewise
    answer_sets.append(("dev-y", BLIND_Y))  # likewise
    answer_sets.append(("dev-z", BLIND_Z))  # likewise
    answer_sets.append(("dev-aa", BLIND_AA))  # likewise
    answer_sets.append(("dev-ab", BLIND_AB))  # likewise
    answer_sets.append(("dev-ad", BLIND_AD))  # likewise
    for blind_name, blind_path in (("blind", BLIND), ("blind-c", BLIND_C), ("blind-d", BLIND_D),
                                  ("blind-e", BLIND_E), ("blind-g", BLIND_G), ("blind-i", BLIND_I),
                                  ("blind-m", BLIND_M), ("blind-ac", BLIND_AC), ("blind-ae", BLIND_AE)):
        if blind_path.exists() and not no_blind:
            answer_sets.append((blind_name, blind_path))
    for name, path in answer_sets:
        splits[name], wholes[name] = answer_set(path, name)
    return splits, wholes


def print_hints(splits: dict[str, list[dict[str, Any]]], verbose: str) -> dict[str, dict[str, Any]]:
    kinds = ("근거", "보류", "주장 아님")
    print("hints a learner is shown (근거 · 보류 with its cue · 주장 아님 · else 모름; never a verdict)")
    print(f"{'split':13} {'claims':>6} {'cover':>6} {'right':>6} {'false-근거':>10} {'p@1':>6} {'r@3':>6}   "
          + " ".join(f"{k + ' right/n':>14}" for k in kinds))
    results = {}
    for name, items in splits.items():
        figures = hint_figures(items, verbose=verbose == name)
        results[name] = figures
        c = figures["counts"]
        per_kind = " ".join(f"{_ratio(c[f'right:{k}'], c[f'given:{k}']) + '/' + str(c[f'given:{k}']):>14}" for k in kinds)
        print(f"{name:13} {c['claims']:6d} {_ratio(c['given'], c['claims']):>6} {_ratio(c['right_given'], c['given']):>6} "
              f"{_ratio(c['false_grounded'], c['not_grounded']):>10} {_ratio(c['p1'], c['with_lines']):>6} "
              f"{_ratio(c['r3'], c['with_lines']):>6}   {per_kind}")
    print("over the claims the site presents (a gold span the splitter leaves out, such as a heading or a table's header"
          " row, is never marked nor hinted):")
    for name, figures in results.items():
        c = figures["counts"]
        if c["presented"] == c["claims"]:
            continue
        left = ", ".join(f"{k.split(':', 1)[1]} {n}" for k, n in sorted(c.items()) if k.startswith("left_out:"))
        print(f"  {name:13} presented {c['presented']} of {c['claims']} (left out: {left}): cover "
              f"{_ratio(c['presented_given'], c['presented'])}, right {_ratio(c['presented_right_given'], c['presented_given'])}")
    return results


def print_splitter(wholes: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, int]]:
    print("splitter (sets of whole answers): boundary precision / recall against the gold spans")
    split_figures = {}
    for name, answers in wholes.items():
        c = splitter_figures(answers)
        split_figures[name] = c
        print(f"{name:13} answers={len(answers)} predicted={c['predicted']} gold claims={c['gold']} "
              f"precision={_ratio(c['predicted_right'], c['predicted'])} recall={_ratio(c['gold_found'], c['gold'])} "
              f"(of the misses, clauses of one gold claim: {c['cut_inside']})")
    return split_figures


def print_verdicts(splits: dict[str, list[dict[str, Any]]], wholes: dict[str, list[dict[str, Any]]],
                   verbose: str) -> dict[str, dict[str, int]]:
    print("verdicts a learner sees (맞음/다시 보기 only where a named check backs it)")
    print(f"{'split':24} {'claims':>6} {'wrong→correct':>13} {'backed':>7} {'맞음→wrong':>10} {'backed(wrong)':>13} "
          f"{'after groups':>12}")
    runs: list[tuple[str, list[dict[str, Any]], bool, bool]] = []
    for name, items in splits.items():
        runs.append((name + (" (not linked)" if name in wholes else ""), items, False, False))
        if name in wholes:
            runs.append((name + " (linked)", items, False, True))
    runs.append(("course (claim keys)", splits["course"], True, False))
    verdicts = {}
    for name, items, keys, linked in runs:
        v = verdict_figures(items, keys=keys, linked=linked,
                            verbose=bool(verbose) and name.split(" ")[0] == verbose)
        verdicts[name] = v
        groups = GROUP_COVERAGE(items) if GROUP_COVERAGE else None
        print(f"{name:24} {v['claims']:6d} {_ratio(v['wrong_to_right_marker'], v['claims']):>13} "
              f"{_ratio(v['backed'], v['claims']):>7} {_ratio(v['told_right_when_wrong'], v['wrong_marks']):>10} "
              f"{_ratio(v['wrong_marks_backed'], v['wrong_marks']):>13} {('-' if groups is None else f'{groups:.3f}'):>12}")
    print("(wrong→correct: a learner who marked right told 다시 보기; 맞음→wrong: a learner who marked wrong told 맞음;"
          " after groups: backed share once answer groups are judged, from the answer-group feature)")
    for name, items in splits.items():
        if name in wholes or name in ("own", "chat-dev", "heldout-chat"):
            g = group_figures(items)
            print(f"  {name}: claims no check backs that fall in answer groups of two or more {int(g['grouped'])} "
                  f"({int(g['groups'])} groups), told 맞음 once their group is judged "
                  f"{_ratio(round(g['grouped_backed'] * g['grouped']), int(g['grouped']))}; after groups backed "
                  f"{g['after']:.3f}, wrong→correct {g['wrong_after']:.3f}")
    for name, v in verdicts.items():
        checks = sorted(((k.split(":", 1)[1], n) for k, n in v.items() if k.startswith("check:") and n), key=lambda kv: -kv[1])
        print(f"  {name}: backed by " + (", ".join(f"{k} {n}" for k, n in checks) or "nothing"))
    print()
    return verdicts


def print_tags(results: dict[str, dict[str, Any]]) -> None:
    for name, figures in results.items():
        if name in BLIND_SETS:
            continue  # per-tag figures would point at individual blind claims
        tags = figures["tags"]
        print(f"{name} by tag (given share / accuracy where given): " + ", ".join(
            f"{tag} {t['given'] / t['n']:.2f}/{_ratio(t['right'], t['given'])} (n={t['n']})" for tag, t in sorted(tags.items())))
    print()


def print_latency(splits: dict[str, list[dict[str, Any]]], passes: int) -> dict[str, float]:
    warm, warm_cpu = latencies(splits["own"] + splits["chat-dev"], passes)
    print(f"latency 5-claim suggest, warm source, new claims: n={len(warm)} wall p50={statistics.median(warm):.2f} ms "
          f"p95={percentile(warm, 95):.2f} ms max={max(warm):.2f} ms; cpu p50={statistics.median(warm_cpu):.2f} ms "
          f"p95={percentile(warm_cpu, 95):.2f} ms")
    worst = worst_at_limits()
    for label, ms, cpu in worst:
        print(f"latency at the limits, cold ({label}): wall {ms:.1f} ms, cpu {cpu:.1f} ms")
    print(f"(load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print()
    return {"latency_5claim_p95_wall_ms": percentile(warm, 95), "latency_5claim_p95_cpu_ms": percentile(warm_cpu, 95),
            "latency_limits_worst_wall_ms": max(ms for _, ms, _ in worst),
            "latency_limits_worst_cpu_ms": max(cpu for _, _, cpu in worst)}


def print_figure_lines(results: dict[str, dict[str, Any]], split_figures: dict[str, dict[str, int]],
                       verdicts: dict[str, dict[str, int]], latency: dict[str, float]) -> None:
    """The ``name=value`` lines the README and the tests read."""
    for name, figures in results.items():
        c = figures["counts"]
        key = name.replace("-", "_")
        print(f"{key}_hint_given={_ratio(c['given'], c['claims'])}")
        print(f"{key}_hint_accuracy_given={_ratio(c['right_given'], c['given'])}")
        print(f"{key}_false_grounded={_ratio(c['false_grounded'], c['not_grounded'])}")
        print(f"{key}_p_at_1={_ratio(c['p1'], c['with_lines'])}")
        print(f"{key}_r_at_3={_ratio(c['r3'], c['with_lines'])}")
        if c["presented"] != c["claims"]:
            print(f"{key}_hint_given_presented={_ratio(c['presented_given'], c['presented'])}")
            print(f"{key}_hint_accuracy_given_presented={_ratio(c['presented_right_given'], c['presented_given'])}")
    for name, c in split_figures.items():
        key = name.replace("-", "_")
        print(f"{key}_split_precision={_ratio(c['predicted_right'], c['predicted'])}")
        print(f"{key}_split_recall={_ratio(c['gold_found'], c['gold'])}")
    for name, v in verdicts.items():
        key = name.replace(" ", "_").replace("(", "").replace(")", "").replace("-", "_")
        print(f"{key}_wrong_verdict_to_correct={_ratio(v['wrong_to_right_marker'], v['claims'])}")
        print(f"{key}_right_on_wrong_mark={_ratio(v['told_right_when_wrong'], v['wrong_marks'])}")
        print(f"{key}_backed_share={_ratio(v['backed'], v['claims'])}")
    for key, value in latency.items():
        print(f"{key}={value:.{1 if 'limits' in key else 2}f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", "--verbose", default="", help="list the misses of this split (never blind)")
    parser.add_argument("--passes", type=int, default=5, help="timing passes over all batches")
    parser.add_argument("--no-latency", action="store_true", help="skip the latency measurements")
    parser.add_argument("--no-blind", action="store_true", help="leave the blind set out")
    args = parser.parse_args()
    if args.verbose in BLIND_SETS:
        parser.error("the blind set is never listed claim by claim: only its aggregate figures are printed")
    setup_django()
    print(f"grounding bench, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    splits, wholes = load_splits(args.no_blind)
    results = print_hints(splits, args.verbose)
    split_figures = print_splitter(wholes)
    print()
    verdicts = print_verdicts(splits, wholes, args.verbose)
    print_tags(results)
    latency = {} if args.no_latency else print_latency(splits, args.passes)
    print_figure_lines(results, split_figures, verdicts, latency)


if __name__ == "__main__":
    main()
