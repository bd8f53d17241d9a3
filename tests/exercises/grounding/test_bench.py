"""The grounding bench reads whole-answer sets (the dev set's schema is the blind set's) and scores the splitter."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[3] / "bench"


def _bench() -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module("grounding_eval")


def test_answer_sets_give_claims_with_their_answers_question_and_the_whole_answers() -> None:
    """Every gold span becomes a claim (emphasis removed) linked to its answer's question; answers keep their text."""
    bench = _bench()
    items, wholes = bench.answer_set(bench.DATA / "grounding_answers_dev.yaml", "answers-dev")
    assert len(items) == sum(len(w["spans"]) for w in wholes) and len(wholes) == 16
    assert all("**" not in item["claim"] for item in items)
    linked = [item for item in items if item["linked"]]
    assert linked and all(item["linked"]["judgement"] in ("grounded", "no_data", "pending") for item in linked)


def test_splitter_boundaries_are_scored_against_the_gold_spans() -> None:
    """A split that matches the spans scores 1; cutting a claim in two lowers precision and recall."""
    bench = _bench()
    whole = {"text": "토요일은 18시까지 엽니다 (2). 주차는 무료입니다.",
             "spans": [{"span": "토요일은 18시까지 엽니다 (2).", "gold": "근거"}, {"span": "주차는 무료입니다.", "gold": "자료없음"}]}
    right = bench.splitter_figures([whole])
    assert right["predicted_right"] == right["predicted"] == 2 and right["gold_found"] == 2
    merged = {"text": whole["text"], "spans": [{"span": whole["text"], "gold": "근거"}]}
    wrong = bench.splitter_figures([merged])
    assert wrong["predicted_right"] == 0 and wrong["gold_found"] == 0


def test_clauses_of_one_gold_claim_are_counted_apart_and_never_as_right() -> None:
    """Two clauses that together make one gold sentence are counted as "cut inside", a clause that makes no gold
    sentence with its neighbours is not, and precision itself still counts both as misses."""
    bench = _bench()
    gold = ["주민 20명이 우선이고, 다른 동은 4명까지 받습니다", "접수는 방문만 돼요"]
    assert bench._cut_inside(["주민 20명이 우선이고", "다른 동은 4명까지 받습니다", "접수는 방문만 돼요"], gold) == 2
    assert bench._cut_inside(["주민 20명이 우선이고", "다른 동은 5명까지 받습니다", "접수는 방문만 돼요"], gold) == 0
    whole = {"text": "주민 20명이 우선이고, 다른 동은 4명까지 받습니다. 접수는 방문만 돼요.",
             "spans": [{"span": g, "gold": "근거"} for g in gold]}
    figures = bench.splitter_figures([whole])
    assert figures["predicted"] == 3 and figures["predicted_right"] == 1 and figures["cut_inside"] == 2


def test_a_gold_span_the_site_never_presents_is_counted_apart_in_the_hint_figures() -> None:
    """A heading the splitter leaves out is never marked nor hinted: it counts in the all-spans hint figures and is left
    out of the presented ones; a span cut differently from the splitter's claims still counts as presented."""
    bench = _bench()
    presented = [bench._boundary_key(claim) for claim in ("토요일은 쉽니다.", "참가비는 5,000원이고")]
    assert bench._left_out({"span": "### 참가비 안내"}, presented)
    assert not bench._left_out({"span": "토요일은 쉽니다."}, presented)
    assert not bench._left_out({"span": "참가비는 5,000원이고 주차는 무료입니다."}, presented)
    item = {"lines": ["안내 (가상 자료)", "토요일은 쉽니다."], "gold": "주장 아님", "gold_lines": [], "tags": [],
            "source": "s", "claim": "참가비 안내"}
    figures = bench.hint_figures([{**item, "left_out": True}, {**item, "claim": "토요일은 쉽니다.", "gold": "근거",
                                                                 "gold_lines": [2], "left_out": False}], verbose=False)
    counts = figures["counts"]
    assert counts["claims"] == 2 and counts["presented"] == 1 and counts["left_out:주장 아님"] == 1
