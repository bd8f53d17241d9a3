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
    assert results[1].shown == ("근거" if engine.SHOW_GROUNDED else "모름") and results[1].not_found == ()


LIBRARY = ["도서관 이용 안내 (가상 자료)", "열람실은 자리를 비운 뒤 20분 동안 맡아 둡니다.",
           "주차는 1시간까지 무료이며 그 뒤에는 10분마다 300원입니다.", "휴관일은 매주 월요일입니다.",
           "토요일과 일요일에는 열람실만 엽니다."]


def test_a_day_the_source_names_among_others_is_not_listed_as_not_found() -> None:
    """"일요일" is in "토요일과 일요일에는 …": 원문에서 찾지 못한 말·값 must not say it is missing."""
    assert suggest(LIBRARY, ["일요일에는 열람실만 엽니다.", "금요일에는 열람실만 엽니다."])[0].not_found == ()
    assert suggest(LIBRARY, ["금요일에는 열람실만 엽니다."])[0].not_found == ("금요일",)


def test_a_claim_that_says_what_its_best_line_says_is_hinted_grounded() -> None:
    """The narrow 근거 hint (SHOW_FOLLOWING): the feedback's own restatement check holds on the top line."""
    assert engine.SHOW_FOLLOWING
    results = suggest(LIBRARY, ["휴관일은 매주 월요일입니다.", "주차는 1시간까지 무료입니다."])
    assert [(r.shown, r.basis) for r in results] == [("근거", "4번 줄과 같은 말"), ("근거", "3번 줄과 같은 말")]


def test_a_sum_of_lines_about_different_things_is_not_hinted_grounded() -> None:
    """"열람실 … 30분" is not 20분 (the reading room) + 10분 (parking): the two lines share only 뒤 with it,
    a word that says how, not what, so the hint stays 모름 although the arithmetic adds up."""
    claims = ["열람실 자리는 비운 뒤 30분 동안 맡아 둡니다.", "| 열람실 자리 | 비운 후 30분 |"]
    assert [(r.shown, r.basis) for r in suggest(LIBRARY, claims)] == [("모름", "")] * 2


ZOO = ["동물원 이용 안내 (가상 자료)", "어른 입장료는 한 사람에 6,000원입니다.", "어린이 입장료는 한 사람에 3,000원입니다.",
       "주차는 하루에 2,000원입니다."]


def test_a_computation_from_lines_about_the_claim_is_hinted_grounded() -> None:
    """6,000원 × 2명 and 6,000원 + 3,000원 come from lines that name 어른, 어린이 and 입장료 as the claims do."""
    claims = ["어른 두 명이면 입장료는 12,000원입니다.", "어른 한 명과 어린이 한 명이면 입장료는 9,000원입니다."]
    assert [(r.shown, r.basis) for r in suggest(ZOO, claims)] == [
        ("근거", "2번 줄로 계산: 6,000원 × 2명 = 12,000원"), ("근거", "2·3번 줄로 계산: 6,000원 + 3,000원 = 9,000원")]


