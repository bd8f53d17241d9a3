"""Hints a learner may see: precision first (근거, 보류 with its cue, 주장 아님), never 자료없음."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.grounding import engine, services
from exercises.grounding.engine import SHOWN_HINTS, suggest
from exercises.grounding.models import Exercise

VENUE = (Path(__file__).resolve().parents[3] / "lessons/content/answer-from-sources/fixtures/venue-rental.txt"
         ).read_text(encoding="utf-8").splitlines()


def test_a_pending_reading_gives_its_cue_but_is_shown_only_once_measured() -> None:
    """"보증금은 사용 뒤 바로 돌려받습니다" against "점검을 마치면 돌려 드립니다": the engine reads 보류
    because of "마치면" and gives the cue; the judgement is shown only while SHOW_PENDING (measured ≥ 0.9)."""
    result = suggest(VENUE, ["큰방 보증금은 사용 뒤 바로 돌려받습니다."])[0]
    assert result.hint == "보류" and result.cue == "마치면"
    assert result.shown == ("보류" if engine.SHOW_PENDING else "모름")


def test_no_data_is_never_shown_what_was_not_found_is() -> None:
    """The engine may read 자료없음; the learner sees 모름 and the words and values no line has."""
    results = suggest(VENUE, ["주차 요금은 3,000원입니다.", "큰방은 보증금 30,000원을 따로 냅니다."])
    assert all(r.shown in SHOWN_HINTS and r.shown != "자료없음" for r in results)
    assert results[0].shown == "모름" and results[0].not_found == ("주차", "3,000원")
    assert results[1].shown == "근거" and results[1].not_found == ()


def test_greetings_sign_offs_and_advice_are_hinted_not_a_claim() -> None:
    """Nothing in them can be true or false of the source."""
    claims = ["안녕하세요!", "도움이 되셨길 바랍니다.", "방문 전에 전화로 확인해 보시길 권합니다.",
              "날씨가 추우니 따뜻하게 입고 가시는 게 좋습니다."]
    assert [r.shown for r in suggest(VENUE, claims)] == ["주장 아님"] * 4


def test_advice_that_leans_on_the_source_is_not_set_aside() -> None:
    """"승인 문자를 받은 뒤에 오시는 게 좋습니다" is about lines 11-13: no 주장 아님 hint for it."""
    assert suggest(VENUE, ["승인 문자를 받은 뒤에 오시는 게 좋습니다."])[0].shown != "주장 아님"


def test_the_hint_fragment_shows_what_was_not_found_instead_of_no_data(learner_client: Client, learner: User,
                                                                       bookshop: Exercise) -> None:
    """The marking page's hint for an invented claim lists the words not found and never says 자료없음."""
    attempt = services.start_attempt(user=learner, exercise=bookshop, answer_text="주차는 책방 옆 공터에서 무료입니다.",
                                     variant_key="", idempotency_key="hint-fragment")
    claim = attempt.claims.get(order=1)
    fragment = learner_client.get(reverse("grounding:suggestions", args=[attempt.pk, claim.pk]),
                                  HTTP_HX_REQUEST="true").content.decode()
    assert "원문에서 찾지 못한 말·값:" in fragment and "주차" in fragment
    assert "힌트 판단: 자료없음" not in fragment
