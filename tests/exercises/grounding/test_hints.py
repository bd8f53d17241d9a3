"""Hints a learner may see: precision first (근거, 보류 with its cue, 주장 아님), never 자료없음."""

from __future__ import annotations

from pathlib import Path

from exercises.grounding.engine import SHOWN_HINTS, suggest

VENUE = (Path(__file__).resolve().parents[3] / "lessons/content/answer-from-sources/fixtures/venue-rental.txt"
         ).read_text(encoding="utf-8").splitlines()


def test_a_pending_hint_names_the_cue_that_triggered_it() -> None:
    """"보증금은 사용 뒤 바로 돌려받습니다" against "점검을 마치면 돌려 드립니다": 보류, because of "마치면"."""
    result = suggest(VENUE, ["큰방 보증금은 사용 뒤 바로 돌려받습니다."])[0]
    assert result.shown == "보류" and result.cue == "마치면"


def test_no_data_is_never_shown_what_was_not_found_is() -> None:
    """The engine may read 자료없음; the learner sees 모름 and the words and values no line has."""
    results = suggest(VENUE, ["주차 요금은 3,000원입니다.", "큰방은 보증금 30,000원을 따로 냅니다."])
    assert all(r.shown in SHOWN_HINTS and r.shown != "자료없음" for r in results)
    assert results[0].shown == "모름" and results[0].not_found == ("주차", "3,000원")
    assert results[1].shown == "근거" and results[1].not_found == ()


def test_greetings_sign_offs_and_advice_are_hinted_not_a_claim() -> None:
    """Nothing in them can be true or false of the source."""
    claims = ["안녕하세요!", "도움이 되셨길 바랍니다.", "방문 전에 전화로 확인해 보시길 권합니다.",
              "승인 문자를 받은 뒤에 오시는 게 좋습니다."]
    assert [r.shown for r in suggest(VENUE, claims)] == ["주장 아님"] * 4
