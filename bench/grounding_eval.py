"""Quality and speed of the grounding evidence-suggestion engine on the labelled set.

Reads ``tests/data/grounding_eval.yaml`` and prints, per split (dev, test, and the
``fresh`` sources written after tuning, which are also part of test):

- precision@1: the top suggested line is a gold line (claims with gold lines)
- recall@3: a gold line is among the top three
- hint accuracy over the three judgements (근거 / 자료없음 / 보류; 모름 counts as wrong)
- false-근거 rate: claims whose gold is 자료없음 or 보류 but whose hint is 근거
- latency of ``suggest`` for 5-claim batches: each source analysed already (a warm
  process), every claim new to the process (claim caches cleared before each pass)

Goals: precision@1 >= 0.90, recall@3 >= 0.97, false-근거 <= 0.03, p95 <= 20 ms.
The last lines are ``key=value``. Usage: python bench/grounding_eval.py [-v] [--passes N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

import yaml
from _common import ROOT, percentile

EVAL_FILE = ROOT / "tests" / "data" / "grounding_eval.yaml"
JUDGEMENTS = ("근거", "자료없음", "보류")
BATCH = 5


def load(path: Path = EVAL_FILE) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)["sources"]


def evaluate(sources: list[dict], *, verbose: bool = False) -> dict[str, dict[str, float]]:
    """Quality figures per split ("dev", "test", "fresh" = the test sources written after tuning)."""
    from exercises.grounding.engine import suggest

    counts: dict[str, Counter] = defaultdict(Counter)
    tags: dict[str, Counter] = defaultdict(Counter)
    for source in sources:
        for item in source["claims"]:
            result = suggest(source["lines"], [item["claim"]])[0]
            top = [score.line for score in result.lines]
            gold_lines, gold = item["gold_lines"], item["gold"]
            groups = [item["split"]] + (["fresh"] if source.get("fresh") else [])
            hit1 = bool(gold_lines) and bool(top) and top[0] in gold_lines
            hit3 = bool(gold_lines) and bool(set(top[:3]) & set(gold_lines))
            for group in groups:
                c = counts[group]
                c["claims"] += 1
                c["hint_ok"] += result.hint == gold
                c["unsure"] += result.hint == "모름"
                if gold_lines:
                    c["with_lines"] += 1
                    c["p1"] += hit1
                    c["r3"] += hit3
                if gold != "근거":
                    c["not_grounded"] += 1
                    c["false_grounded"] += result.hint == "근거"
            for tag in item.get("tags", []):
                tags[tag]["n"] += 1
                tags[tag]["ok"] += result.hint == gold
            if verbose and (result.hint != gold or (gold_lines and not hit1)):
                print(f"  miss [{item['split']}/{source['id']}] gold={gold} hint={result.hint} "
                      f"gold_lines={gold_lines} top={[(s.line, s.score) for s in result.lines[:3]]} {item['claim']}")
    figures = {}
    for group, c in counts.items():
        figures[group] = {
            "claims": c["claims"],
            "p_at_1": c["p1"] / max(1, c["with_lines"]),
            "r_at_3": c["r3"] / max(1, c["with_lines"]),
            "hint_accuracy": c["hint_ok"] / max(1, c["claims"]),
            "unsure_rate": c["unsure"] / max(1, c["claims"]),
            "false_grounded_rate": c["false_grounded"] / max(1, c["not_grounded"]),
            "false_grounded": c["false_grounded"],
            "not_grounded": c["not_grounded"],
        }
    figures["_tags"] = {tag: c["ok"] / c["n"] for tag, c in sorted(tags.items())}
    return figures


def latencies(sources: list[dict], splits: tuple[str, ...], passes: int) -> list[float]:
    """Milliseconds per 5-claim ``suggest`` call, sources warm, claims new to the process."""
    from exercises.grounding.engine import suggest
    from exercises.grounding.engine.matcher import clear_caches

    batches = []
    for source in sources:
        claims = [item["claim"] for item in source["claims"] if item["split"] in splits]
        for start in range(0, len(claims), BATCH):
            batch = claims[start:start + BATCH]
            if len(batch) < BATCH:  # top up the last batch so every call has five claims
                batch += claims[:BATCH - len(batch)]
            batches.append((source["lines"], batch))
    timings = []
    for _ in range(passes):
        clear_caches()
        for lines, _batch in batches:
            suggest(lines, [])  # the source is analysed before timing: a warm process
        for lines, batch in batches:
            started = time.perf_counter()
            suggest(lines, batch)
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def cold_source_latency(sources: list[dict]) -> list[float]:
    """Milliseconds for the first 5-claim call on a source nobody has asked about yet."""
    from exercises.grounding.engine import suggest
    from exercises.grounding.engine.matcher import clear_caches

    timings = []
    for source in sources:
        clear_caches(sources=True)
        batch = [item["claim"] for item in source["claims"][:BATCH]]
        started = time.perf_counter()
        suggest(source["lines"], batch)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", "--verbose", action="store_true", help="list the claims the engine gets wrong")
    parser.add_argument("--passes", type=int, default=10, help="timing passes over all batches")
    args = parser.parse_args()
    sources = load()
    n_claims = sum(len(s["claims"]) for s in sources)
    print(f"grounding eval: {n_claims} claims in {len(sources)} sources ({EVAL_FILE.relative_to(ROOT)})")
    figures = evaluate(sources, verbose=args.verbose)
    print(f"{'split':7} {'claims':>6} {'p@1':>6} {'r@3':>6} {'hint':>6} {'모름':>6} {'false-근거':>14}")
    for group in ("dev", "test", "fresh"):
        f = figures.get(group)
        if f:
            print(f"{group:7} {f['claims']:6d} {f['p_at_1']:6.3f} {f['r_at_3']:6.3f} {f['hint_accuracy']:6.3f} "
                  f"{f['unsure_rate']:6.3f} {f['false_grounded_rate']:6.3f} ({f['false_grounded']}/{f['not_grounded']})")
    print("(fresh: the test sources written after tuning, measured without changing the engine)")
    print("hint accuracy by tag: " + ", ".join(f"{tag} {value:.2f}" for tag, value in figures["_tags"].items()))
    timing = {}
    for split in ("dev", "test"):
        values = latencies(sources, (split,), args.passes)
        timing[split] = values
        print(f"latency {split}: 5-claim batches n={len(values)} p50={statistics.median(values):.2f} ms "
              f"p95={percentile(values, 95):.2f} ms max={max(values):.2f} ms")
    cold = cold_source_latency(sources)
    print(f"latency first call on a new source (5 claims): p50={statistics.median(cold):.2f} ms "
          f"max={max(cold):.2f} ms")
    for group in ("dev", "test", "fresh"):
        f = figures.get(group)
        if not f:
            continue
        for key in ("p_at_1", "r_at_3", "hint_accuracy", "unsure_rate", "false_grounded_rate"):
            print(f"{group}_{key}={f[key]:.3f}")
    for split, values in timing.items():
        print(f"{split}_latency_p50_ms={statistics.median(values):.2f}")
        print(f"{split}_latency_p95_ms={percentile(values, 95):.2f}")


if __name__ == "__main__":
    main()
