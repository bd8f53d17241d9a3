"""The check table never fails on odd input: every claim gets a verdict and a basis string."""

from __future__ import annotations

import random

from exercises.grounding.feedback import claim_feedback

LINES = ["안내 (가상 자료)", "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다.", "일요일과 월요일은 쉽니다.",
         "1박에 40,000원이고 주말은 1.5배, 10% 할인은 없습니다.", "12월 29일부터 1월 2일까지 쉽니다.", "", "마감 30분 전까지 입장합니다."]


def test_random_claims_always_get_a_verdict() -> None:
    """Random mixes of values, words and punctuation, any judgement and citation: no exception, a known verdict."""
    rng = random.Random(17)
    alphabet = list("책방은에서영업합니다연고며지만는데;.,!?~ 총씩배후전뒤-1234567890시원만월일박명요토주차무료없않") + [
        "12월 ", "25일", "3,000원", "2박", "오후 5시", "30분", "주 2회", "**", "(2)"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        for judgement in ("grounded", "no_data", "pending", "not_claim", ""):
            cited = rng.sample(range(0, 9), rng.randint(0, 3))
            item = claim_feedback(text=text, judgement=judgement, cited=cited, question=None, key=None, lines=LINES)
            assert item["verdict"] in ("right", "review", "unchecked", "set_aside", "unmarked")
            assert isinstance(item["basis"], str) and isinstance(item["check"], str)
