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