def test_the_hint_fragment_says_why_it_hints_grounded(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    """A 근거 hint on the marking page carries its reason (the line it restates), in the page and the API."""
    line = bookshop.fixture.current_version.text.splitlines()[2]
    attempt = services.start_attempt(user=learner, exercise=bookshop, answer_text=line, variant_key="",
                                     idempotency_key="hint-basis")
    claim = attempt.claims.get(order=1)
    fragment = learner_client.get(reverse("grounding:suggestions", args=[attempt.pk, claim.pk]),
                                  HTTP_HX_REQUEST="true").content.decode()
    assert "힌트 판단: 근거 (3번 줄과 같은 말)" in fragment
    api = learner_client.post("/api/grounding/suggest", {"source": bookshop.fixture.current_version.text,
                                                         "claims": [line]}, content_type="application/json")
    assert api.json()["results"][0]["basis"] == "3번 줄과 같은 말"


def test_greetings_sign_offs_and_advice_are_hinted_not_a_claim() -> None:
    """Nothing in them can be true or false of the source; advice that gives a reason ("날씨가 추우니 …") states the
    reason, so it is not hinted 주장 아님."""
    claims = ["안녕하세요!", "도움이 되셨길 바랍니다.", "방문 전에 전화로 확인해 보시길 권합니다.",
              "따뜻하게 입고 가시는 게 좋습니다."]
    assert [r.shown for r in suggest(VENUE, claims)] == ["주장 아님"] * 4
    assert suggest(VENUE, ["날씨가 추우니 따뜻하게 입고 가시는 게 좋습니다."])[0].shown != "주장 아님"


def test_headings_questions_header_rows_and_the_askers_plan_are_not_a_claim_whatever_lines_share() -> None:
    """By form alone: a Markdown heading naming a line's subject, a question, a table's header row, the
    asker's plan said back and a greeting with nothing else are 주장 아님 even where a line shares their words, and
    so are a reaction or a wish of manner where no line is restated; a heading that states something, a data row,
    a greeting followed by a fact and a reaction that carries a fact are not set aside."""
    aside = ["## 큰방 보증금", "큰방도 빌릴 수 있나요?", "| 구분 | 1시간 요금 | 비고 |", "| 날짜 | 오전 | 오후 |",
             "토요일에 큰방을 빌리실 계획이시군요!", "대관 요금을 여쭤보셨네요.", "안녕하세요 😊",
             "즐거운 모임 되세요!", "모임 잘 마치시길 바랄게요!", "4명이서 큰방을 빌리시는군요 😊", "처음 모임을 여시려는군요.",
             "모임 하기 좋은 계절이네요 🌸", "다들 정말 좋아하겠네요!", "재밌게 모임 하세요!", "환불 규정", "계산 과정"]
    assert [r.shown for r in suggest(VENUE, aside)] == ["주장 아님"] * len(aside)
    claims = ["## 큰방은 토요일에 쉽니다", "| 큰방 | 10,000원 |", "| 구분 | 무료 |", "안녕하세요, 큰방 보증금은 30,000원입니다.",
              "큰방은 12일부터 빌릴 수 있다고 하니 다음에 써 보셔도 좋겠네요."]
    assert all(r.shown != "주장 아님" for r in suggest(VENUE, claims))


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


def test_a_claim_that_the_source_is_silent_on_what_no_line_names_is_hinted_grounded() -> None:
    """"안내문에는 주차 이야기가 없습니다" holds when no line names 주차 (the feedback's silence check), and the hint
    says so; the same claim about 휴관일, which line 4 names, stays 모름."""
    results = suggest(LIBRARY, ["안내문에는 와이파이 이야기가 없습니다.", "안내문에는 휴관일 이야기가 없습니다."])
    assert [(r.shown, r.basis) for r in results] == [("근거", "원문 어느 줄에도 '와이파이'가 없음"), ("모름", "")]


WORKSHOP = ["동네 공방 이용 안내 (가상 자료)", "목공 수업 상담은 전화로 예약한 뒤 받을 수 있습니다.",
            "공구함은 한 달에 4,000원이며 회원만 빌릴 수 있습니다.", "공구함 신청은 매달 20일부터 말일까지 받습니다.",
            "재료비는 수업마다 따로 받으며 금액은 강사가 정한 뒤 알려 드립니다.", "작업실은 화요일부터 토요일까지 10시에 엽니다.",
            "야간 작업실은 다음 달부터 열 예정입니다."]


def test_a_reworded_claim_covered_by_its_best_line_is_hinted_grounded_only_while_that_hint_is_shown() -> None:
    """"전화 예약 후에 가능합니다" rewords line 2: ``_covered`` names the line and says why, but the hint is shown
    only while SHOW_COVERED (withdrawn a third time on 2026-12-07: the unread blind sets measured it below 9 in 10
    again, see the README)."""
    result = suggest(WORKSHOP, ["목공 수업 상담은 전화 예약 후에 가능합니다."])[0]
    assert engine._covered(WORKSHOP, result.claim, result.lines) == "2번 줄에 이 주장의 말과 값이 모두 있음"
    assert result.shown == ("근거" if engine.SHOW_COVERED else "모름")


def test_the_covered_hint_holds_back_outside_its_preconditions() -> None:
    """No 근거 hint for: a value from another line joined to the best one (20일 is the application's day,
    not the rental's), labels that state nothing (one ending in 함 like a nominalised verb; by their form they are
    hinted 주장 아님, as a list's row labels are), and a line that only plans (예정)."""
    results = suggest(WORKSHOP, ["공구함은 한 달에 4,000원이고 20일부터 빌릴 수 있습니다.", "목공 수업 상담",
                                 "회원 공구함", "야간 작업실은 다음 달부터 엽니다."])
    assert [engine._covered(WORKSHOP, r.claim, r.lines) for r in results] == ["", "", "", ""]
    assert [r.shown for r in results] == ["모름", "주장 아님", "주장 아님", "모름"]
    assert [r.hint for r in results[:3]] == ["근거"] * 3  # the matcher's own reading, which the preconditions overrule


def test_the_covered_hint_needs_every_word_on_its_best_line() -> None:
    """"독감 접종은 예약한 사람만" puts a word of another line (독감) on the line about 대상포진: no 근거 hint,
    though every word is somewhere in the notice."""
    source = ["작은 의원 접종 안내 (가상 자료)", "독감 접종은 3일부터 28일까지 합니다.",
              "대상포진 접종은 미리 예약한 사람만 받을 수 있습니다."]
    result = suggest(source, ["독감 접종은 예약한 사람만 받을 수 있어요."])[0]
    assert result.not_found == () and result.shown == "모름"
    assert engine._covered(source, result.claim, result.lines) == ""


def test_the_covered_hint_holds_back_for_a_quantifier_or_a_line_that_holds_only_in_a_case() -> None:
    """"A반·B반 모두 월 9만 원" stretches "A반 월 9만 원, B반 월 7만 원" to both, and "음료는 모두 무료" the free water to
    every drink; "특별편이 운항합니다" drops "30명 이상일 때만": each has every word on its best line, and none
    is hinted 근거. The same rows said of one class, or a line with no case, are."""
    source = ["바다 여객선 안내 (가상 자료)", "수강료: A반 월 9만 원, B반 월 7만 원", "객실 음료는 유료이며, 생수 2병은 무료입니다.",
              "12월 31일 해넘이 특별편은 신청자 30명 이상일 때만 운항합니다.", "첫 배는 오전 7시 30분에 떠납니다."]
    claims = ["A반·B반 모두 월 9만 원입니다.", "객실 음료는 모두 무료입니다.", "12월 31일에는 해넘이 특별편이 운항합니다.",
              "A반은 월 9만 원입니다.", "첫 배는 오전 7시 30분에 떠나요."]
    results = suggest(source, claims)
    assert [engine._covered(source, r.claim, r.lines) for r in results] == [
        "", "", "", "2번 줄에 이 주장의 말과 값이 모두 있음", "5번 줄에 이 주장의 말과 값이 모두 있음"]


def test_no_grounded_hint_restates_a_line_that_leaves_its_matter_open_or_joins_two_clauses() -> None:
    """"할인율은 아직 정해지지 않았고 추후 안내할 예정" restates a line the course files under 보류: no 근거 hint; and
    "보호자와 같이 가면 13호 병동도" joins the guardian rule of one clause to the room of another: not covered."""
    source = ["방탈출 안내 (가상 자료)", "단체(10명 이상) 할인율은 아직 정해지지 않았으며 추후 안내합니다.",
              "만 14세 미만은 보호자와 함께 입장해야 하며, 13호 병동 테마는 만 15세 이상만 이용할 수 있습니다."]
    results = suggest(source, ["단체(10명 이상) 할인율은 아직 정해지지 않았고, 추후 안내할 예정이라고 합니다.",
                               "보호자와 같이 가면 13호 병동도 들어갈 수 있어요."])
    assert [r.shown for r in results] == ["모름", "모름"]
    assert engine._covered(source, results[1].claim, results[1].lines) == ""


def test_titles_announcements_vocatives_and_plain_advice_are_not_a_claim() -> None:
    """A plain-text title ("참가비 안내", "3인 요금 계산"), the answer announcing its own form ("표로 정리했어요"), a
    greeting with a vocative ("안녕하세요 어르신~") and advice with no reason in it, where no line is about it
    ("담당 직원에게 여쭤보시는 게 가장 빠릅니다", "이름표 꼭 붙이세요~"), are 주장 아님."""
    aside = ["참가비 안내", "3인 요금 계산", "방문 전 체크리스트", "주말 정보를 표로 정리했어요.", "토요일 기준으로 정리해 드릴게요.",
             "안녕하세요 어르신~", "담당 직원에게 여쭤보시는 게 가장 빠릅니다.", "간식 두실 거면 이름표 꼭 붙이세요~",
             "자세한 건 사무실에 물어보시면 친절하게 알려 주실 거예요~"]
    assert [r.shown for r in suggest(VENUE, aside)] == ["주장 아님"] * len(aside)


def test_a_fact_given_as_the_reason_for_advice_is_still_a_claim() -> None:
    """"구민이 아니면 요금이 두 배가 되니 참고하세요!" and "1년 내내 열리니까 언제든 놀러 가세요~" state something
    checkable before the advice: judged on it, never set aside; nor is a terse row ("주차 무료") or a title with a
    figure that is no title word ("성인 2만 원 요금")."""
    claims = ["구민이 아니면 요금이 두 배가 되니 참고하세요!", "1년 내내 열리니까 언제든 놀러 가세요~", "주차 무료",
              "성인 2만 원 요금", "결과는 문자로 안내"]
    assert all(r.shown != "주장 아님" for r in suggest(VENUE, claims))
    assert not any(engine.is_aside(claim, 0.0) for claim in claims)


def test_header_rows_by_their_labels_and_answers_announcing_themselves_are_not_a_claim() -> None:
    """A header row names columns: with fee names ("| 구분 | 참가비 |"), without outer pipes ("조건 | 대여 가능 여부"),
    in a plain-text table of three slash cells, or with its first cell naming the rows ("아이 | 참가비 | 소계").
    "…알려 드릴게요", "…다음과 같아요", "…내용은 이 정도예요" and "…재밌겠네요" announce or react. None of them can be
    true or false of the source."""
    aside = ["| 구분 | 참가비 |", "조건 | 대여 가능 여부", "구분 / 원래 금액 / 적용 금액", "아이 | 참가비 | 소계",
             "행사 요금 알려 드릴게요.", "안내문에 있는 대비책은 다음과 같아요.", "안내문에서 확인할 수 있는 내용은 이 정도예요.",
             "모임 정말 재밌겠네요 🎲"]
    assert [r.shown for r in suggest(VENUE, aside)] == ["주장 아님"] * len(aside)


def test_a_row_with_a_value_or_an_answer_word_is_data_not_a_header() -> None:
    """"| 학생 | 할인 |", "| 구분 | 무료 |", "| 준비물 | 실내화, 물병 |", "주차 / 불가", "토요일 / 일요일 / 공휴일", a bare
    "무료" and a row with a time or a date in a labelled cell ("우천 시 진행 여부 | 전날 17:00 문자 안내") say something of
    the source (or may): never set aside by form."""
    claims = ["| 학생 | 할인 |", "| 구분 | 무료 |", "| 준비물 | 실내화, 물병 |", "주차 / 불가", "토요일 / 일요일 / 공휴일", "무료",
              "| 큰방 | 30,000원 | 보증금 |", "우천 시 진행 여부 | 전날 17:00 문자 안내", "접수 기간 | 3일 전 안내"]
    assert not any(engine.is_aside(claim, 0.0) for claim in claims)


def test_a_row_of_a_label_and_its_value_is_data_even_when_the_value_ends_in_a_column_word() -> None:
    """"| 28일 요일 | 일요일 |", "| 합계 | 24시간 |" and "| 배달 날짜 | 16일 오후 |" hold a value in a cell, though 일요일 ends
    in 요일 and 24시간 in 시간: rows of data, never set aside (a learner who marks them 근거 is not told 주장 아님). A bare
    part of the day ("| 날짜 | 오전 | 오후 |") still names columns. A tag question that states a figure ("하루 600포기씩이니
    꽤 많죠?") is a claim; a plain question is not."""
    data = ["| 28일 요일 | 일요일 |", "| 합계 | 24시간 |", "| 배달 날짜 | 16일 오후 |", "| 4회 총 시간 | 6시간 |",
            "하루 평균 600포기씩이니 꽤 많죠?"]
    assert not any(engine.is_aside(claim, 0.0) for claim in data)
    assert all(engine.is_aside(claim, 0.0) for claim in ["| 날짜 | 오전 | 오후 |", "| 요일 | 시간 |", "몇 시에 끝나죠?"])


def test_praise_of_the_askers_plan_and_two_cell_header_rows_are_not_a_claim() -> None:
    """"남매가 함께 연극을 하다니 멋지네요!", "함께 봉사하시다니 정말 멋져요! 👏", "안녕하세요! 예약하셨군요, 잘하셨어요 😊" speak of
    the asker; "| 아이 | 참가비 |" and "| 질문 | 안내문 |" name columns. "토요일은 쉬신다니 아쉽네요.", "| 토요일 | 휴무 |" and a
    cell whose last word holds a figure ("무료 주차 2시간", though it ends in 시간) still state something."""
    aside = ["남매가 함께 연극을 하다니 멋지네요!", "함께 봉사하시다니 정말 멋져요! 👏", "안녕하세요! 중고차 점검 예약하셨군요, 잘하셨어요 😊",
             "| 아이 | 참가비 |", "| 질문 | 안내문 |"]
    assert all(engine.is_aside(claim, 0.9) for claim in aside)
    assert not any(engine.is_aside(claim, 0.9) for claim in ["토요일은 쉬신다니 아쉽네요.", "| 토요일 | 휴무 |", "벌써 마감되었군요.",
                                                             "| 신청 | 누리집 선착순, 무료 주차 2시간 |"])


def test_a_label_with_its_value_and_a_silence_with_advice_are_claims() -> None:
    """"추첨일 요일 / 월요일" and "요일 | 토요일" end in a value, not a title word; "참가비도 나와 있지 않아서 미리 물어보시는
    게 좋겠어요" says the notice is silent on the fee (true or false), whatever advice follows: none is set aside."""
    claims = ["추첨일 요일 / 월요일", "요일 | 토요일", "참가비도 나와 있지 않아서 미리 물어보시는 게 좋겠어요."]
    assert not any(engine.is_aside(claim, 0.0) for claim in claims)


def test_the_covered_hint_holds_back_for_a_line_that_decides_later_or_holds_only_on_an_order() -> None:
    """"추가 점검일을 열지는 … 보고 정해 21일에 알립니다" leaves open whether it happens, so "28일 추가 점검이 열립니다" has
    every word on it and is still no 근거; nor is "시내 배달은 무료" of "단, 10만 원 이상 주문 시 시내 배달비는 무료"."""
    source = ["점검의 날 안내 (가상 자료)", "점검은 14일과 21일 오전 10시부터 합니다.",
              "28일 추가 점검일을 열지는 두 날의 예약 상황을 보고 정해 21일에 누리집에 알립니다.",
              "단, 꽃 상품 10만 원 이상 주문 시 시내 배달비는 무료입니다."]
    results = suggest(source, ["28일 추가 점검일을 엽니다.", "시내 배달비는 무료입니다.", "점검은 14일 오전 10시부터 해요."])
    assert [engine._covered(source, r.claim, r.lines) for r in results] == ["", "", "2번 줄에 이 주장의 말과 값이 모두 있음"]
    assert [r.shown for r in results][:2] == ["모름", "모름"]


def test_a_silence_claim_that_names_its_subject_in_another_word_is_not_hinted_grounded() -> None:
    """"우천 시 안내는 없어요" and "비 올 때 안내는 없어요" of a notice that says "비가 오면 …", and "반납 장소는 나와 있지
    않아요" of one that says where to return ("빌린 곳이 아니어도"): the source is not silent, so no 근거 hint; a subject
    no line names still gets one."""
    source = ["우산 대여 안내 (가상 자료)", "비가 오면 행사는 구청 1층 로비에서 엽니다.",
              "반납은 빌린 곳이 아니어도 3곳 가운데 어디서나 할 수 있습니다."]
    results = suggest(source, ["우천 시 안내는 없어요.", "안내문에 비 올 때 안내는 없어요.",
                               "반납 장소는 안내문에 나와 있지 않아요.", "주차 안내는 안내문에 없어요."])
    assert [r.shown for r in results] == ["모름", "모름", "모름", "근거"]


def test_a_computation_from_the_best_ranked_line_alone_is_hinted_though_the_claim_names_none_of_its_words() -> None:
    """"끝나는 시각: 오전 11시 30분" shares no content word with "강습: 오전 10시부터 90분", yet that best-ranked line alone
    gives it (10시 + 1시간 30분): 근거 with the computation. A sum over two lines still needs each to name something
    the claim names."""
    source = ["수영 강습 안내 (가상 자료)", "강습: 토요일 오전 10시부터 90분", "주차는 2시간까지 무료입니다."]
    result = suggest(source, ["끝나는 시각: 오전 11시 30분"])[0]
    assert result.shown == "근거" and "10시 + 1시간 30분 = 11시 30분" in result.basis
    assert engine._follows(source, "끝나는 시각: 오전 11시 30분", [3, 2]) == ""


# A fictional notice written for these tests (not from any data set).
KNOTTING = ["매듭 공예 입문반 안내 (가상 자료)", "일정: 5일부터 26일까지 매주 화요일 저녁 7시부터 2시간씩, 모두 4회",
            "수강료: 4회 48,000원, 구민은 수강료 10% 할인", "실습 때는 사진 촬영을 할 수 없습니다.",
            "대상: 만 15세 이상, 정원 10명", "작업할 때는 미끄럽지 않은 운동화를 신어 주세요.",
            "신청: 1일(금) 오전 10시부터 전화 접수"]


def test_row_labels_signposts_and_remarks_on_the_asker_are_hinted_not_a_claim() -> None:
    """A bare topic standing alone as a list's row label ("수강료", "사진 촬영", "비가 올 때"), the answer announcing what it
    does ("계산해 봤어요.", "일정 알려 드릴게요 😊") and a remark on the asker ("걱정이 많으시겠어요", "주민이시라니
    다행이네요!", "화이팅!") are 주장 아님 whatever a line shares; a short fragment that states something ("입장은
    무료지만", "주제: 매듭 팔찌", "정원 10명") and a remark that carries a fact ("한 병씩 주니까 두 병 받아 오시겠네요") are
    not."""
    asides = ["수강료", "사진 촬영", "비가 올 때", "계산해 봤어요.", "네, 하나씩 계산해 볼게요!", "일정 알려 드릴게요 😊",
              "정리하면 아래와 같습니다.", "걱정이 많으시겠어요.", "주민이시라니 다행이네요!", "화이팅!", "면접 잘 보세요!"]
    assert [r.shown for r in suggest(KNOTTING, asides)] == ["주장 아님"] * len(asides)
    claims = ["입장은 무료지만", "주제: 매듭 팔찌", "정원 10명", "한 사람에 한 병씩 주니까 두 병 받아 오시겠네요",
              "5만 원에서 계산해 봤어요."]
    assert all(r.shown != "주장 아님" for r in suggest(KNOTTING, claims))


def test_a_silence_claim_is_not_hinted_where_a_line_names_its_subject_in_its_own_words() -> None:
    """"사진을 찍어도 되는지" of a line on 사진 촬영 (the asking verb 되는지 and the object's verb 찍다 need no line of their
    own), "어떤 신발을 신어야 하는지" of a line on 운동화, "나이 제한" of a line with "만 15세 이상": the source is not
    silent, so no 근거 hint; a subject no line names ("주차") still gets one."""
    results = suggest(KNOTTING, ["실습 중에 사진을 찍어도 되는지는 안내가 없어요.",
                                 "어떤 신발을 신어야 하는지도 나와 있지 않아요.",
                                 "참고로 나이 제한은 따로 적혀 있지 않아요.", "주차 안내는 안내문에 없어요."])
    assert [r.shown for r in results] == ["모름", "모름", "모름", "근거"]


def test_a_length_each_time_counted_by_the_line_and_a_weekday_from_any_dated_line_are_hinted() -> None:
    """"총 8시간" is 2시간씩 × the line's own 4회, though the line also gives a discount rate (a rate prices; it cannot be
    left out of a length); "2일은 토요일" counts from "1일(금)" on another line. A wrong total or weekday gets none."""
    results = suggest(KNOTTING, ["총 8시간입니다.", "2일은 토요일이에요.", "총 10시간입니다.", "2일은 일요일이에요."])
    assert [r.shown for r in results] == ["근거", "근거", "모름", "모름"]
    assert "2시간 × 4회 = 8시간" in results[0].basis and "1일(금) + 1일 = 2일(토)" in results[1].basis


def test_one_item_of_a_comma_list_is_restated_alone_only_on_a_line_with_no_cue() -> None:
    """"역에서 걸어서 6분이에요" restates one item of "장소: 누리 공방 (중앙로 12, 2층), 역에서 걸어서 6분" (근거, "… 같은
    말"); the same item on a line with a condition ("…, 비가 오면 역에서 걸어서 6분") is not restated alone."""
    plain = ["공방 안내 (가상 자료)", "장소: 누리 공방 (중앙로 12, 2층), 역에서 걸어서 6분"]
    result = suggest(plain, ["역에서 걸어서 6분이에요."])[0]
    assert result.shown == "근거" and result.basis == "2번 줄과 같은 말"
    conditional = ["공방 안내 (가상 자료)", "장소: 누리 공방 (중앙로 12, 2층), 비가 오면 역에서 걸어서 6분"]
    assert suggest(conditional, ["역에서 걸어서 6분이에요."])[0].shown == "모름"


def test_an_end_time_and_a_range_from_a_start_and_the_events_own_length_are_hinted() -> None:
    """"공연 시간 70분" is an event's length: "11시 공연은 12시 10분에 끝나요" and the range "11:00 ~ 12:10" (the start as
    the line gives it, the end that start plus the length) are 근거 with the computation; a range whose end is wrong,
    and one whose start is not a time of the line, are not."""
    source = ["인형극 안내 (가상 자료)", "공연: 하루 2회 (오전 11시, 오후 3시) / 공연 시간 70분"]
    results = suggest(source, ["오전 11시 공연은 70분이라 낮 12시 10분에 끝나요.", "오전 공연: 11:00 ~ 12:10",
                               "오전 공연: 11:00 ~ 12:30", "오전 공연: 10:50 ~ 12:00"])
    assert [r.shown for r in results] == ["근거", "근거", "모름", "모름"]
    assert "11시 + 1시간 10분 = 12시 10분" in results[0].basis and "11시~12시 10분" in results[1].basis


def test_a_length_each_session_and_a_group_price_times_a_group_of_that_size_are_hinted() -> None:
    """"회마다 80분" is each session's length (1시 + 80분 = 2시 20분); "5명 이상 단체로 신청하면 1인 2,000원" times six
    people is 12,000원, while four people are no such group and a line pricing people apart backs nothing."""
    source = ["견학 안내 (가상 자료)", "견학: 하루 두 번(오전 10시, 오후 1시), 회마다 80분",
              "참가비: 1인 3,000원, 5명 이상 단체로 신청하면 1인 2,000원"]
    results = suggest(source, ["오후 1시 견학은 오후 2시 20분에 끝나요.", "단체 요금 2,000원 × 6명 = 12,000원이에요.",
                               "4명이면 1인 2,000원씩 8,000원이에요."])
    assert [r.shown for r in results] == ["근거", "근거", "모름"]
    assert "2,000원 × 6명 = 12,000원" in results[1].basis


def test_an_amount_the_claim_supposes_is_an_operand_of_a_rate_the_line_gives() -> None:
    """"부품값 10,000원이면 30% 할인을 받아 7,000원" takes the asker's case (…이면) and the line's 30%: 근거 with
    "10,000원 × (1 − 30%) = 7,000원"; a result the rate does not give (8,000원) gets no hint."""
    source = ["수리 안내 (가상 자료)", "부품을 바꾸면 부품값의 30%를 할인해 드립니다."]
    results = suggest(source, ["부품값 10,000원이면 30% 할인을 받아 7,000원을 내시면 됩니다.",
                               "부품값 10,000원이면 8,000원을 내시면 됩니다."])
    assert [r.shown for r in results] == ["근거", "모름"]
    assert "10,000원 × (1 − 30%) = 7,000원" in results[0].basis


def test_a_header_row_naming_its_rows_and_more_remarks_on_the_asker_are_not_a_claim() -> None:
    """"| 구분 | 1시간 | 2시간 |" and "| 경우 | 50ml | 30ml |" name columns though they hold figures; a key-value row
    ("| 요일 | 토요일 |"), a row with an amount ("| 구분 | 5,000원 |") or a verdict ("| 날짜 | 미정 |") states something.
    "응원할게요!", "재봉 시작하시는군요, 반가워요!" and "도움이 됐으면 해요." are about the asker."""
    asides = ["| 구분 | 1시간 | 2시간 |", "| 경우 | 50ml | 30ml |", "| 항목 | 1인 | 2인 합계 |", "응원할게요!",
              "재봉 시작하시는군요, 반가워요!", "도움이 됐으면 해요.", "열심히 준비하시네요!"]
    assert [r.shown for r in suggest(KNOTTING, asides)] == ["주장 아님"] * len(asides)
    rows = ["| 요일 | 토요일 |", "| 구분 | 5,000원 |", "| 날짜 | 미정 |", "| 항목 | 참가비 무료 |"]
    assert all(r.shown != "주장 아님" for r in suggest(KNOTTING, rows))


def test_a_cue_governs_its_own_sentence_of_a_line_not_the_line_s_other_sentences() -> None:
    """"교육비는 무료예요" restates the first clause of "교육비는 무료이며, 끝까지 참여한 분께 수료증을 드립니다. 30분 이상
    늦으면 수료증이 발급되지 않습니다.": the condition is the second sentence's. A clause of the conditional sentence
    itself is still not restated alone."""
    source = ["교육 안내 (가상 자료)",
              "교육비는 무료이며, 끝까지 참여한 분께 수료증을 드립니다. 30분 이상 늦으면 수료증이 발급되지 않습니다."]
    results = suggest(source, ["교육비는 무료예요.", "수료증이 발급되지 않습니다."])
    assert [r.shown for r in results] == ["근거", "모름"]
    assert results[0].basis == "2번 줄과 같은 말"


def test_the_hint_lets_a_claim_leave_out_the_label_or_one_word_topic_of_its_line_but_the_verdict_does_not() -> None:
    """"한 가구당 약 1시간" restates "시공은 한 가구에 약 1시간 걸리며" for the hint (the topic 시공은 is what the question
    names), and "2일(월) ~ 13일(금)" the line "신청 기간: 2일(월)부터 13일(금)까지" (its label). Not without a value, not a
    topic of several words ("보청기 점검과 청소는 무료이며" says which service), and never as the restated verdict."""
    from exercises.grounding.engine.checks import restated_line

    source = ["방충망 교체 (가상 자료)", "신청 기간: 2일(월)부터 13일(금)까지",
              "시공은 한 가구에 약 1시간 걸리며, 주말에는 시공하지 않습니다.",
              "보청기 점검과 청소는 무료이며, 1인당 보청기 2대까지 봐 드립니다."]
    results = suggest(source, ["한 가구당 약 1시간 걸려요.", "2일(월) ~ 13일(금)까지예요.", "보청기는 1인당 한 대만 무료로 봐 드려요."])
    assert [r.shown for r in results] == ["근거", "근거", "모름"]
    assert results[0].basis == "3번 줄과 같은 말" and results[1].basis == "2번 줄과 같은 말"
    assert restated_line(source, "한 가구당 약 1시간 걸려요.", [3]) is None, "the verdict stays strict"
    assert restated_line(source, "한 가구당 약 1시간 걸려요.", [3], named_apart=True) == 3
