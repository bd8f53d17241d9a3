"""The citation-scorer lab (lesson citation-metrics), run with plain python3 against its own checks.

``check_labs`` runs it in the real sandbox; these tests prove quickly that the
reference passes every checked step, that the starter does not, and that the
checks ask for figures, not for the reference's shape: a learner's scorer built
differently (sets and Fractions, one pass per answer) passes run and inject too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_lab_plain_runs import failing_checks, solution, starter

LESSON, LAB = "citation-metrics", "citation-scorer"
TODO = "# TODO(실습): 여기에 채점기를 설계한다."

# Written from the rules in the starter's docstring, sharing no code with solution.py.
OTHER_SHAPE = '''
from fractions import Fraction


def judge(claim):
    if not needs_support(claim):
        return "exempt"
    distinct = []
    for n in claim["cites"]:
        if n not in distinct:
            distinct.append(n)
    if not distinct:
        return (0, None)
    present = {n for n in distinct if n in LINES}
    covered = int(any(group.issubset(present) for group in enough_sets(claim)))
    useful = len([n for n in distinct if n in LINES and relevant(claim, n)])
    return (covered, (useful, len(distinct)))


def main():
    all_r, all_u, all_c = [], 0, 0
    macro_r, macro_p = [], []
    for answer in ANSWERS:
        got = {c["id"]: judge(c) for c in answer["claims"]}
        for claim in answer["claims"]:
            g = got[claim["id"]]
            if g == "exempt":
                print(f"  {claim['id']} 제외: 근거가 필요 없는 문장 (사람 판정)")
            elif g[1] is None:
                print(f"  {claim['id']} 인용 없음 → 재현 0, 정밀 -")
            else:
                print(f"  {claim['id']} 인용 {claim['cites']} → 재현 {g[0]}, 정밀 {g[1][0]}/{g[1][1]}")
        scored = [g for g in got.values() if g != "exempt"]
        if scored:
            macro_r.append(Fraction(sum(g[0] for g in scored), len(scored)))
        pairs = [g[1] for g in scored if g[1] is not None]
        if pairs:
            macro_p.append(Fraction(sum(u for u, _ in pairs), sum(c for _, c in pairs)))
        all_r += [g[0] for g in scored]
        all_u += sum(u for u, _ in pairs)
        all_c += sum(c for _, c in pairs)
    print(f"미시 인용 재현율 {ratio(sum(all_r), len(all_r))}")
    print(f"미시 인용 정밀도 {ratio(all_u, all_c)}")
    print(f"거시 인용 재현율 {float(sum(macro_r) / len(macro_r)):.3f} (답변 {len(macro_r)}개 평균)")
    print(f"거시 인용 정밀도 {float(sum(macro_p) / len(macro_p)):.3f} (답변 {len(macro_p)}개 평균, "
          f"잴 인용이 없는 답변 {len(ANSWERS) - len(macro_p)}개 제외)")


main()
'''


def learners_variant() -> str:
    code = starter(LESSON, LAB)
    return code[: code.index(TODO)] + OTHER_SHAPE


@pytest.mark.parametrize("step", ["run", "inject", "restore"])
def test_reference_passes_each_checked_step(step: str, tmp_path: Path) -> None:
    """The reference prints the hand-computed figures (6/11, 9/13, 0.458, 0.656) and, injected, 10/13."""
    assert failing_checks(LESSON, LAB, solution(LESSON, LAB), step, tmp_path) == []


def test_starter_fails_the_run_step(tmp_path: Path) -> None:
    """The starter only prints the data: every figure check of the run step fails."""
    failed = failing_checks(LESSON, LAB, starter(LESSON, LAB), "run", tmp_path)
    assert {"micro-recall", "micro-precision", "macro-recall", "macro-precision"} <= set(failed)


@pytest.mark.parametrize("step", ["run", "inject"])
def test_a_scorer_of_another_shape_passes(step: str, tmp_path: Path) -> None:
    """The checks look at printed figures, so a learner's differently built scorer passes run and inject."""
    assert failing_checks(LESSON, LAB, learners_variant(), step, tmp_path) == []


def test_counting_a_repeated_line_twice_is_caught(tmp_path: Path) -> None:
    """The same variant, counting C1's and A2's repeated line 4 twice, fails the precision checks."""
    right = "        if n not in distinct:\n            distinct.append(n)"
    code = learners_variant()
    assert code.count(right) == 1
    code = code.replace(right, "        distinct.append(n)")
    failed = failing_checks(LESSON, LAB, code, "run", tmp_path)
    assert {"claim-c1", "micro-precision"} <= set(failed)
