"""``judge``'s named rules (``matcher.JUDGE_RULES``): each decides a clause it is written for, with its hint.

One example per rule, on fictional sources; a rule no example reaches is dead and fails the last test.
Plain functions: no database.
"""

from __future__ import annotations

import pytest

from exercises.grounding.engine.analysis import analyse_claim
from exercises.grounding.engine.matcher import JUDGE_RULES, index_for, judge
from tests.exercises.grounding.test_engine import SHOP as SHOP_LINES

SHOP = tuple(SHOP_LINES)  # the engine tests' bookshop notice
LIBRARY = (
    "별빛도서관 이용 안내",
    "열람실은 오전 9시부터 밤 10시까지 엽니다.",
    "노트북 대여는 회원증을 받기 전에는 쓸 수 없습니다.",
    "노트북은 2층 안내데스크에서 빌립니다.",
)
YOGA = (
    "봄 요가 강좌는 3월 11일부터 5월 27일까지 열립니다.",
    "수업은 매주 화요일과 목요일 저녁 7시 30분에 시작합니다.",
    "한 번 수업은 60분입니다.",
    "수강료는 12주 과정에 18만 원입니다.",
)
POOL = (
    "한빛구민체육센터 수영장은 월요일부터 토요일까지 운영합니다.",
    "평일 자유수영은 오전 6시부터 오후 10시까지입니다.",
    "자유수영 1회 이용료는 성인 5,000원, 어린이 3,000원입니다.",
    "일요일에는 수영장을 운영하지 않습니다.",
)

EXAMPLES = [
    # (rule, source, clause, hint)
    ("nothing_to_judge", SHOP, "그리고", "모름"),
    ("source_silent", SHOP, "책방에서 커피를 판다.", "자료없음"),
    ("loosely_related", POOL, "수영장 주차는 무료다.", "모름"),
    ("value_conflict", SHOP, "책방은 저녁 7시까지 영업한다.", "자료없음"),
    ("stated_denial", SHOP, "와이파이는 무료다.", "자료없음"),
    ("lent_denial", LIBRARY, "오전 9시부터 열람실에서 노트북 대여를 쓸 수 있습니다.", "자료없음"),
    ("unsettled_claim", SHOP, "낭독 모임 참가비는 아직 정해지지 않았습니다.", "자료없음"),
    ("source_pending", SHOP, "2층 열람 공간은 7월에 문을 연다.", "보류"),
    ("absent_figure", YOGA, "수업은 월요일과 수요일에 열린다.", "자료없음"),
    ("too_little_found", SHOP, "햇살책방은 강남구에 있다.", "모름"),
    ("grounded", SHOP, "책방은 토요일에도 영업한다.", "근거"),
]


@pytest.mark.parametrize(("rule", "source", "clause", "hint"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_rule_decides_the_clause_it_is_written_for(rule: str, source: tuple[str, ...], clause: str,
                                                        hint: str) -> None:
    """The clause is decided by this rule (no earlier rule speaks first) and gets the rule's hint."""
    (part,) = analyse_claim(clause)
    verdict, _scores = judge(index_for(source), part)
    assert (verdict.rule, verdict.hint) == (rule, hint)


def test_every_rule_has_an_example() -> None:
    """Every rule of the table, and the three early answers and the default, is reached by an example above."""
    assert {e[0] for e in EXAMPLES} == {name for name, _ in JUDGE_RULES} | {
        "nothing_to_judge", "source_silent", "loosely_related", "grounded"}
