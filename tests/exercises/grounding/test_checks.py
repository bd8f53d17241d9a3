"""The feedback's checks: each speaks only inside its precondition, and says something true when it does."""

from __future__ import annotations

from pathlib import Path

import pytest

from exercises.grounding import feedback as fb
from exercises.grounding.engine.particles import attach

BOOKSHOP = [
    "가람책방 이용 안내 (가상 자료)",
    "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다.",
    "일요일과 월요일은 쉽니다.",
    "지하철 가람역 2번 출구에서 걸어서 5분 거리입니다.",
    "이달의 행사: 둘째 토요일 오후 3시 독서 모임 (정원 12명)",
    "행사 참가 신청은 누리집 신청서로 받습니다.",
    "행사 신청은 담당자 확인 뒤 확정되며, 확정되면 문자로 알려 드립니다.",
    "독서 모임 참가비는 무료입니다.",
    "문의는 책방 계산대나 누리집 게시판으로 해 주세요.",
]
VENUE = (Path(__file__).resolve().parents[3] / "lessons/content/answer-from-sources/fixtures/venue-rental.txt"
         ).read_text(encoding="utf-8").splitlines()
VISIT = {"key": "visit-1700", "text": "토요일 오후 5시(17시)에 가면 책방이 열려 있나요?", "judgement": "grounded",
         "evidence": [2, 3], "required": [2], "explanation": "2번 줄.", "facts": []}
PARKING = {"key": "parking-free", "text": "차를 가져가면 주차는 무료인가요?", "judgement": "no_data",
           "evidence": [], "required": [], "explanation": "주차 이야기 없음.", "facts": []}
CLASS = ["수영 교실 안내", "수업은 화요일과 목요일 16시부터 17시까지 열립니다.", "12월 29일부터 1월 2일까지는 수업이 없습니다.",
         "수업은 주 2회 열립니다.", "폐관 30분 전에는 입장할 수 없습니다.", "수영장은 19시에 문을 닫습니다.",
         "1박 숙박료는 40,000원이고 조식은 1인 10,000원입니다."]


def shown(text: str, judgement: str, cited: list[int], *, lines: list[str] = BOOKSHOP, question: dict | None = None,
          key: dict | None = None) -> dict:
    return fb.claim_feedback(text=text, judgement=judgement, cited=cited, question=question, key=key, lines=lines)


def test_grounded_without_a_cited_line_is_review() -> None:
    """근거 with no cited line is 다시 보기 with "근거라면 줄을 인용하세요"; a silence claim needs no line."""
    item = shown("독서 모임 참가비는 무료입니다.", "grounded", [])
    assert item["verdict"] == "review" and item["check"] == "no_lines" and "근거라면 줄을 인용하세요" in item["basis"]
    assert shown("안내문에는 주차 이야기가 없습니다.", "grounded", [])["check"] != "no_lines"
    assert shown("독서 모임 참가비는 무료입니다.", "no_data", [])["check"] != "no_lines"


def test_a_cited_line_that_does_not_exist_is_review() -> None:
    """Citing line 40 of a 9-line source says the line is not there."""
    item = shown("독서 모임 참가비는 무료입니다.", "grounded", [8, 40])
    assert item["verdict"] == "review" and item["check"] == "missing_line" and "40번 줄은 원문에 없습니다" in item["basis"]


def test_verbatim_restatement_is_right_only_for_grounded() -> None:
    """A claim copying a cited line is 맞음 as 근거 and 다시 보기 as 자료없음."""
    assert shown("독서 모임 참가비는 무료입니다 (8).", "grounded", [8])["check"] == "verbatim"
    assert shown("독서 모임 참가비는 무료입니다 (8).", "grounded", [8])["verdict"] == "right"
    assert shown("독서 모임 참가비는 무료입니다.", "no_data", [8])["verdict"] == "review"


def test_silence_claim_is_right_when_no_line_names_it() -> None:
    """"안내문에는 주차 이야기가 없습니다" is right as 근거; "참가비 이야기가 없다" (line 8 has it) is not backed."""
    item = shown("안내문에는 주차 이야기가 없습니다.", "grounded", [])
    assert item["verdict"] == "right" and item["check"] == "silence" and "'주차'가" in item["basis"]
    assert shown("안내문에는 참가비 이야기가 없습니다.", "grounded", [])["verdict"] != "right"


def test_a_computed_value_is_reproduced_not_called_a_conflict() -> None:
    """The venue's "시간당 7,500원, 두 시간이면 총 15,000원" citing lines 4 and 6: 맞음 with the computation."""
    claim = "작은방 토요일 대관료는 시간당 7,500원, 두 시간이면 총 15,000원입니다."
    item = shown(claim, "grounded", [4, 6], lines=VENUE)
    assert item["verdict"] == "right" and item["check"] == "computed"
    assert "5,000원 × 1.5배 = 7,500원" in item["basis"] and "7,500원 × 2시간 = 15,000원" in item["basis"]
    assert shown(claim, "no_data", [4, 6], lines=VENUE)["verdict"] == "review"


def test_an_incomplete_citation_asks_for_the_line_never_says_conflict() -> None:
    """The same claim citing only line 4 is told "6번 줄도 인용하세요", not that '7,500원' contradicts line 4."""
    item = shown("작은방 토요일 대관료는 시간당 7,500원, 두 시간이면 총 15,000원입니다.", "grounded", [4], lines=VENUE)
    assert item["verdict"] == "review" and item["check"] == "incomplete_citation"
    assert "6번 줄도 인용하세요" in item["basis"] and "어긋" not in item["basis"]


def test_sums_and_time_shifts_are_computations() -> None:
    """4만 + 1만 = 5만, and 2박 = 10만; a duration from a range; 19시 − 30분; none is a conflict."""
    stay = shown("1박에 조식 한 명을 더하면 총 50,000원입니다.", "grounded", [7], lines=CLASS)
    assert stay["verdict"] == "right" and "40,000원 + 10,000원 = 50,000원" in stay["basis"]
    assert shown("수업은 한 시간 동안 진행됩니다.", "grounded", [2], lines=CLASS)["verdict"] == "right"
    late = shown("18시 30분부터는 입장할 수 없습니다.", "grounded", [5, 6], lines=CLASS)
    assert late["verdict"] != "review"


def test_values_speak_only_on_a_value_stated_as_the_sources_own() -> None:
    """A contradicted amount is caught; a total, a rate worded otherwise and a bare day are not judged."""
    wrong = shown("독서 모임 참가비는 5,000원입니다.", "no_data", [8])
    assert wrong["verdict"] == "right" and wrong["check"] == "values" and "'5,000원'은 8번 줄과 다름" in wrong["basis"]
    assert shown("독서 모임 참가비는 5,000원입니다.", "grounded", [8])["verdict"] == "review"
    assert shown("수업은 일주일에 두 번 있습니다.", "grounded", [4], lines=CLASS)["verdict"] != "review"
    assert shown("수업은 화요일과 목요일, 주 2회 열립니다.", "grounded", [2, 4], lines=CLASS)["verdict"] != "review"
    assert shown("31일에는 수업이 없습니다.", "grounded", [3], lines=CLASS)["verdict"] != "review"
    assert shown("총 2시간 동안 진행됩니다.", "grounded", [2], lines=CLASS)["check"] != "values"


def test_a_value_of_a_kind_the_source_never_has_is_no_data() -> None:
    """"주차 요금은 3,000원" where no line has any amount: 자료없음 맞음; 무료 is not such a value."""
    lines = ["공원 안내", "공원은 매일 9시부터 18시까지 엽니다."]
    item = shown("주차 요금은 3,000원입니다.", "no_data", [], lines=lines)
    assert item["verdict"] == "right" and item["check"] == "absent_value"
    assert shown("주차 요금은 3,000원입니다.", "grounded", [2], lines=lines)["verdict"] == "review"
    assert shown("입장은 무료입니다.", "no_data", [], lines=lines)["check"] != "absent_value"


def test_question_checks_speak_only_for_claims_that_answer_the_question() -> None:
    """A correct fact from outside the linked question's evidence gets no question verdict."""
    fee = shown("독서 모임 참가비는 무료라서 부담 없이 오셔도 됩니다.", "grounded", [8], question=VISIT)
    assert fee["check"] not in ("question_evidence",) and fee["verdict"] != "review"
    fee_parking = shown("독서 모임 참가비는 무료라서 부담 없이 오셔도 됩니다.", "grounded", [8], question=PARKING)
    assert fee_parking["verdict"] != "review"
    parking = shown("주차는 책방 옆 공터에 하시면 됩니다.", "grounded", [4], question=PARKING)
    assert parking["verdict"] == "review" and parking["check"] in ("absent_subject", "question_silent", "citation")
    hours = shown("토요일에는 18시까지 문을 엽니다.", "grounded", [8], question=VISIT)
    assert hours["verdict"] == "review"
    assert "2, 3번 줄도 인용하세요" in " ".join(c["reason"] for c in hours["checks"]) or hours["check"] == "citation"


def test_a_claim_key_decides_and_carries_its_version() -> None:
    """A key backs the verdict, names the check, and passes its version; particles follow the word."""
    key = {"text": "x", "judgement": "pending", "relation": "conditional", "lines": [7], "question": "",
           "explanation": ""}
    item = fb.claim_feedback(text="신청하면 바로 확정됩니다.", judgement="pending", cited=[7], question=None, key=key,
                             lines=BOOKSHOP, key_version=3)
    assert item["verdict"] == "right" and item["check"] == "claim_key" and item["key_version"] == 3
    assert "보류가 맞습니다" in item["basis"]
    missing = fb.claim_feedback(text="신청하면 바로 확정됩니다.", judgement="pending", cited=[6], question=None, key=key,
                                lines=BOOKSHOP)
    assert missing["verdict"] == "review" and "7번 줄도 인용하세요" in missing["basis"]


def test_the_check_table_runs_in_order_and_a_holding_finding_keeps_the_claim_unchecked() -> None:
    """A check added to the table speaks in its place; an UNCHECKED finding holds the claim with its basis."""
    context = fb.ClaimContext(text="독서 모임 참가비는 무료입니다.", judgement="grounded", cited=(8,), question=None,
                              key=None, lines=tuple(BOOKSHOP))
    hold = fb.Check("stale", "stale", lambda c: fb.Finding(fb.UNCHECKED, "확인 안 됨 — 자료가 바뀌어 답안 키를 다시 확인하는 중"))
    never = fb.Check("never", "never", lambda c: fb.Finding(fb.REVIEW, "x"), applies=lambda c: False)
    found = fb.run_checks(context, (never, hold, *fb.CHECKS))
    assert [check.name for check, _ in found] == ["stale"]
    assert [check.name for check, _ in fb.run_checks(context, (never, *fb.CHECKS))] == ["verbatim"]


def test_a_doubled_misnamed_unlabelled_or_soft_final_check_stops_the_site_at_start_up() -> None:
    """The declared table is validated by a system check: the course's own table passes; a doubled name, a name
    that is not snake_case, an empty label and a soft check marked final are each an error with its id."""
    from django.core import checks as django_checks

    from exercises.grounding.checks import check_table

    assert check_table(fb.CHECKS) == []
    assert not [e for e in django_checks.run_checks() if e.id.startswith("grounding.")]
    bad = (fb.CHECKS[0], fb.CHECKS[0], fb.Check("Missing-Line", "x", fb.missing_line),
           fb.Check("quiet", " ", fb.missing_line), fb.Check("hold", "h", fb.unrelated_citation, soft=True, final=True))
    assert sorted(e.id for e in check_table(bad)) == ["grounding.E002", "grounding.E003", "grounding.E004", "grounding.E005"]


@pytest.mark.parametrize(("word", "pair", "expected"), [
    ("근거", "이/가", "근거가"), ("보류", "이/가", "보류가"), ("자료없음", "이/가", "자료없음이"),
    ("'7,500원'", "은/는", "'7,500원'은"), ("'밤 9시'", "은/는", "'밤 9시'는"), ("'2'", "을/를", "'2'를"),
    ("'10'", "은/는", "'10'은"), ("'1000'", "이/가", "'1000'이"), ("'3'", "은/는", "'3'은"),
    ("1번", "으로/로", "1번으로"), ("줄", "으로/로", "줄로"), ("'주차'", "이/가", "'주차'가"),
])
def test_particles_follow_the_word(word: str, pair: str, expected: str) -> None:
    """The particle's form follows the last sound of the word, past quotes, with digits read aloud."""
    assert attach(word, pair) == expected


def test_a_restated_line_in_other_endings_is_grounded_but_a_dropped_condition_is_not() -> None:
    """"참가비는 독서 모임에서 무료라고 합니다" repeats line 8's words; a clause of a line with a cue is not enough."""
    item = shown("독서 모임 참가비는 무료라고 안내되어 있습니다.", "grounded", [8])
    assert item["verdict"] == "right" and item["check"] in ("restated", "verbatim")
    assert shown("독서 모임 참가비는 무료라고 안내되어 있습니다.", "no_data", [8])["verdict"] == "review"
    dropped = shown("문자로 알려 드립니다.", "grounded", [7])
    assert dropped["check"] != "restated"
    extra = shown("독서 모임 참가비는 무료이고 음료도 줍니다.", "grounded", [8])
    assert extra["check"] != "restated"


def test_a_claim_about_a_service_the_source_never_names_is_no_data() -> None:
    """"수영장에는 무료 주차장이 있습니다" where no line names 주차: 자료없음 맞음; an ordinary noun is not judged."""
    item = shown("책방 건물 뒤에 무료 주차장이 있습니다.", "no_data", [])
    assert item["verdict"] == "right" and item["check"] == "absent_subject" and "'주차장'은" in item["basis"]
    assert shown("책방 건물 뒤에 무료 주차장이 있습니다.", "grounded", [1])["verdict"] == "review"
    assert shown("잃어버린 물건은 계산대에서 맡아 둡니다.", "grounded", [9])["check"] != "absent_subject"


def test_a_claim_that_denies_a_cited_line_in_its_own_words_is_no_data() -> None:
    """"독서 모임 참가비는 무료가 아닙니다" against line 8: same words, opposite negation, 자료없음 맞음."""
    item = shown("독서 모임 참가비는 무료가 아닙니다.", "no_data", [8])
    assert item["verdict"] == "right" and item["check"] == "denied"
    assert shown("독서 모임 참가비는 무료가 아닙니다.", "grounded", [8])["verdict"] == "review"


def test_greetings_and_advice_marked_not_a_claim_are_right_unless_the_source_is_about_them() -> None:
    """A sign-off marked 주장 아님 is 맞음 and marked 근거 is 다시 보기; "문의는 계산대로" restates line 9."""
    assert shown("도움이 되셨길 바랍니다.", "not_claim", [])["verdict"] == "right"
    assert shown("도움이 되셨길 바랍니다.", "grounded", [])["check"] == "set_aside"
    contact = shown("궁금한 점은 책방 계산대나 누리집 게시판으로 문의하시면 됩니다.", "not_claim", [])
    assert contact["verdict"] == "set_aside"


def test_a_heading_that_names_a_lines_subject_is_no_claim_in_the_verdict_as_in_the_hint() -> None:
    """"## 독서 모임 참가비" shares line 8's words, yet marked 근거 it is 다시 보기 with the same rule the hint
    uses (engine.is_aside), and marked 주장 아님 it is 맞음."""
    assert shown("## 독서 모임 참가비", "not_claim", [])["verdict"] == "right"
    item = shown("## 독서 모임 참가비", "grounded", [8])
    assert item["verdict"] == "review" and item["check"] == "set_aside" and "제목" in item["basis"]


def test_a_day_without_its_month_is_a_date_and_not_compared() -> None:
    """"첫 수업은 3일" against "12월 2일" is a date, and dates get no value verdict (see
    ``test_dates_clock_times_and_counts_are_never_compared``); "31일에는" against a range across the new year neither."""
    lines = ["수영 교실", "12월 29일부터 1월 2일까지는 수업이 없습니다.", "첫 수업은 12월 2일입니다."]
    assert shown("첫 수업은 3일입니다.", "no_data", [3], lines=lines)["check"] != "values"
    assert shown("첫 수업은 2일입니다.", "grounded", [3], lines=lines)["verdict"] != "review"
    assert shown("31일에는 수업이 없습니다.", "grounded", [2], lines=lines)["verdict"] != "review"


# --- preconditions found on the second development set (answers-dev2, 2026-12-05) -----------------

POOL = ["누리 구민 수영장 안내 (가상 자료)",
        "샤워실은 수영을 마친 뒤 20분 동안 쓸 수 있습니다.",
        "주차는 2시간까지 무료이며 그 뒤에는 10분마다 500원입니다."]
MARKET = ["강변 농부 시장 안내 (가상 자료)", "판매자는 모두 인근 마을 농부 40팀입니다."]
VET = ["다온 동물병원 안내 (가상 자료)", "병원은 매일 9시부터 20시까지 진료하며 수요일은 13시에 닫습니다."]


def test_a_figure_in_a_unit_the_reader_does_not_know_still_has_to_agree() -> None:
    """"농부 50팀" does not restate "농부 40팀": figures outside any value reading are compared as digits
    (a citation such as "(2)" is not a figure of the claim)."""
    from exercises.grounding.engine.checks import restated_line

    assert restated_line(MARKET, "판매자는 인근 마을 농부 50팀이에요.", [2]) is None
    assert restated_line(MARKET, "판매자는 모두 인근 마을 농부 40팀이에요. (2)", [2]) == 2


def test_each_value_of_the_claim_needs_its_own_value_on_the_line() -> None:
    """The line's "2시간까지" cannot stand for both the claim's 2시간 and its "30분마다": 30 ≠ 10."""
    from exercises.grounding.engine.checks import restated_line

    assert restated_line(POOL, "주차는 2시간까지 무료이고 그 뒤에는 30분마다 500원이에요.", [3]) is None
    assert restated_line(POOL, "주차는 2시간까지 무료이고 그 뒤에는 10분마다 500원이에요.", [3]) == 3


def test_a_claim_that_affirms_and_denies_is_not_called_a_denial() -> None:
    """"20분 동안 쓸 수 있고 그 뒤에는 쓸 수 없습니다" says the line and its other side: no 'opposite negation'."""
    from exercises.grounding.engine.checks import denied_line

    assert denied_line(POOL, "샤워실은 수영을 마친 뒤 20분 동안 쓸 수 있고 그 뒤에는 쓸 수 없습니다.", [2]) is None
    assert denied_line(POOL, "샤워실은 수영을 마친 뒤 20분 동안 쓸 수 없습니다.", [2]) == 2


def test_dates_clock_times_and_counts_are_never_compared() -> None:
    """Only amounts and durations get a value verdict (and an opening or closing time, below). On text written after the
    engine, a compared date, clock time or count was mostly right in the source by a rule the comparison cannot read (a
    range split by years, 매주 금·토, a timetable, a bound drawn from the other side), so none of them is called 원문과
    어긋남, even where the line does contradict it ("수요일은 9시~18시", "12월 15일에도", "다른 동 주민은 6명까지")."""
    from exercises.grounding.engine.checks import value_conflicts

    zoo = ["야간 동물원 (가상 자료)", "운영일: 2026년 12월 18일부터 2027년 1월 3일까지 매주 금요일·토요일"]
    care = ["시간제 돌봄 (가상 자료)", "기간: 2026년 12월 28일(월) ~ 2027년 1월 22일(금), 평일에만 운영합니다."]
    shuttle = ["해맞이 (가상 자료)", "셔틀버스: 시청 앞 광장에서 오전 5시 30분부터 20분 간격으로 운행하며, 마지막 차는 오전 "
               "6시 50분에 출발합니다."]
    yoga = ["요가 교실 모집", "x", "y", "모집 인원: 새솔동 주민 20명 (다른 동 주민은 자리가 남을 때에 한해 4명까지)"]
    archery = ["국궁 교실 (가상 자료)", "비가 오면 정원이 12명으로 줄어 초과 신청자는 다음 회차로 옮겨 드립니다."]
    for lines, claim, cited in ((VET, "수요일은 9시~13시에 진료해요.", [2]), (VET, "수요일은 9시~18시에 진료해요.", [2]),
                                (zoo, "12월 25일(금) 운영합니다.", [2]), (zoo, "12월 15일에도 운영합니다.", [2]),
                                (care, "평일 운영 | 12월 28일(월) ~ 1월 22일(금)", [2]),
                                (care, "평일 운영 | 12월 29일 ~ 1월 22일", [2]),
                                (shuttle, "마지막 셔틀은 시청 앞 광장에서 오전 6시 50분에 출발해요.", [2]),
                                (shuttle, "마지막 셔틀은 시청 앞 광장에서 오전 7시에 출발해요.", [2]),
                                (yoga, "다른 동 주민은 최대 4명까지래요.", [4]), (yoga, "다른 동 주민은 6명까지 받아요.", [4]),
                                (archery, "15명을 넘는 신청자는 다음 회차로 옮겨 줍니다.", [2])):
        assert value_conflicts(lines, claim, cited) == [], claim


def test_an_opening_or_closing_time_against_hours_given_as_a_range_is_compared() -> None:
    """The one form of clock time that is compared, the contradiction the course's first lesson teaches: "토요일에는 밤
    9시까지 영업" against "11시부터 18시까지" (a closing bound against hours given as a range). The asker's own range
    inside the hours, a departure time and a bound against a line that runs into the next day are not."""
    from exercises.grounding.engine.checks import value_conflicts

    assert [c.claim_text for c in value_conflicts(BOOKSHOP, "토요일에는 밤 9시까지 영업합니다.", [2])] == ["밤 9시"]
    assert value_conflicts(BOOKSHOP, "토요일에는 18시까지 영업합니다.", [2]) == []
    hours = ["돌봄 (가상 자료)", "시간: 오전 9시 ~ 오후 6시"]
    assert value_conflicts(hours, "맡기는 시간: 오후 1시 30분 ~ 오후 5시 30분", [2]) == []
    late = ["야시장 (가상 자료)", "운영: 저녁 6시부터 다음 날 새벽 2시까지"]
    assert value_conflicts(late, "야시장은 저녁 6시부터 열어요.", [2]) == []


def test_no_computation_multiplies_a_price_per_minutes_by_hours_or_adds_a_free_item() -> None:
    """"10분마다 500원" times "3시간" is no formula, and neither is "(0원 + 500원) × 3시간": no verdict."""
    from exercises.grounding.engine.compute import computation

    assert computation(POOL, "3시간을 세우면 1,500원을 내야 합니다.", [3]) is None
    assert computation(POOL, "세 시간 세우면 처음 두 시간은 무료이고 나머지 한 시간에 3,000원을 내요.", [3]) is None


THEATRE = ["소극장 관람 안내 (가상 자료)", "낮 공연 관람료는 1인당 9,000원이고 저녁 공연 관람료는 1인당 15,000원입니다.",
           "밤 공연은 관람료가 1인당 6,000원입니다.", "학생은 모든 공연에서 1,000원을 할인받습니다.",
           "프로그램 책자는 4,000원이며 예매하면 절반 값에 드립니다.",
           "특별 공연은 배우 일정이 확정되면 날짜를 알려 드릴 예정입니다."]


def test_no_line_is_asked_for_because_its_values_happen_to_add_up() -> None:
    """A table row "| 밤 공연 | 6,000원 | 24,000원 |" (four tickets) citing line 3: 9,000원 + 15,000원 of line 2
    also makes 24,000원, but that sum uses nothing the learner cited, so the site never says "2번 줄도 인용하세요";
    the venue's 7,500원 (5,000원 cited × 1.5배 uncited) still asks for its line."""
    item = shown("| 밤 공연 | 6,000원 | 24,000원 |", "grounded", [3], lines=THEATRE)
    assert item["check"] != "incomplete_citation" and item["verdict"] != "review", item["basis"]
    venue = shown("작은방 토요일 대관료는 시간당 7,500원입니다.", "grounded", [4], lines=VENUE)
    assert venue["check"] == "incomplete_citation" and "6번 줄도 인용하세요" in venue["basis"]


def test_half_and_saving_are_computing_words_so_no_value_conflict_is_claimed() -> None:
    """"| 프로그램 책자(예매, 절반) | 2,000원 |" is half of line 5's 4,000원: never "원문과 어긋남"."""
    item = shown("| 프로그램 책자(예매, 절반) | 2,000원 |", "grounded", [5], lines=THEATRE)
    assert "어긋" not in item["basis"] and item["verdict"] != "review"


def test_a_value_for_a_matter_the_source_leaves_pending_is_left_to_a_person() -> None:
    """"특별 공연은 내년 3월부터 열려요": line 6 leaves the date pending, so whether the learner's 보류 or
    자료없음 is right is not the absent-value check's to say; a made-up date for the booklet (never pending) is."""
    for judgement in ("pending", "no_data"):
        item = shown("특별 공연은 내년 3월부터 열려요.", judgement, [], lines=THEATRE)
        assert item["check"] != "absent_value" and item["verdict"] == "unchecked", (judgement, item)
    item = shown("프로그램 책자는 내년 3월부터 팝니다.", "no_data", [], lines=THEATRE)
    assert item["check"] == "absent_value" and item["verdict"] == "right"


MUSEUM = ["역사박물관 관람 안내 (가상 자료)", "관람 시간은 화요일부터 일요일까지 10시부터 18시까지입니다.",
          "특별전 성인 관람료는 5,000원입니다.", "특별전은 2월 28일까지이며, 관람객 수에 따라 연장될 수 있습니다.",
          "25일(금) 수거는 업체 사정에 따라 26일(토)로 미뤄질 수 있습니다."]


def test_a_value_against_a_line_that_leaves_its_matter_open_is_no_conflict() -> None:
    """"특별전은 3월까지 연장 확정" against "2월 28일까지이며 … 연장될 수 있습니다": the line leaves the end open, so
    whether the claim guesses what is pending (보류) or invents (자료없음) is a person's call: no 원문과 어긋남 either
    way. A line that settles its value still contradicts a wrong one."""
    for judgement in ("pending", "no_data"):
        for claim, cited in (("특별전은 3월까지 연장 확정.", [4]), ("수거가 27일(일)로 연기됩니다.", [5])):
            item = shown(claim, judgement, cited, lines=MUSEUM)
            assert item["check"] != "values" and "어긋남" not in item["basis"], (claim, judgement, item)
    item = shown("특별전 성인 관람료는 6,000원입니다.", "no_data", [3], lines=MUSEUM)
    assert item["check"] == "values" and item["verdict"] == "right"


def test_a_silence_said_in_chat_is_a_silence_claim() -> None:
    """"주차 요금은 안내문에 안 나와 있어요~" says the source is silent, as "나와 있지 않습니다" does: 근거 needs no line."""
    item = shown("주차 요금은 안내문에 안 나와 있어요~", "grounded", [])
    assert item["verdict"] == "right" and item["check"] == "silence"
    assert shown("참가비는 안내문에 안 적혀 있네요.", "grounded", [])["verdict"] != "right"  # line 8 has it


def test_a_markdown_heading_is_not_a_claim() -> None:
    """"### 주차 안내" is a heading: 주장 아님 is right and 자료없음 is told to mark it 주장 아님."""
    assert shown("### 주차 안내", "not_claim", [], lines=THEATRE)["verdict"] == "right"
    item = shown("### 주차 안내", "no_data", [], lines=THEATRE)
    assert item["verdict"] == "review" and item["check"] == "set_aside"


CLINIC = ["작은 의원 접종 안내 (가상 자료)", "독감 접종은 3일부터 28일까지 합니다.",
          "독감 접종 비용은 성인 25,000원이고 만 65세 이상은 무료입니다.",
          "대상포진 접종은 미리 예약한 사람만 받을 수 있습니다.", "폐렴 접종 비용은 1인당 30,000원입니다."]


def test_a_price_times_people_backs_nothing_where_the_line_prices_some_people_apart() -> None:
    """"두 분이 함께 맞으면 50,000원" citing a line where 만 65세 이상 is free: who the two are decides the sum,
    so there is no verdict either way; one price for everyone ("1인당 30,000원") still computes."""
    from exercises.grounding.engine.compute import computation

    assert computation(CLINIC, "두 분이 함께 맞으면 50,000원입니다.", [3]) is None
    for judgement in ("grounded", "no_data"):
        assert shown("두 분이 함께 맞으면 50,000원입니다.", judgement, [3], lines=CLINIC)["verdict"] == fb.UNCHECKED
    assert computation(CLINIC, "폐렴 접종을 두 분이 맞으면 60,000원입니다.", [5]) is not None


ESCAPE = ["방탈출 카페 이용 안내 (가상 자료)", "24일(월)은 행사로 기초반 수업을 쉬고, 28일(금)에 보강합니다.",
          "15일(토)에는 오전 10시~오후 2시 특별 운영을 합니다.", "단체(10명 이상) 할인율은 아직 정해지지 않았으며 추후 안내합니다.",
          "셀러 참가비(1일) | 먹거리 | 공예품", "일반 셀러 | 50,000원 | 30,000원"]


def test_instead_at_the_start_denies_nothing() -> None:
    """"대신 28일(금)에 보강해요" says line 2's make-up day: "대신" opens the sentence and negates nothing before it,
    so it is no "same words, opposite negation"; "28일(금)에 보강하지 않아요" still is."""
    assert shown("대신 28일(금)에 보강해요.", "grounded", [2], lines=ESCAPE)["check"] != "denied"
    item = shown("28일(금)에 보강하지 않아요.", "no_data", [2], lines=ESCAPE)
    assert item["check"] == "denied" and item["verdict"] == "right"


def test_a_count_of_days_is_not_compared_with_a_day_of_the_month() -> None:
    """"토요일 특별 운영은 딱 하루예요" against "15일(토)에는 …": 15일 is a date, not fifteen days: no 어긋남."""
    item = shown("토요일 특별 운영은 딱 하루예요.", "grounded", [3], lines=ESCAPE)
    assert item["check"] != "values" and "어긋남" not in item["basis"]


def test_restating_a_line_that_leaves_its_matter_open_is_left_to_the_key_or_a_person() -> None:
    """"할인율은 아직 정해지지 않았고 추후 안내할 예정" restates line 4, which leaves the rate open: the course files
    that under 보류, a reader may say 근거; the restated and verbatim checks give no verdict either way."""
    for judgement in ("grounded", "pending"):
        for claim in ("단체(10명 이상) 할인율은 아직 정해지지 않았고, 추후 안내할 예정이라고 합니다.", ESCAPE[3]):
            item = shown(claim, judgement, [4], lines=ESCAPE)
            assert item["check"] not in ("restated", "verbatim") and item["verdict"] != "right", (claim, judgement, item)


def test_a_table_row_of_several_amounts_is_not_reproduced_as_one_computation() -> None:
    """"| 일반 셀러(2일) | 100,000원 | 50,000원 |" doubles the food column and copies the food day rate into the
    crafts column: the computed check does not call the row 근거 (nor 다시 보기); one amount in a sentence still
    computes."""
    row = shown("| 일반 셀러(2일) | 100,000원 | 50,000원 |", "grounded", [5, 6], lines=ESCAPE)
    assert row["check"] != "computed" and row["verdict"] != "right"
    item = shown("일반 셀러가 먹거리 매대를 이틀 하면 100,000원이에요.", "grounded", [5, 6], lines=ESCAPE)
    assert item["check"] == "computed" and item["verdict"] == "right"


def test_a_label_is_not_an_answer_to_a_question_the_source_cannot_answer() -> None:
    """Linked to the parking question (no data), "주차 정보" names a topic and "주차 말씀이시죠~" says the question
    back: neither is told 자료없음 is right by the question's key; "주차는 무료예요" is."""
    for label in ("주차 정보", "주차 말씀이시죠~"):
        assert shown(label, "no_data", [], question=PARKING)["check"] != "question_silent", label
    assert shown("주차는 무료예요.", "no_data", [], question=PARKING)["check"] == "question_silent"


def test_a_silence_said_with_yaegi_is_a_silence_claim() -> None:
    """"주차 얘기는 따로 없어요~" (얘기 = 이야기) says the notice is silent on parking: 근거 needs no line."""
    item = shown("안내문에는 주차 얘기는 따로 없어요~", "grounded", [])
    assert item["verdict"] == "right" and item["check"] == "silence"


def test_a_claim_resting_on_a_line_that_leaves_its_matter_open_is_told_which_line_and_why() -> None:
    """Citing line 4 ("할인율은 아직 정해지지 않았으며 추후 안내합니다"), whatever the mark, no check calls the claim the
    source's own or contradicted: the verdict stays 확인 안 됨 and its basis names line 4 and the course's rule (보류
    for what the source leaves open) instead of a bare "확인 안 됨". A backed finding elsewhere still speaks first."""
    for judgement in ("grounded", "pending", "no_data"):
        item = shown("단체 할인율은 아직 정해지지 않았고, 추후 안내할 예정이라고 합니다.", judgement, [4], lines=ESCAPE)
        assert item["verdict"] == "unchecked" and item["check"] == "open_matter", (judgement, item)
        assert "4번 줄은 이 일을 아직 정하지 않았거나" in item["basis"] and "보류" in item["basis"]
    assert shown("28일(금)에 보강하지 않아요.", "no_data", [2, 4], lines=ESCAPE)["check"] == "denied"


RENTAL = ["강변 자전거 대여 안내 (가상 자료)", "이용권 | 기본 이용 시간 | 요금", "1시간권 | 60분 | 1,000원",
          "당일권 | 운영 시간 내 무제한 | 5,000원", "기본 이용 시간을 넘기면 10분마다 200원이 추가됩니다.",
          "문의: 대여소 031-555-0190"]
REFUND = {"key": "rain-refund", "text": "비가 와서 취소되면 환불되나요?", "judgement": "no_data",
          "evidence": [], "required": [], "explanation": "환불 이야기 없음.", "facts": []}


def test_a_silence_said_with_jeonhyeo_is_a_silence_claim() -> None:
    """"주차 이야기가 전혀 없어요" (none at all) says the notice is silent on parking: 근거 needs no line, and the
    no-data question's key does not call it an answer."""
    item = shown("아쉽게도 안내문에는 주차 이야기가 전혀 없어요.", "grounded", [])
    assert item["verdict"] == "right" and item["check"] == "silence"
    assert shown("아쉽게도 안내문에는 주차 이야기가 전혀 없어요.", "no_data", [], question=PARKING)["verdict"] != "right"


def test_a_pointer_to_ask_someone_is_no_answer_to_a_question_the_source_cannot_answer() -> None:
    """Linked to the refund question (no data), "환불 여부는 대여소(031-555-0190)에 확인해 보세요" points elsewhere and
    answers nothing: the question's key gives it no verdict either way; "비가 오면 환불돼요" answers it."""
    for judgement in ("grounded", "no_data"):
        item = shown("환불 여부는 대여소(031-555-0190)에 직접 확인해 보세요.", judgement, [6], lines=RENTAL, question=REFUND)
        assert item["check"] != "question_silent", (judgement, item)
    assert shown("비가 와서 취소되면 환불돼요.", "no_data", [], lines=RENTAL, question=REFUND)["check"] == "question_silent"


def test_a_comparison_is_not_backed_by_a_duration_that_happens_to_add_up() -> None:
    """"2시간 넘게 탈 계획이라면 당일권(5,000원)이 더 저렴합니다": 2시간 = 1시간 + 1시간 reproduces nothing of the
    comparison the claim makes, so the computed check does not speak; a computed amount still does."""
    for judgement in ("grounded", "no_data"):
        item = shown("2시간 넘게 탈 계획이라면 당일권(5,000원)이 더 저렴합니다.", judgement, [3, 4, 5], lines=RENTAL)
        assert item["check"] != "computed", (judgement, item)
    item = shown("1시간권 두 장이면 2,000원이에요.", "grounded", [3], lines=RENTAL)
    assert item["check"] == "computed" and item["verdict"] == "right"


GYM = ["암벽장 이용 안내 (가상 자료)", "1일권 | 성인 25,000원 | 청소년 20,000원", "암벽화 대여 4,000원, 초크 대여 1,000원",
       "첫 방문자 안전 교육비 5,000원은 별도입니다.", "토·일요일에는 1일권에 2,000원이 추가됩니다.",
       "시간권은 시간당 3,000원이며 1시간 단위로 올림 계산합니다.", "편도 소요 시간: 1시간 40분",
       "떡케이크 클래스에 생과일 토핑을 더하면 1인 7,000원이 추가됩니다."]


def test_a_total_that_leaves_out_a_cited_amount_is_not_reproduced() -> None:
    """"합계 32,000원" is 25,000 + 5,000 + 2,000 (lines 2, 4, 5): 맞음 for a learner who cites those lines. Citing the
    rentals on line 3 too, the same total leaves out amounts the learner says belong in it, which is what a model's
    wrong total looks like: the computed check then gives no verdict (neither 맞음 nor 다시 보기)."""
    item = shown("토요일 첫 방문 합계는 32,000원입니다.", "grounded", [2, 4, 5], lines=GYM)
    assert item["check"] == "computed" and item["verdict"] == "right", item
    for judgement in ("grounded", "no_data"):
        item = shown("토요일 첫 방문 합계는 32,000원입니다.", judgement, [2, 3, 4, 5], lines=GYM)
        assert item["check"] != "computed" and item["verdict"] not in ("right", "review"), (judgement, item)


def test_a_rate_with_a_rounding_rule_is_not_multiplied_exactly() -> None:
    """Line 6 rounds up to whole hours: "5시간 30분이면 16,500원" (3,000원 × 5.5) is wrong there, and the check, which
    multiplies exactly, gives no verdict rather than 맞음."""
    item = shown("시간권은 5시간 30분이면 16,500원입니다.", "grounded", [6], lines=GYM)
    assert item["check"] != "computed" and item["verdict"] != "right", item


def test_an_amount_shown_as_worked_or_as_a_multiple_is_no_conflict() -> None:
    """"| 생과일 토핑 | 7,000 × 2 | 14,000원 |" and "토핑: +14,000원" beside line 8's 1인 7,000원: a share for two people,
    not a misread amount, so no "원문과 어긋남"; "토핑은 9,000원이에요" still conflicts."""
    for claim in ("| 생과일 토핑 | 7,000 × 2 | 14,000원 |", "토핑: +14,000원", "생과일 토핑은 14,000원이에요."):
        item = shown(claim, "grounded", [8], lines=GYM)
        assert item["check"] != "values" and "어긋남" not in item["basis"], (claim, item)
    item = shown("생과일 토핑은 9,000원이에요.", "no_data", [8], lines=GYM)
    assert item["check"] == "values" and item["verdict"] == "right", item


def test_sharing_only_the_word_for_time_is_not_the_same_value() -> None:
    """"섬 체류 가능 시간: 8시간 40분" and "편도 소요 시간: 1시간 40분" share 시간 and nothing they are about: no
    "원문과 어긋남"; "편도 소요 시간은 2시간이에요" still conflicts."""
    item = shown("섬 체류 가능 시간: 8시간 40분", "grounded", [7], lines=GYM)
    assert item["check"] != "values" and "어긋남" not in item["basis"], item
    assert shown("편도 소요 시간은 2시간이에요.", "no_data", [7], lines=GYM)["check"] == "values"


def test_more_chat_silences_and_reactions() -> None:
    """"아이 요금은 안내문에 따로 없습니다" is a silence claim (근거 with no line, not "줄을 인용하세요"); "아이랑
    클라이밍이라니 멋지네요!" reacts to the asker and is no claim, so the no-data question's key does not call 자료없음
    right."""
    item = shown("아이 요금은 안내문에 따로 없습니다.", "grounded", [])
    assert item["verdict"] == "right" and item["check"] == "silence", item
    item = shown("아이랑 함께 클라이밍이라니 멋지네요!", "no_data", [], question=PARKING)
    assert item["check"] != "question_silent" and item["verdict"] != "right", item


DESKS = ["공유 오피스 요금 안내 (가상 자료)", "1일권 | 15,000원 | 당일 무제한",
         "회의실은 시간당 12,000원이며, 1일권 이용자는 회의실 요금을 30% 할인받습니다."]


def test_a_rate_on_a_priced_line_scales_only_that_lines_amount() -> None:
    """Line 3's 30 % is off the meeting room's 12,000원: "1일권이 있으면 30% 할인돼서 10,500원" (15,000원 × 0.7) is no
    discount the notice gives, so neither the verdict nor the hint calls it computed; "회의실은 8,400원" is."""
    from exercises.grounding.engine import suggest

    item = shown("1일권이 있으시면 30% 할인돼서 10,500원이에요.", "grounded", [2, 3], lines=DESKS)
    assert item["check"] != "computed" and item["verdict"] != "right", item
    assert suggest(DESKS, ["1일권이 있으시면 30% 할인돼서 10,500원이에요."])[0].hint != "근거"
    item = shown("1일권 이용자는 회의실 1시간에 8,400원이에요.", "grounded", [3], lines=DESKS)
    assert item["check"] == "computed" and item["verdict"] == "right", item


def test_silences_said_as_not_found_or_not_seen() -> None:
    """"주차 관련 정보는 찾을 수 없었어요", "안내문에서는 주차 이야기가 보이지 않아요" and "…포함되어 있지 않습니다" say the
    notice is silent on parking: 근거 with no line is right, and the no-data question's key does not call them an
    answer; "주차장은 보이지 않는 곳에 있어요" names no source and stays a claim about parking."""
    for claim in ("주차 관련 정보는 안내문에서 찾을 수 없었어요.", "안내문에서는 주차 이야기가 보이지 않아요.",
                  "주차 안내는 안내문에 포함되어 있지 않습니다."):
        item = shown(claim, "grounded", [])
        assert item["verdict"] == "right" and item["check"] == "silence", (claim, item)
        assert shown(claim, "no_data", [], question=PARKING)["verdict"] != "right", claim
    assert shown("주차장은 보이지 않는 곳에 있어요.", "grounded", [])["check"] != "silence"


SCOOTER = ["한빛 킥보드 할인 안내 (가상 자료)", "1시간권 2,000원 → 1,200원 / 하루권 6,000원 → 4,000원",
          "대학생은 위 할인 가격에서 25%를 더 할인합니다.", "1시간을 넘기면 10분마다 300원이 붙습니다.",
          "체험 교실: 1인 1회 3,000원, 모두 4회 열립니다.", "안전모 대여는 1인 1일 1,500원입니다.",
          "참가비: 전체 과정 12,000원, 회원은 50% 할인"]


def test_a_price_the_line_replaces_is_no_operand() -> None:
    """"6,000원 → 4,000원" replaced the first price: 6,000원 × (1 − 25%) = 4,500원 reproduces a figure from a price
    that no longer holds, so it backs nothing; from the new price (4,000원 × (1 − 25%) = 3,000원) it does."""
    from exercises.grounding.engine.compute import computation

    assert computation(SCOOTER, "대학생 하루권은 6,000원에서 25% 빠진 4,500원이에요.", [2, 3]) is None
    found = computation(SCOOTER, "대학생 하루권은 4,000원에서 25% 더 할인된 3,000원이에요.", [2, 3])
    assert found is not None and "4,000원 × (1 − 25%) = 3,000원" in found.text


def test_a_price_per_minutes_is_never_added_once() -> None:
    """"10분마다 300원" added once to 1,200원 (1,500원) leaves out how many periods: no formula; scaled by the
    periods the claim counts and then added, it is one (300원 × 3번 = 900원, 1,200원 + 900원 = 2,100원)."""
    from exercises.grounding.engine.compute import computation

    assert computation(SCOOTER, "1시간 30분 타면 모두 1,500원이에요.", [2, 4]) is None
    found = computation(SCOOTER, "1시간권 1,200원에 10분마다 300원씩 3번, 900원이 붙어 모두 2,100원이에요.", [2, 4])
    assert found is not None and "1,200원 + 900원 = 2,100원" in found.text


def test_a_price_per_person_and_per_day_needs_both_counts() -> None:
    """"1인 1일 1,500원" times 3일 alone leaves out how many people wear one: no formula, and so no verdict
    either way; times 2명 and 3일 it is one."""
    from exercises.grounding.engine.compute import computation

    assert computation(SCOOTER, "| 안전모 (3일) | 4,500원 |", [6]) is None
    found = computation(SCOOTER, "안전모는 2명이 3일 빌리면 9,000원입니다.", [6])
    assert found is not None and "1,500원 × 2명 × 3일 = 9,000원" in found.text
    item = shown("| 안전모 (3일) | 4,500원 |", "no_data", [6], lines=SCOOTER)
    assert item["check"] not in ("computed", "values"), item["basis"]


def test_a_claim_that_writes_its_own_arithmetic_is_backed_only_by_its_result() -> None:
    """"회원: 6,000원 × 2회 = 12,000원" states 12,000원 as its result; that 6,000원 is 12,000원 × (1 − 50%) and 12,000원
    a figure of the line reproduces an operand, not the claim's step, so neither 맞음 nor 다시 보기 follows.
    Its result reproduced ("12,000원 × 50% = 6,000원") is a computation."""
    from exercises.grounding.engine.compute import computation

    assert computation(SCOOTER, "회원: 6,000원 × 2회 = 12,000원", [7]) is None
    assert computation(SCOOTER, "회원: 12,000원 × 50% = 6,000원", [7]) is not None
    item = shown("회원: 6,000원 × 2회 = 12,000원", "grounded", [7], lines=SCOOTER)
    assert item["verdict"] not in ("right", "review") or item["check"] not in ("computed",), item["basis"]


def test_a_silence_claim_names_no_fragment_of_its_own_ending() -> None:
    """"주차: 안내문에 언급 없음" names 주차; the basis never lists '음', the end of 없음."""
    from exercises.grounding.engine.checks import silent_on

    assert silent_on(SCOOTER, "주차 공간: 안내문에 언급 없음") == ["주차", "공간"]
    assert "음" not in silent_on(SCOOTER, "운영 시간: 안내문에 없음")


def test_a_claim_read_only_in_part_is_not_computed() -> None:
    """A clause holds at most six values for the analysis; "1인 1일 … 2명 × 5일 × 2,000원 = 25,000원" has seven, and its
    result would be read away, so no computation backs it or its right twin; the same sum said in fewer values is."""
    from exercises.grounding.engine.compute import computation

    lines = ["셔틀 안내", "셔틀버스: 1인 1일 왕복 2,000원"]
    for result in ("20,000원", "25,000원"):
        assert computation(lines, f"셔틀버스는 1인 1일 왕복 2,000원이니 2명 × 5일 × 2,000원 = {result}입니다.", [2]) is None
    assert computation(lines, "셔틀은 2명 × 5일 × 2,000원 = 20,000원입니다.", [2]) is not None


RINK = ["겨울 스케이트장 안내", "운영일: 화요일~일요일", "입장 회차: 오전 10시, 낮 12시, 오후 2시, 4시, 6시 (1회 이용 시간 1시간 30분)",
        "이용료(1회): 초등학생 2,000원, 중학생 이상 3,000원 / 스케이트 대여 1,000원 별도",
        "정장은 1벌 10,000원에 빌려드립니다 (원래 대여료 25,000원).", "일시: 13일 오전 10시~오후 2시",
        "엉킴이 심하면 10,000원 ~ 20,000원이 추가될 수 있습니다.", "기본 요금 60,000원"]


def test_a_computation_says_nothing_of_a_weekday_it_did_not_check_or_of_an_extra_charge_it_left_out() -> None:
    """"13일(금) 10시부터 14시까지 4시간" reproduces 4시간, not whether 13일 is a Friday: no formula; without the weekday,
    or with a weekday said of no date ("평일 2박"), it is one. "2,000원 + 3,000원 = 5,000원" from a line that adds
    "스케이트 대여 1,000원 별도" may be a total that forgot it: no formula; a range of extra charges ("10,000원 ~ 20,000원이
    추가") lets a claim take one end."""
    from exercises.grounding.engine.compute import computation

    assert computation(RINK, "13일(금) 오전 10시부터 오후 2시까지 4시간 동안 열려요.", [6]) is None
    assert computation(RINK, "13일 오전 10시부터 오후 2시까지 4시간 동안 열려요.", [6]) is not None
    assert computation(RINK, "합계 5,000원", [4]) is None
    assert computation(RINK, "최고로 나와도 8만 원이네요.", [7, 8]) is not None


def test_a_value_the_claim_may_have_computed_or_the_price_now_is_no_conflict() -> None:
    """"회차는 2시간 간격" (10시, 12시, 14시 …) and "마지막 회차는 저녁 7시 30분에 끝" (6시 + 1시간 30분) are computed from
    line 3, and "정장 10,000원" is the price now beside "원래 대여료 25,000원": no conflict. "3시간 간격" and "정장 15,000원"
    still conflict (a clock time such as "저녁 8시에 끝" is never compared)."""
    from exercises.grounding.engine.checks import value_conflicts

    for claim, cited in (("회차는 2시간 간격이고,", [3]), ("마지막 회차는 저녁 7시 30분에 끝납니다.", [3]),
                         ("정장 대여비는 10,000원이고", [5]), ("정장은 만 원에 빌릴 수 있는데,", [5])):
        assert value_conflicts(RINK, claim, cited) == [], claim
    for claim, cited in (("회차는 3시간 간격이에요.", [3]), ("정장 대여비는 15,000원이에요.", [5])):
        assert value_conflicts(RINK, claim, cited), claim


def test_a_silence_claim_names_only_its_own_clause_and_no_question_word() -> None:
    """"몇 시간 인정하는지도 안내문에 나와 있지 않습니다" names 봉사 시간, which line 2 gives: not silent. The advice after "…나와
    있지 않으니" names nothing the source is said to lack, and a claim with a value in it is more than a silence."""
    from exercises.grounding.engine.checks import silent_on

    lines = ["연탄 나눔 봉사", "봉사 시간은 4시간을 인정하며, 포털에 등록해 드립니다.", "모이는 곳: 복지관 앞마당"]
    assert silent_on(lines, "봉사 시간을 몇 시간 인정하는지도 안내문에 나와 있지 않습니다.") == []
    assert silent_on(lines, "주차 안내는 안내문에 나와 있지 않으니 대중교통을 이용하시는 게 좋아요.") == ["주차"]
    assert silent_on(lines, "지금은 비가 올지 알 수 없으니 13일 개최 여부는 안내문에 없어요.") == []


def test_a_line_that_deducts_or_adds_is_no_basis_for_a_conflict() -> None:
    """"보증금에서 15,000원을 빼고 돌려드립니다" computes: "충전기 분실 시 35,000원 돌려받음" (50,000원 − 15,000원) is its
    result, not a misreading of 15,000원."""
    from exercises.grounding.engine.checks import value_conflicts

    lines = ["태블릿 대여", "보증금 50,000원을 받습니다.", "충전기를 잃어버리면 보증금에서 15,000원을 빼고 돌려드립니다."]
    assert value_conflicts(lines, "| 충전기 분실 시 환급 | 35,000원 |", [3]) == []


HIKE = ["야간 산행 교실", "일시: 23일 저녁 7시 ~ 9시 30분 (이론 40분 뒤 실습 산행)", "일시: 14일 오전 10시 ~ 오후 5시",
        "차량 통제는 행사 시작 1시간 전부터 행사가 끝나고 1시간 뒤까지입니다.", "상담 예약이 비는 시간에 상담할 수 있습니다."]


def test_a_range_needs_both_ends_and_a_phase_of_a_range_is_not_its_length() -> None:
    """"09:00 ~ 17:00" shifts the start (10시 − 1시간) but copies the event's end, where the line shifts it too: no
    formula. "실습 산행은 2시간 30분" reads the whole range of a line split into "이론 40분 뒤 실습": no formula, and
    "실습 산행은 약 110분" (2시간 30분 − 40분) is no conflict with it."""
    from exercises.grounding.engine.checks import value_conflicts
    from exercises.grounding.engine.compute import computation

    assert computation(HIKE, "차량 통제 | 09:00 ~ 17:00", [3, 4]) is None
    assert computation(HIKE, "차량은 오전 9시부터 통제돼요.", [3, 4]) is not None
    assert computation(HIKE, "실습 산행은 2시간 30분 동안 해요.", [2]) is None
    assert computation(HIKE, "행사는 7시간 동안 열려요.", [3]) is not None
    assert value_conflicts(HIKE, "실습 산행은 약 110분이며,", [2]) == []


def test_a_condition_is_no_silence_and_a_figure_given_as_a_reason_is_no_advice() -> None:
    """"빈 시간이 나오지 않으면 …" is a condition, not a claim that the notice is silent; "선착순 50석이라 일찍 가시는 게
    좋아요" states 50석 and is judged on it; so is any advice that gives its reason ("날씨가 추우니 …"): whether the
    reason is the source's, a person decides. Advice without one is set aside."""
    from exercises.grounding import engine
    from exercises.grounding.engine.checks import says_silent, silent_on

    claim = "그래서 빈 시간이 나오지 않으면 그날 상담을 못 받을 수도 있어요."
    assert not says_silent(claim) and silent_on(HIKE, claim) == []
    assert says_silent("주차 안내는 안내문에 나오지 않아요.")
    assert not engine.is_aside("인형극 자리는 선착순 50석이라 조금 일찍 가시는 게 좋아요.", 0.0)
    assert not engine.is_aside("날씨가 추우니 따뜻하게 입고 가시는 게 좋습니다.", 0.0)
    assert not engine.is_aside("주말에는 자리가 금방 차니 일찍 도착하는 게 좋아요.", 0.0)
    assert engine.is_aside("따뜻하게 입고 가시는 게 좋습니다.", 0.0)


def test_an_end_time_is_a_start_plus_the_length_the_line_gives() -> None:
    """"11시에 시작해 40분 동안 하니 11시 40분에 끝나요" of "오전 11시, 오후 2시 두 차례, 회당 40분" is computed (11시 + 40분);
    11시 50분 is not, and a claim about when it starts is no computation."""
    from exercises.grounding.engine.compute import computation

    source = ["인형극 안내 (가상 자료)", "어린이 인형극: 오전 11시, 오후 2시 두 차례, 회당 40분, 무료"]
    found = computation(source, "오전 인형극은 11시에 시작해 40분 동안 하니 11시 40분에 끝나요.", [2])
    assert found is not None and found.formulas == ("11시 + 40분 = 11시 40분",)
    assert computation(source, "오전 인형극은 11시 50분에 끝나요.", [2]) is None
    assert computation(source, "오후 인형극은 2시 40분에 시작해요.", [2]) is None


def test_a_count_of_the_unit_a_line_prices_is_a_factor() -> None:
    """"모종 6포트는 3,000원" of "한 포트에 500원" is 500원 × 6포트; 3,500원 is not reproduced."""
    from exercises.grounding.engine.compute import computation

    source = ["씨앗 나눔 안내 (가상 자료)", "모종은 한 포트에 500원이며, 한 가구당 10포트까지 살 수 있습니다."]
    found = computation(source, "모종 6포트는 3,000원이고요.", [2])
    assert found is not None and found.formulas == ("500원 × 6포트 = 3,000원",)
    assert computation(source, "모종 6포트는 3,500원이고요.", [2]) is None


def test_an_amount_taken_off_is_taken_off_the_fee_it_names_and_only_for_those_it_names() -> None:
    """"참가비를 두 번째 아이부터 10,000원씩 할인": 45,000원 − 10,000원 = 35,000원, then the pair's 80,000원; not "두 아이
    모두 … 각각 35,000원" (the line takes it off from the second child only), and never a topping's price less the
    class discount (the discount names no topping)."""
    from exercises.grounding.engine.compute import computation

    camp = ["캠프 안내 (가상 자료)", "참가비: 1인 45,000원 (재료비·점심 포함)",
            "형제자매가 함께 신청하면 두 번째 아이부터 참가비를 10,000원씩 할인합니다."]
    found = computation(camp, "합계: 45,000원 + 35,000원 = 80,000원", [2, 3])
    assert found is not None and found.formulas == ("45,000원 − 10,000원 = 35,000원", "45,000원 + 35,000원 = 80,000원")
    assert computation(camp, "두 아이 모두 10,000원씩 할인되어 각각 35,000원입니다.", [2, 3]) is None
    cooking = ["요리 교실 안내 (가상 자료)", "2명 이상 함께 신청하면 1인당 5,000원을 할인해 드립니다.",
               "생과일 토핑을 추가하면 1인 7,000원이 더해집니다."]
    assert computation(cooking, "토핑은 2,000원이에요.", [2, 3]) is None


def test_a_weekday_is_counted_from_a_date_whose_weekday_a_cited_line_gives() -> None:
    """"16일은 화요일" of "15일(월)~17일(수)" is 15일(월) + 1일; "16일은 수요일" is not reproduced, without a dated
    weekday on the cited lines (days come without a month) nothing is, and a claim that says more than the weekday
    of a day no line gives is not backed by it."""
    from exercises.grounding.engine.compute import computation

    source = ["캠프 안내 (가상 자료)", "일정: 15일(월)~17일(수) 3일간, 매일 오전 10시~오후 3시", "신청: 12일까지"]
    found = computation(source, "16일은 화요일이에요.", [2])
    assert found is not None and found.formulas == ("15일(월) + 1일 = 16일(화)",)
    assert computation(source, "16일은 수요일이에요.", [2]) is None
    assert computation(source, "12일은 금요일이에요.", [3]) is None
    # the weekday alone: "16일(화): 오전 특별 수업" puts on 16일 an event no line gives
    assert computation(source, "16일(화): 오전 특별 수업", [2]) is None


def test_a_length_per_occasion_counts_as_many_times_as_the_claim_counts_occasions_and_nothing_else() -> None:
    """"활동 1회에 봉사시간 2시간" and "5번이면 10시간" is 2시간 × 5번; a count of other things ("DVD 두 장 … 14일", "3번 틀리면
    30분") or a length read as a factor ("90분" as 1.5 times an hour) makes no computation."""
    from exercises.grounding.engine.compute import computation

    volunteer = ["봉사단 안내 (가상 자료)", "활동 1회에 봉사시간 2시간을 인정하며, 1회 활동비 8,000원을 상품권으로 드립니다."]
    found = computation(volunteer, "활동 1회에 봉사시간 2시간이 인정되니 5번이면 10시간이에요.", [2])
    assert found is not None and found.formulas == ("2시간 × 5번 = 10시간",)
    assert computation(volunteer, "5번이면 12시간이에요.", [2]) is None
    loans = ["도서관 안내 (가상 자료)", "책은 7일 동안 빌릴 수 있습니다.", "인증번호를 틀리면 10분 동안 잠깁니다."]
    assert computation(loans, "DVD는 두 장까지 빌릴 수 있고 14일 동안 보실 수 있습니다.", [2]) is None
    assert computation(loans, "인증번호를 3번 틀리면 30분 동안 잠겨요.", [3]) is None
    yoga = ["요가 안내 (가상 자료)", "수업은 매주 화요일 저녁 7시에 1시간 동안 합니다."]
    assert computation(yoga, "수업 한 번은 90분이다.", [2]) is None


def test_a_session_length_and_a_deposit_less_its_deduction_are_computations() -> None:
    """"오후 4시 회차는 오후 5시 30분에 끝나요" of "(1회 이용 시간 1시간 30분)", and "보증금 50,000원에서 15,000원을 빼고
    35,000원" of "보증금에서 15,000원을 빼고 돌려드립니다" (the deduction names the deposit)."""
    from exercises.grounding.engine.compute import computation

    rink = ["빙상장 안내 (가상 자료)", "입장 회차: 오전 10시, 낮 12시, 오후 2시, 4시, 6시 (1회 이용 시간 1시간 30분)"]
    found = computation(rink, "4시 입장 → 5시 30분 퇴장", [2])
    assert found is not None and found.formulas == ("4시 + 1시간 30분 = 5시 30분",)
    tablet = ["태블릿 대여 안내 (가상 자료)", "보증금 50,000원을 받으며, 반납할 때 모두 있으면 전액 돌려드립니다.",
              "충전기를 잃어버리면 보증금에서 15,000원을 빼고 돌려드립니다."]
    found = computation(tablet, "충전기를 잃어버리면 보증금 50,000원에서 15,000원을 빼고 35,000원을 돌려받아요.", [2, 3])
    assert found is not None and found.formulas == ("50,000원 − 15,000원 = 35,000원",)


def test_a_start_with_its_length_a_count_in_words_and_the_claims_own_factor_are_computations() -> None:
    """"오전 7시부터 2시간" ends at 9시; "1점에 5,000원" and "두 점" is 10,000원; "3,000원 × 2 = 6,000원" writes its own
    factor (and 7,000원 is not reproduced); "저녁 7시~8시 30분 (모두 4회)" is 6시간 in all; "30분 안에" is no length."""
    from exercises.grounding.engine.compute import computation

    assert computation(["눈 치우기 (가상 자료)", "활동 시간: 눈 온 날 오전 7시부터 2시간"], "끝나는 시간: 오전 9시", [2]) is not None
    moving = ["나눔 안내 (가상 자료)", "운반 서비스는 1점에 5,000원이며, 동네 안에서만 이용할 수 있습니다."]
    found = computation(moving, "운반은 1점에 5,000원이니 두 점이면 10,000원입니다.", [2])
    assert found is not None and found.formulas == ("5,000원 × 2점 = 10,000원",)
    golf = ["연습장 안내 (가상 자료)", "채는 1세트 3,000원에 빌려 드립니다."]
    assert computation(golf, "채 대여: 3,000원 × 2 = 6,000원", [2]) is not None
    assert computation(golf, "채 대여: 3,000원 × 2 = 7,000원", [2]) is None
    talks = ["영어 모임 (가상 자료)", "일시: 4일, 11일, 18일, 25일 저녁 7시~8시 30분 (모두 4회)"]
    found = computation(talks, "한 번에 1시간 30분씩 4회라 모두 6시간입니다.", [2])
    assert found is not None and found.formulas[-1] == "1시간 30분 × 4번 = 6시간"
    assert computation(talks, "5회면 7시간 30분이에요.", [2]) is None
    assert computation(["접수 (가상 자료)", "신청은 9시부터 30분 안에 마감합니다."], "9시 30분에 끝나요", [2]) is None


def test_a_count_no_line_gives_and_no_formula_used_leaves_the_computation_unsaid() -> None:
    """"수업은 총 9회, 1회 80분" reproduces 80분 from "오후 4시~5시 20분" but not the 9 classes: no computation. A line cited
    ("(2번 줄)"), an age or a bound ("만 6세", "20명 이상") is no such count."""
    from exercises.grounding.engine.compute import computation

    source = ["바둑 교실 (가상 자료)", "기간: 3일부터 26일까지 매주 수요일과 금요일, 오후 4시~5시 20분"]
    assert computation(source, "수업은 총 9회, 1회 80분입니다.", [2]) is None
    assert computation(source, "한 번 수업은 80분입니다(2번 줄).", [2]) is not None


def test_a_silence_claim_is_judged_on_the_things_it_names_not_on_words_about_information() -> None:
    """"강풍 취소 기준은 안내문에 따로 없어요" of a line that cancels on a gale warning, and "현장에서 못 고치는 경우에 대한 안내는
    없어요" of a line on what cannot be fixed on site: the source is not silent (기준, 경우, 대한 name no thing); a thing no
    line names still makes a silence."""
    from exercises.grounding.engine.checks import silent_on

    source = ["보청기 점검의 날 (가상 자료)", "강풍 특보가 있으면 그 회차를 취소하고 참가비를 돌려 드립니다.",
              "현장에서 고칠 수 없는 보청기는 제조사로 보내 드립니다."]
    assert silent_on(source, "다만 강풍 취소 기준은 안내문에 따로 없어요.") == []
    assert silent_on(source, "현장에서 못 고치는 경우에 대한 안내는 따로 없어요.") == []
    assert silent_on(source, "주차 안내는 안내문에 없어요.") == ["주차"]


def test_a_silence_claim_asking_which_or_whether_is_judged_on_its_nouns_and_knows_a_refund_by_other_words() -> None:
    """"어떤 분야에서 문제가 나오는지" of a line "문제는 … 분야에서 냅니다" (the embedded question's verb 나오는지 needs no
    line of its own), and "현금 환급" of a line "현금으로 돌려받을 수 없습니다" (환급 is a refund): the source is not
    silent. "상품이 무엇인지" of a notice that never names a prize still is."""
    from exercises.grounding.engine.checks import silent_on

    source = ["퀴즈 대회 (가상 자료)", "문제는 마을 역사·상식·시사 분야에서 냅니다.",
              "지원금은 카드에 충전되며, 현금으로 돌려받을 수 없습니다."]
    assert silent_on(source, "어떤 분야에서 문제가 나오는지도 안내문에는 없어요.") == []
    assert silent_on(source, "현금 환급 | 안내 없음") == []
    assert silent_on(source, "상품이 무엇인지도 안내문에는 없어요.")[0] == "상품"


def test_a_claim_that_the_source_is_silent_restates_and_denies_no_line() -> None:
    """"현금 환급 | 안내 없음" cited against "현금으로 돌려받을 수 없습니다": the claim's 없음 is about the notice, not about
    the refund, so it is no restatement (nor a denial) of the line; the same words said of the thing still are."""
    from exercises.grounding.engine.checks import denied_line, restated_line

    source = ["에너지 바우처 (가상 자료)", "지원금은 카드에 충전되며, 현금으로 돌려받을 수 없습니다."]
    assert restated_line(source, "현금 환급 | 안내 없음", [2]) is None
    assert denied_line(source, "현금 환급 | 안내 없음", [2]) is None
    assert restated_line(source, "현금으로 돌려받을 수 없어요.", [2]) == 2


def test_saying_the_notice_cannot_answer_is_a_claim_that_it_is_silent() -> None:
    """"두 가지 질문 모두 안내문만으로는 답할 수 없습니다" needs no cited line to be 근거 (it says what the notice lacks);
    "전화로 답할 수 있습니다" says nothing of the notice."""
    from exercises.grounding.engine.checks import says_silent

    assert says_silent("두 가지 질문 모두 안내문만으로는 답할 수 없습니다.")
    assert not says_silent("전화로 답할 수 있습니다.")


def test_an_operand_is_the_amount_of_what_the_claim_names_beside_it() -> None:
    """"건조기 40분 4,000원" is not the "중형(12kg) 1회 4,000원" of the washers' line, so 6,000원 + 4,000원 reproduces
    nothing there; "중형 4,000원에 대형 6,000원" names the washers and is summed, and so is a total named as one
    ("합계: …")."""
    from exercises.grounding.engine.compute import computation

    laundry = ["빨래방 안내 (가상 자료)", "세탁기: 중형(12kg) 1회 4,000원, 대형(25kg) 1회 6,000원, 세탁 시간은 모두 40분",
               "건조기: 10분에 1,000원"]
    assert computation(laundry, "대형 세탁기 6,000원에 건조기 40분 4,000원을 더해 모두 10,000원입니다.", [2]) is None
    for claim in ("중형 4,000원에 대형 6,000원을 더해 모두 10,000원입니다.", "합계: 4,000원 + 6,000원 = 10,000원"):
        found = computation(laundry, claim, [2])
        assert found is not None and found.formulas == ("4,000원 + 6,000원 = 10,000원",), claim


def test_a_sum_of_two_amounts_of_one_list_needs_both_named() -> None:
    """"장원 상금은 30만 원" of "장원 1명(상금 20만 원), 차상 2명(각 10만 원)": the claim names the 장원 only, so 20만 + 10만
    is no working of it; naming both ("장원과 차상 상금을 합치면") sums them, and "1박에 조식 한 명을 더하면 총 50,000원"
    names the 1박 of "1박 숙박료" by its figure."""
    from exercises.grounding.engine.compute import computation

    prizes = ["백일장 안내 (가상 자료)", "상: 부문별 장원 1명(상금 20만 원), 차상 2명(각 10만 원)"]
    assert computation(prizes, "장원 상금은 30만 원입니다.", [2]) is None
    assert computation(prizes, "장원과 차상 상금을 합치면 30만 원입니다.", [2]) is not None
    stay = ["민박 안내 (가상 자료)", "1박 숙박료는 40,000원이고 조식은 1인 10,000원입니다."]
    assert computation(stay, "1박에 조식 한 명을 더하면 총 50,000원입니다.", [2]) is not None


def test_a_rule_or_policy_names_no_thing_a_silence_claim_says_is_missing() -> None:
    """"휴대전화 사용에 관한 규칙도 안내문에는 없어요" of "휴대전화와 노트북은 쓸 수 없습니다": the line is the rule (규칙
    names no thing, as 규정 and 기준 do not); "주차 규칙" of a notice that never names parking is still a silence."""
    from exercises.grounding.engine.checks import silent_on

    source = ["백일장 안내 (가상 자료)", "원고지와 필기구는 주최 측에서 드리고, 휴대전화와 노트북은 쓸 수 없습니다."]
    assert silent_on(source, "휴대전화 사용에 관한 규칙도 안내문에는 없어요") == []
    assert silent_on(source, "주차 규칙도 안내문에는 없어요")[0] == "주차"


def test_a_row_whose_cell_lists_what_holds_is_no_header_row() -> None:
    """"| 비 올 때 | 문화회관 소극장(120석), 같은 시각 |" states where and when (a list with a figure), though its cells
    end like column names; "| 구분 | 중형(12kg) | 대형(25kg) |" and "| 구분 | 시간, 장소 |" still name columns."""
    from exercises.grounding.engine import aside_by_form

    assert not aside_by_form("| 비 올 때 | 문화회관 소극장(120석), 같은 시각 |")
    assert aside_by_form("| 구분 | 중형(12kg) | 대형(25kg) |")
    assert aside_by_form("| 구분 | 시간, 장소 |")


def test_half_in_words_is_a_rate_a_total_cannot_leave_out() -> None:
    """"둘째 아이부터는 이용료를 절반만 받습니다" is a rate of 0.5: "3,000원 × 4시간 × 2명 = 24,000원" citing it leaves it
    out and is reproduced by nothing, while "둘째는 절반이라 … 6,000원" uses it."""
    from exercises.grounding.engine.compute import computation

    care = ["시간제 돌봄 (가상 자료)", "이용료: 아이 1명당 1시간 3,000원", "같은 가구의 둘째 아이부터는 이용료를 절반만 받습니다."]
    assert computation(care, "이용료: 3,000원 × 4시간 × 2명 = 24,000원", [2, 3]) is None
    assert computation(care, "둘째는 절반이라 3,000원 × 4시간 × 0.5 = 6,000원", [2, 3]) is not None


def test_the_length_of_one_cases_hours_needs_the_case_named() -> None:
    """A line with weekday and weekend hours: "모두 11시간이에요" may be said of a Saturday, so 9시~20시 backs nothing;
    "평일에는 11시간" names the case, and a line with one range needs none."""
    from exercises.grounding.engine.compute import computation

    shelter = ["쉼터 (가상 자료)", "운영 시간: 평일 오전 9시 ~ 오후 8시, 토·일요일 오전 10시 ~ 오후 6시"]
    assert computation(shelter, "모두 11시간이에요.", [2]) is None
    found = computation(shelter, "평일에는 11시간 열어요.", [2])
    assert found is not None and found.formulas == ("9시~20시 = 11시간",)
    assert computation(["쉼터 (가상 자료)", "운영 시간: 오전 9시 ~ 오후 8시"], "모두 11시간이에요.", [2]) is not None


def test_a_value_the_line_states_in_the_clause_the_claim_names_is_no_conflict() -> None:
    """"장화는 구청 민원실에서 보증금 8,000원을 받고 빌려줘요" of a line whose first clause says "구청 민원실에서 우산은
    보증금 5,000원을 받고 빌려주며" and whose second says "장화는 보증금 8,000원을 받고 빌려줍니다": the claim restates the
    second clause, though the first shares more words. "장화는 … 9,000원" still conflicts, and "어린이 5,000원" with
    "성인 5,000원, 어린이 3,000원" (a claim without a verb is weighed as before)."""
    from exercises.grounding.engine.checks import value_conflicts

    rental = ["대여 (가상 자료)", "대여: 구청 민원실에서 우산은 보증금 5,000원을 받고 빌려주며, 장화는 보증금 8,000원을 받고 "
              "빌려줍니다."]
    assert value_conflicts(rental, "장화는 구청 민원실에서 보증금 8,000원을 받고 빌려줘요.", [2]) == []
    assert value_conflicts(rental, "장화는 구청 민원실에서 보증금 9,000원을 받고 빌려줘요.", [2]) != []
    fares = ["전시 (가상 자료)", "관람료: 성인 5,000원, 어린이 3,000원"]
    assert [c.claim_text for c in value_conflicts(fares, "어린이 관람료는 5,000원입니다.", [2])] == ["5,000원"]


def test_a_claim_that_may_say_something_is_absent_is_not_asked_for_a_line() -> None:
    """"전망대 화장실 | 없음" marked 근거 with no line may say the notice has none of it (근거) or that there is none
    (자료없음); "…안내문만으로는 답할 수 없습니다" and "토요일 접수 ❌" may be silence claims worded in a way the silence
    check does not read. None of them is told "줄을 인용하세요": each is held at 확인 안 됨 with the reason. A claim that
    states something with no such word is still asked for its line."""
    for text in ("| 전망대 화장실 | 없음 |", "두 가지 질문 모두 안내문만으로는 답할 수 없습니다.", "토요일 접수 ❌",
                 "행사 당일 주차는 안 된다고 합니다."):
        assert shown(text, "grounded", [])["verdict"] == "unchecked", text
    cell = shown("| 전망대 화장실 | 없음 |", "grounded", [])
    assert cell["check"] == "no_lines" and "원문에 없다는 주장이면 줄이 없어도" in cell["basis"]
    asked = shown("| 독서 모임 참가비 | 무료 |", "grounded", [])
    assert asked["check"] == "no_lines" and asked["verdict"] == "review"


def test_a_car_park_names_the_parking_and_how_the_notice_would_say_it_names_nothing() -> None:
    """"주차 정보도 따로 나와 있지 않네요" of a notice whose line gives the underground car park (주차장) and its free
    hours: not silent (the compound names the parking, and 따로 before the cue says how it is said); "수리비가 따로
    있는지는" keeps its 따로 (a separate fee), and a notice with no parking is still silent on it."""
    from exercises.grounding.engine.checks import silent_on

    aquarium = ["아쿠아리움 (가상 자료)", "지하 주차장은 입장권을 보여 주면 3시간 무료입니다."]
    assert silent_on(aquarium, "주차 정보도 따로 나와 있지 않네요.") == []
    assert silent_on(["전시 (가상 자료)", "입장료 5,000원"], "주차 정보도 따로 나와 있지 않네요.")[0] == "주차"
    repair = ["수선 (가상 자료)", "부품은 20% 할인, 수리비 안내는 현장에서 합니다."]
    assert "따로" in silent_on(repair, "수리비가 따로 있는지는 나와 있지 않네요.")


def test_an_amount_given_to_some_only_is_no_operand_of_a_claim_that_names_none_of_them() -> None:
    """"유류비 1만 원을 추가로 드립니다(사전 신청한 조만 해당)": "유류비 | 10,000원 × 5일 | 50,000원" drops the condition,
    so no computation backs it; a claim that states its case ("자가용으로 배달하시면") is computed."""
    from exercises.grounding.engine.compute import computation

    lunch = ["도시락 배달 (가상 자료)", "자가용으로 배달하는 조에는 유류비 1만 원을 추가로 드립니다(사전 신청한 조만 해당)."]
    assert computation(lunch, "유류비 | 10,000원 × 5일 | 50,000원", [2]) is None
    assert computation(lunch, "자가용으로 배달하시면 유류비가 5일이면 50,000원이에요.", [2]) is not None


def test_a_date_with_its_weekday_alone_is_a_heading_the_hint_computes_nothing_for() -> None:
    """"27일(일)" alone names a day (a heading or a list's label): no 근거 hint, though 26일(토) + 1일 = 27일(일); "27일은
    일요일이에요" states it and is hinted."""
    from exercises.grounding.engine import suggest

    market = ["상품권 판매 (가상 자료)", "12월 26일(토) 추가 판매 여부는 12월 23일(수)에 공지합니다."]
    assert [r.shown for r in suggest(market, ["27일(일)", "27일은 일요일이에요."])] == ["모름", "근거"]


def test_set_y_a_count_of_days_a_shift_line_a_sum_of_each_and_a_fact_the_cited_line_gives() -> None:
    """From set Y's wrong verdicts: "신청 기간은 모두 11일" is a count of days, not the 11th; "찾는 날: 1월 2일(토)부터"
    citing "2주 뒤부터" may be computed from it, so no conflict with the event's date; "다 합하면 500,000원" adds the
    3위 prize of "3위 두 명 각 50,000원" once and is reproduced by nothing; a claim a cited line accounts for states the
    source, not an answer to a question the source cannot answer; "…말은 어디에도 없어요" says the source is silent; a
    weekday given as a reason ("이날이 수요일이니 잊지 마세요") is a claim, not advice."""
    from exercises.grounding.engine.checks import says_silent, value_conflicts
    from exercises.grounding.engine.claims import is_advice
    from exercises.grounding.engine.compute import computation

    contest = ["씨름 대회 (가상 자료)", "일반부 상금: 우승 300,000원, 준우승 150,000원, 3위 두 명 각 50,000원",
               "신청: 2026년 12월 21일(월)부터 12월 31일(목)까지 구청 누리집"]
    assert value_conflicts(contest, "신청 기간은 모두 11일입니다.", [3]) == []
    assert value_conflicts(contest, "신청은 11일까지입니다.", [3]) == [], "a bare day is a date: dates are not compared"
    assert computation(contest, "일반부 상금은 다 합하면 500,000원이에요.", [2]) is None
    assert computation(contest, "우승과 준우승 상금을 합하면 450,000원이에요.", [2]) is not None
    watch = ["시계 수리의 날 (가상 자료)", "일시: 2026년 12월 19일(토) 오전 11시 ~ 오후 5시",
             "기계식 시계 분해 수리는 그날 하지 않고, 맡기시면 2주 뒤부터 찾아가실 수 있습니다.",
             "배터리 교체: 1개 5,000원, 한결시장 상품권으로 내시면 개당 1,000원 할인"]
    assert value_conflicts(watch, "찾는 날: 1월 2일(토)부터", [2, 3]) == []
    silent = {"key": "warranty", "text": "방수 테스트 뒤 보증서도 써 주나요? 카드로 결제할 수 있나요?",
              "judgement": "no_data", "evidence": [], "required": [], "explanation": "보증서·카드 이야기 없음.", "facts": []}
    told = shown("결제를 상품권으로 하면 배터리 교체가 개당 1,000원 싸져요.", "grounded", [4], lines=watch, question=silent)
    assert told["check"] != "question_silent", told
    assert shown("네, 카드로 결제할 수 있어요.", "grounded", [2], lines=watch, question=silent)["verdict"] == "review"
    assert says_silent("그런데 방수 보증서를 써 준다는 말은 어디에도 없어요.")
    assert not is_advice("이날이 수요일이니 잊지 마세요.") and is_advice("잊지 마세요.")


def test_a_difference_the_claim_worked_out_is_no_conflict() -> None:
    """From set Z: "가족권이 4,000원 저렴" is a difference the claim worked out, not a price; "가족권은 20,000원이에요"
    still conflicts."""
    from exercises.grounding.engine.checks import value_conflicts

    zoo = ["야간 동물원 (가상 자료)", "운영일: 2026년 12월 18일부터 2027년 1월 3일까지 매주 금요일·토요일",
           "야간 입장료: 어른 9,000원, 어린이(만 4~12세) 5,000원", "4인 가족권(어른 2명+어린이 2명) 24,000원"]
    assert value_conflicts(zoo, "가족권이 4,000원 저렴", [3, 4]) == []
    assert value_conflicts(zoo, "가족권은 20,000원이에요", [4]) != []


def test_a_price_per_team_is_not_multiplied_by_a_count_of_people() -> None:
    """"팀당 참가비 10,000원" times 4명 is not what four people pay: the team pays once, so "1인 10,000원 × 4명 =
    40,000원" is reproduced by no computation. A price with no unit, or per person, is still multiplied."""
    from exercises.grounding.engine.compute import computation

    team = ["퀴즈 대회 (가상 자료)", "참가 단위: 2~4명이 한 팀, 팀당 참가비 10,000원"]
    assert computation(team, "참가비 | 1인 10,000원 × 4명 = 40,000원", [2]) is None
    assert computation(team, "한 팀에 10,000원이라 네 명이면 40,000원이에요.", [2]) is None
    for line in ("참가비: 1인 10,000원", "참가비: 10,000원"):
        found = computation(["퀴즈 대회 (가상 자료)", line], "4명이면 40,000원이에요.", [2])
        assert found is not None and found.formulas == ("10,000원 × 4명 = 40,000원",)


def test_people_priced_apart_are_counted_when_the_claim_names_whose_price_it_multiplies() -> None:
    """"어른 2명 10,000원" of "어른 5,000원, 초등학생 2,000원, 미취학 어린이 무료" is 5,000원 × 2명; "두 분이면 10,000원" does not
    say who the two are, and "어린이 2명 10,000원" names people the line prices otherwise: no computation."""
    from exercises.grounding.engine.compute import computation

    walk = ["탐조 안내 (가상 자료)", "참가비: 어른 5,000원, 초등학생 2,000원, 미취학 어린이 무료"]
    found = computation(walk, "| 어른 | 2명 | 10,000원 |", [2])
    assert found is not None and found.formulas == ("5,000원 × 2명 = 10,000원",)
    assert computation(walk, "두 분이면 10,000원이에요.", [2]) is None
    assert computation(walk, "어린이 2명 10,000원", [2]) is None


def test_a_price_per_unit_with_its_note_and_a_weekday_said_of_the_last_day_are_computations() -> None:
    """"한 벌(재킷+하의)마다 2,000원" and "두 벌이면 4,000원"; "23일(화)부터 25일까지" and "마지막 날인 25일은 목요일" (words that
    say which day), but not "25일은 목요일 특별 행사" (an event no line puts on that day)."""
    from exercises.grounding.engine.compute import computation

    uniforms = ["교복 나눔 (가상 자료)", "교복을 기증하면 한 벌(재킷+하의)마다 2,000원짜리 쿠폰을 드립니다.",
                "일시: 23일(화)부터 25일까지 오전 11시~오후 7시 (마지막 날은 오후 3시에 마감)"]
    assert computation(uniforms, "한 벌마다 2,000원 쿠폰이라 두 벌이면 4,000원어치를 받으세요.", [2]) is not None
    found = computation(uniforms, "마지막 날인 25일은 목요일이고,", [3])
    assert found is not None and found.formulas == ("23일(화) + 2일 = 25일(목)",)
    assert computation(uniforms, "25일은 목요일 특별 행사", [3]) is None


def test_a_length_the_line_gives_is_no_conflict_beside_days_read_as_lengths_and_a_written_factor_must_be_used() -> None:
    """"견학은 1시간 30분 동안" of "견학일: 10일, 17일, 24일 오후 3시부터 1시간 30분" is no conflict (the days beside it read as
    lengths of days); "500원 × 2점 × 3일 = 1,500원" drops the 2점 it writes, so it is no computation (3,000원 is)."""
    from exercises.grounding.engine import value_conflicts
    from exercises.grounding.engine.compute import computation

    tour = ["방송국 견학 (가상 자료)", "견학일: 10일, 17일, 24일 오후 3시부터 1시간 30분 (매회 같은 순서로 진행)"]
    assert value_conflicts(tour, "견학은 1시간 30분 동안 진행되며,", [2]) == []
    assert value_conflicts(tour, "견학은 2시간 동안 진행되며,", [2]) != []
    toys = ["장난감 도서관 (가상 자료)", "반납이 늦으면 하루에 장난감 1점당 500원의 연체료를 보증금에서 뺍니다."]
    assert computation(toys, "500원 × 2점 × 3일 = 1,500원", [2]) is None
    assert computation(toys, "500원 × 2점 × 3일 = 3,000원", [2]) is not None


def test_a_silence_said_with_a_passive_ending_is_a_silence_claim() -> None:
    """"예약 방법은 따로 안내되지 않음" says the source is silent, as "안내되어 있지 않습니다" does."""
    from exercises.grounding.engine.checks import says_silent

    assert says_silent("예약 방법은 따로 안내되지 않음")
    assert says_silent("주차는 언급되지 않았어요.")


def test_set_p_preconditions_opinions_reported_facts_fees_and_totals_of_several_prices() -> None:
    """From set P's misses, each a check that spoke outside its basis:
    - an opinion that weighs a fact of the source ("토요일 오전이라 아이와 같이 가기 좋아요") does not answer a no-data
      question about children;
    - "한 번만 받을 수 있다는 점도 기억해 두세요" states a fact: not set aside as advice;
    - "주차비" is the fee of the 주차장 a line prices: not a subject the source never names;
    - "네 명 관람료는 70,000원" of "어린이 15,000원, 어른 20,000원" may be two and two: no conflict (a single price still
      conflicts: "어른 관람료는 25,000원");
    - "확인이 안 돼요" says the source is silent, and "몇 면인지" asks how many, naming nothing a line lacks."""
    from exercises.grounding.engine import is_aside, says_silent, value_conflicts
    from exercises.grounding.engine.checks import absent_subjects, silent_on

    workshop = ["퇴비 워크숍 (가상 자료)", "일시: 13일 오전 9시 30분부터 2시간 30분", "참가비는 무료입니다."]
    no_data = {"key": "kids", "text": "아이와 같이 가도 되나요?", "judgement": "no_data", "evidence": [], "required": [],
               "explanation": "아이 이야기 없음.", "facts": []}
    told = shown("워크숍은 토요일 오전이라 아이와 같이 가기 좋아요.", "grounded", [2], lines=workshop, question=no_data)
    assert told["check"] != "question_silent"
    assert shown("네, 아이와 같이 갈 수 있어요.", "grounded", [2], lines=workshop, question=no_data)["verdict"] == "review"
    assert not is_aside("한 번만 받을 수 있다는 점도 기억해 두세요.", 0.1)
    fair = ["박람회 (가상 자료)", "주차장은 40면이며 2시간까지 무료, 그 뒤로는 10분마다 500원입니다."]
    assert absent_subjects(fair, "주차비는 90분이면 4,500원이에요.") == []
    show = ["마술 공연 (가상 자료)", "관람료: 어린이(만 12세 이하) 15,000원, 어른 20,000원"]
    assert value_conflicts(show, "네 명 관람료는 70,000원인데", [2]) == []
    assert value_conflicts(show, "어른 관람료는 25,000원이에요.", [2]) != []
    assert says_silent("말씀하신 두 가지는 안내문에서 확인이 안 돼요.")
    assert silent_on(fair, "주차장이 몇 면인지는 안내문에 나와 있지 않아요.") == []


def test_set_r_preconditions_tiers_item_rules_pending_rows_and_places_of_things() -> None:
    """From set R's misses, each a check that spoke outside its basis:
    - a price for what lies over a threshold ("1m를 넘으면 1m마다 4,000원") times the whole count is not what the
      line says: no computation backs it, unless the claim counts only the excess ("나머지 1시간은 …");
    - a claim's own rule of which items a price applies to ("두 번째 장부터") is not backed by a total that matches;
    - a table row whose value is pending ("| 재개관 날짜 | 추후 공지 |") or a weekday rule ("| 개방일 | 매주 화·목요일 |") is a
      row of data, not a header; a header of weekday columns stays a header;
    - "문의처" is named by a line's "문의:", and "지금은 알 수 없어요" says the thing is not yet settled, not silence."""
    from exercises.grounding.engine.checks import silent_on
    from exercises.grounding.engine.claims import aside_by_form
    from exercises.grounding.engine.compute import computation

    hall = ["인쇄소 안내 (가상 자료)", "현수막 인쇄는 1m까지 12,000원, 1m를 넘으면 1m마다 4,000원이 더해집니다.",
            "한 번에 2장 이상 맡기면 모든 장에서 1장당 10,000원을 빼 드립니다.", "문의: 인쇄소 카운터 02-555-0100",
            "다음 할인 행사 날짜는 남은 일정을 보고 추후 문자로 알려 드립니다."]
    assert computation(hall, "현수막 2m는 12,000원에 2m분 8,000원을 더해 20,000원이에요.", [2]) is None
    assert computation(hall, "2장 이상 할인: 두 번째 장부터 10,000원씩, 모두 20,000원 할인", [3]) is None
    assert computation(hall, "2장을 맡기면 1장당 10,000원씩 모두 20,000원을 빼 줍니다.", [3]) is not None
    assert not aside_by_form("재개관 날짜 | 추후 문자 안내")
    assert not aside_by_form("| 개방일 | 매주 화·목요일 |")
    assert not aside_by_form("개별 가격 | 미정")
    assert aside_by_form("| 구분 | 월요일 | 수요일 |")
    assert silent_on(hall, "문의처 | 언급 없음") == []
    assert silent_on(hall, "다음 할인 행사 날짜는 지금은 알 수 없어요.") == []
    assert silent_on(hall, "주차장 | 언급 없음") == ["주차장"]


def test_a_table_row_is_read_with_its_header_by_the_computation() -> None:
    """A notice's table row says its column's unit and whose price it is only through its header: "참기름 | 9,000원 |
    약 40분" under "구분 | 1되당 삯 | 1되당 걸리는 시간" is 9,000원 and 약 40분 per 되, and "어른 | 어린이" columns label the
    fares. So 9,000원 × 3되, 40분 × 3되 and 12,000원 × 2명 for adults are computations of that row; a header-less
    pipe row and a row with another number of cells are read as written."""
    from exercises.grounding.engine.compute import computation
    from exercises.grounding.engine.tables import read_tables

    mill = ["방앗간 (가상 자료)", "구분 | 1되당 삯 | 1되당 걸리는 시간", "참기름 | 9,000원 | 약 40분", "들기름 | 8,000원 | 약 35분",
            "왕복 요금 | 어른 | 어린이(만 3~12세)", "야간 | 12,000원 | 8,000원"]
    assert read_tables(tuple(mill))[2] == "참기름 1되당 삯 9,000원, 참기름 1되당 걸리는 시간 약 40분"
    assert read_tables(tuple(mill))[5] == "야간 어른 12,000원, 야간 어린이(만 3~12세) 8,000원"
    assert computation(mill, "참기름은 1되에 9,000원이라 3되면 27,000원입니다.", [3]) is not None
    assert computation(mill, "1되에 약 40분이 걸리니 3되는 2시간쯤 걸립니다.", [3]) is not None
    assert computation(mill, "1되에 약 40분이 걸리니 3되는 3시간쯤 걸립니다.", [3]) is None
    assert computation(mill, "야간 어른 2명: 12,000원 × 2 = 24,000원", [6]) is not None
    washer = ["세척 (가상 자료)", "구분 | 공동구매가(1대) | 작업 시간(1대)", "벽걸이형 | 60,000원 | 약 1시간"]
    assert computation(washer, "벽걸이형 2대: 60,000원 × 2 = 120,000원", [3]) is not None
    assert read_tables(("가 | 9,000원", "나 | 8,000원")) == ("가 | 9,000원", "나 | 8,000원")  # no header: first row has an amount
    assert read_tables(("구분 | 요금", "가 | 9,000원 | 비고")) == ("구분 | 요금", "가 | 9,000원 | 비고")


def test_a_weekday_claim_is_checked_against_the_calendar_the_source_dates_fix_on_any_line() -> None:
    """"6일은 토요일입니다" citing the application line is right when line 4 gives "19일(금)": 19일(금) − 13일 = 6일(토),
    and the basis names line 4; "19일은 목요일" is told apart from the calendar. The check says nothing where its
    basis fails: a claim that also states a rule, a date more than two weeks before every dated line (or after them
    in a source that reaches into another month), sources whose dated weekdays disagree, or two months named."""
    from exercises.grounding.engine.compute import calendar

    notice = ["주차 신청 (가상 자료)", "신청 기간: 3일부터 12일까지 (토요일·일요일은 접수하지 않습니다)", "문의: 구청",
              "배정 결과는 19일(금) 오후 2시에 알려 드립니다."]
    found = calendar(notice, "6일은 토요일입니다.")
    assert found is not None and found.agrees and found.lines == (4,) and "19일(금) − 13일 = 6일(토)" in found.text
    wrong = calendar(notice, "19일은 목요일입니다.")
    assert wrong is not None and not wrong.agrees
    assert calendar(notice, "6일은 토요일이라 접수하지 않습니다.") is None
    # a day without its month is the source's month: a later day counts at any distance, an earlier one far back may
    # be the next month's, and a source that reaches into another month keeps the two-week bound
    later = calendar(["가 (가상 자료)", "2일(월) 개강"], "30일은 월요일입니다.")
    assert later is not None and later.agrees and "2일(월) + 28일 = 30일(월)" in later.text
    assert calendar(["가 (가상 자료)", "29일(월) 개강"], "3일은 금요일입니다.") is None
    assert calendar(["가 (가상 자료)", "2일(월) 개강, 다음 달 결과 발표"], "30일은 월요일입니다.") is None
    assert calendar(["가 (가상 자료)", "28일(토)부터 5일까지 접수"], "27일은 금요일입니다.") is not None
    assert calendar(["가 (가상 자료)", "28일(토)부터 5일까지 접수"], "5일은 목요일입니다.") is None
    right = shown("6일은 토요일입니다.", "grounded", [2], lines=notice)
    assert right["verdict"] == "right" and right["check"] == "weekdays" and "4번 줄" in right["basis"]
    told = shown("19일은 목요일입니다.", "no_data", [4], lines=notice)
    assert told["verdict"] == "right" and told["check"] == "weekdays"
    assert calendar(["가 (가상 자료)", "1월 5일(화) 개강", "2월 3일 종강"], "2월 3일은 화요일입니다.") is None
    assert calendar(["가 (가상 자료)", "5일(화) 개강, 7일(금) 종강"], "6일은 수요일입니다.") is None


def test_a_cell_of_a_table_row_is_restated_with_the_rows_name_and_its_column() -> None:
    """"야간 월 요금 | 20,000원" says one cell of the row "야간 | 20,000원 | 오후 7시 ~ 오전 9시" under "구분 | 월 요금 |
    이용 시간": 근거, with the row's line. A cell without the row's name, or with another value, is no restatement,
    and a claim that repeats the whole row as written still restates it."""
    from exercises.grounding.engine.checks import restated_line

    parking = ["주차 (가상 자료)", "구분 | 월 요금 | 이용 시간", "주간 | 15,000원 | 오전 8시 ~ 오후 8시",
               "야간 | 20,000원 | 오후 7시 ~ 다음 날 오전 9시"]
    assert restated_line(parking, "야간 월 요금 | 20,000원", [4]) == 4
    assert restated_line(parking, "야간 월 요금은 20,000원입니다.", [4]) == 4
    assert restated_line(parking, "월 요금 | 20,000원", [4]) is None
    assert restated_line(parking, "야간 월 요금 | 25,000원", [4]) is None
    assert restated_line(parking, "| 야간 | 20,000원 | 오후 7시 ~ 다음 날 오전 9시 |", [4]) == 4


def test_a_sentence_in_brackets_is_restated_alone_and_a_copied_weekday_is_hinted() -> None:
    """"(전화 신청은 받지 않습니다)" is a statement of its own inside its line: "전화 신청은 받지 않습니다" restates it
    (and "전화 신청도 받습니다" does not). "19일은 금요일이에요" copies the weekday line 4 gives: the hint says 근거 with
    that line; a heading that names the day ("19일(금) 발표") gets no such hint."""
    from exercises.grounding.engine import suggest
    from exercises.grounding.engine.checks import restated_line
    from exercises.grounding.engine.compute import calendar

    notice = ["주차 신청 (가상 자료)", "신청 방법: 누리집에서 온라인 신청, 또는 주민센터 방문 신청 (전화 신청은 받지 않습니다)",
              "문의: 구청", "배정 결과는 19일(금) 오후 2시에 알려 드립니다."]
    assert restated_line(notice, "전화 신청은 받지 않습니다.", [2]) == 2
    assert restated_line(notice, "전화 신청도 받습니다.", [2]) is None
    copied = calendar(notice, "19일은 금요일이에요.")
    assert copied is not None and copied.agrees and copied.text == "19일(금)"
    hint = suggest(notice, ["19일은 금요일이에요."])[0]
    assert hint.shown == "근거" and "4번 줄" in hint.basis
    assert suggest(notice, ["19일(금) 발표"])[0].shown != "근거"


def test_set_s_preconditions_addresses_bundles_rules_for_every_item_and_errands() -> None:
    """From set S's misses, each a check or hint that spoke outside its basis:
    - "주소가 안 나와 있어요" of a notice that gives "(바람로 15)": an address is named by its road and number;
    - "8,000원 × 2회 × 2명 = 32,000원" from a line that prices the two sessions together ("두 회차를 함께 신청하면
      15,000원") backs nothing, unless the claim pays them apart ("따로 내면");
    - "사다리 반납이 늦어지면 연체료가 있는지는 안내문에 없어요" of a notice whose late-return rule covers every item:
      no silence (the verb of a "…면" condition names no thing);
    - "간식은 두고 가세요" is the reader's errand: no 'absent subject'."""
    from exercises.grounding.engine.checks import absent_subjects, silent_on
    from exercises.grounding.engine.compute import computation

    hall = ["교실 (가상 자료)", "장소: 복지관 2층 교육실 (바람로 15)",
            "참가비: 회당 8,000원, 두 회차를 함께 신청하면 15,000원",
            "대여료: 드릴 1일 2,000원, 사다리 1일 3,000원", "반납이 하루 늦을 때마다 연체료 1,000원이 붙습니다.",
            "교실 안에는 외부 음식을 가져올 수 없습니다."]
    assert silent_on(hall, "안내문에 복지관 주소가 안 나와 있어요.") == []
    assert computation(hall, "참가비: 32,000원 (회당 8,000원 × 2회 × 2명)", [3]) is None
    assert computation(hall, "회당 8,000원씩 따로 내면 두 명 두 번에 32,000원이에요.", [3]) is not None
    assert silent_on(hall, "사다리 반납이 늦어지면 연체료가 있는지는 안내문에 없어요.") == []
    assert silent_on(hall, "주차 요금은 안내문에 없어요.") != []
    assert absent_subjects(hall, "외부 음식은 가져갈 수 없으니 간식은 두고 가세요.") == []


def test_a_claims_own_product_is_reproduced_as_a_product_or_not_at_all() -> None:
    """"2,000원 × 3일 = 6,000원" citing the price line and the late-fee line: 2,000원 + 3,000원 + 1,000원 also makes
    6,000원, but it is not the claim's product, so it backs nothing; citing the price line alone gives 2,000원 × 3일.
    A count the line names otherwise ("5회", "5번") still counts."""
    from exercises.grounding.engine.compute import computation

    shed = ["공구 대여 (가상 자료)", "대여료: 드릴 1일 2,000원, 사다리 1일 3,000원",
            "반납이 하루 늦을 때마다 연체료 1,000원이 붙습니다.", "봉사 1회에 2시간을 인정합니다."]
    assert computation(shed, "드릴: 2,000원 × 3일 = 6,000원", [2, 3]) is None
    found = computation(shed, "드릴: 2,000원 × 3일 = 6,000원", [2])
    assert found is not None and "2,000원 × 3일 = 6,000원" in found.text
    assert computation(shed, "봉사시간: 2시간 × 5회 = 10시간", [4]) is not None


def test_set_t_preconditions_marks_verdict_cells_bringing_doubts_partial_discounts_and_cited_accounts() -> None:
    """From set T's misses, each a check that spoke outside its basis:
    - "일요일 접수 ❌" is a statement with its mark, not a bare row label set aside as 주장 아님;
    - "| 확인 불가 | 주차, 강사 수 |" says the source is silent on parking and the instructors' number;
    - "신분증 지참 | 안내문에 언급 없음" of a notice that checks 신분증: a line may require what it uses without
      the word for bringing it, so the site cannot call the silence right;
    - "주차장이 있을 수도 있지만 확실하지 않으니 …" doubts itself: no absent subject to call 자료없음;
    - "(보드 대여료는 할인하지 않습니다)": a discount that leaves a part out scales no sum the claim made, while it still
      scales the one fee it names;
    - a claim that answers from the lines it cites, while a line of its question ranks first, is not told to cite
      the question's lines."""
    from exercises.grounding.engine import is_aside
    from exercises.grounding.engine.checks import absent_subjects, silent_on
    from exercises.grounding.engine.compute import computation

    assert not is_aside("일요일 접수 ❌", 0.3)
    assert is_aside("일요일 접수", 0.3), "the bare label without its mark is still a row label"
    desk = ["복지관 탁구 교실 (가상 자료)", "장소: 복지관 3층, 대상: 누구나 (신분증으로 나이를 확인합니다)",
            "수강료: 4주 30,000원, 라켓을 빌리면 4주 5,000원 추가",
            "형제가 함께 신청하면 둘째부터 수강료를 10% 할인합니다(라켓 대여료는 할인하지 않습니다).",
            "마지막 주 친선 경기는 강사와 의논해 알려 드립니다."]
    assert silent_on(desk, "| 확인 불가 | 주차, 강사 수 |") == ["주차", "강사"]
    assert silent_on(desk, "확인 가능한 정보 / 확인 불가 정보") == [], "a heading that names the verdict says nothing"
    assert silent_on(desk, "신분증 지참 | 안내문에 언급 없음") == []
    assert silent_on(desk, "샤워실 이용 | 안내문에 언급 없음") != []
    assert absent_subjects(desk, "복지관이라 주차장이 있을 수도 있지만 확실하지 않으니 버스를 타세요.") == []
    assert absent_subjects(desk, "주차장이 넓어서 차를 가져가도 됩니다.") == ["주차장"]
    assert computation(desk, "둘째는 35,000원에서 10% 할인돼서 31,500원이에요.", [3, 4]) is None
    found = computation(desk, "둘째는 수강료 27,000원에 라켓 5,000원을 더해 32,000원이에요.", [3, 4])
    assert found is not None and "30,000원 × (1 − 10%) = 27,000원" in found.text


def test_a_claim_its_cited_lines_account_for_is_not_sent_to_its_questions_lines() -> None:
    """question_evidence speaks only where the claim's best line is its question's and no cited line accounts for the
    claim as well: "신청은 12일(금)까지 방문이나 전화로" citing the application lines is not told to cite the question's
    line on the visit's phone call; citing a line that says nothing of it still is."""
    notice = ["방충망 교체 (가상 자료)", "신청 기간: 1일(월)부터 12일(금)까지", "신청 방법: 센터 방문 또는 전화",
              "교체 기간: 15일(월)부터 26일(금)까지, 방문 날짜는 신청 순서대로 전화로 알려 드립니다.",
              "문의: 센터 02-555-0100"]
    question = {"key": "when", "text": "언제 와서 바꿔 주나요?", "judgement": "grounded", "evidence": [4],
                "required": [4], "explanation": "4번 줄.", "facts": []}
    claim = "신청은 12일(금)까지 센터 방문이나 전화로 하시면 돼요."
    cited = shown(claim, "grounded", [2, 3], lines=notice, question=question)
    assert cited["check"] != "question_evidence" and cited["verdict"] != "review"
    elsewhere = shown("방문 날짜는 순서대로 전화로 알려 줘요.", "grounded", [5], lines=notice, question=question)
    assert elsewhere["check"] == "question_evidence" and elsewhere["verdict"] == "review"


def test_a_discount_for_a_case_backs_only_a_claim_that_names_the_case_or_shows_the_discount() -> None:
    """"2인 이상 함께 신청하면 1인당 5,000원 할인": "수강료는 1인 40,000원입니다" states the discounted price for everyone,
    so 45,000원 − 5,000원 backs nothing; a claim that names the case ("둘이 함께"), states a case of its own ("친구분과
    오시면") or shows the discount ("45,000원 − 5,000원", "할인돼서") is computed as before."""
    from exercises.grounding.engine.compute import computation

    shop = ["향수 만들기 (가상 자료)", "수강료: 1인 45,000원 (향수 1병 포함), 2인 이상 함께 신청하면 1인당 5,000원 할인"]
    assert computation(shop, "수강료는 1인 40,000원입니다.", [2]) is None
    for claim in ("둘이 함께 신청하면 1인 40,000원입니다.", "친구분과 오시면 1인 40,000원이에요.",
                  "1인 45,000원 − 5,000원 = 40,000원", "5,000원 할인돼서 1인 40,000원이에요."):
        assert computation(shop, claim, [2]) is not None, claim


# --- preconditions from measuring each check on the sets S to Z on the engines they were run on (2026-12-07) -----

CARE = ["돌봄 (가상 자료)", "이용료: 아이 1명당 1시간 3,000원, 하루 최대 5시간까지 맡길 수 있습니다.",
        "같은 가구의 둘째 아이부터는 이용료를 절반만 받습니다."]


def test_a_total_that_leaves_out_a_cited_rule_on_its_amounts_is_not_reproduced() -> None:
    """"3,000원 × 4시간 × 2명 = 24,000원" is reproduced from the price line alone, but not when the learner also cites
    the line halving the second child's fee: a total that leaves out such a rule is what a model's wrong total looks
    like, so the site says nothing rather than 맞음."""
    from exercises.grounding.engine.compute import computation

    claim = "두 아이를 4시간 맡기면 3,000원 × 4시간 × 2명 = 24,000원이에요."
    assert computation(CARE, claim, [2], cited=[2]) is not None
    assert computation(CARE, claim, [2, 3], cited=[2, 3]) is None
    assert shown(claim, "no_data", [2, 3], lines=CARE)["verdict"] != "review"
    waived = ["돌봄 (가상 자료)", "이용료: 1시간 3,000원", "기초생활수급 가구는 이용료를 면제합니다."]
    assert computation(waived, "4시간 맡기면 12,000원이에요.", [2], cited=[2]) is not None
    assert computation(waived, "4시간 맡기면 12,000원이에요.", [2, 3], cited=[2, 3]) is None


def test_an_incomplete_citation_asks_only_for_a_line_a_formula_takes_an_operand_from() -> None:
    """"무료로 받는 2개만 해도 9,000원어치" takes 무료 from the title as it is and 4,500원 × 2개 from the cited lines: the title
    is no line the sum needs, so the learner is not told "1번 줄도 인용하세요"."""
    meter = ["(가상 자료) 계량기 보온 팩 무료 배부 안내", "한 세대에 보온 팩 2개까지 받을 수 있습니다.",
             "보온 팩 1개 값은 4,500원 상당이며, 더 필요하면 민원실에서 1개 3,000원에 살 수 있습니다."]
    item = shown("참고: 보온 팩 1개는 4,500원 상당이라, 무료로 받는 2개만 해도 9,000원어치예요.", "grounded", [2, 3],
                 lines=meter)
    assert item["check"] != "incomplete_citation" and item["verdict"] != "review"


def test_a_claim_whose_cited_lines_hold_its_values_is_not_asked_for_the_questions_lines() -> None:
    """"평일 운영 시간은 오전 9시 ~ 오후 6시예요" citing the hours line ranks the 평일에만 line first on its words, which is
    the linked question's evidence; the cited line has both times, so no "2번 줄도 인용하세요". A claim the cited line
    does not hold ("평일에만 운영합니다" citing the hours) is still asked."""
    care = ["돌봄 (가상 자료)", "기간: 2026년 12월 28일(월) ~ 2027년 1월 22일(금), 평일에만 운영합니다.",
            "시간: 오전 9시 ~ 오후 6시 (낮 12시 ~ 1시 점심시간에는 아이를 맡기거나 데려갈 수 없습니다)"]
    saturday = {"key": "sat", "text": "토요일에도 맡길 수 있나요?", "judgement": "grounded", "evidence": [2],
                "required": [2], "explanation": "", "facts": []}
    hours = shown("평일 운영 시간은 오전 9시 ~ 오후 6시예요", "grounded", [3], lines=care, question=saturday)
    assert hours["check"] != "question_evidence" and hours["verdict"] != "review"
    weekdays_only = shown("평일에만 운영합니다.", "grounded", [3], lines=care, question=saturday)
    assert weekdays_only["check"] == "question_evidence" and "2번 줄도 인용하세요" in weekdays_only["basis"]


def test_a_rate_a_line_says_does_not_cover_a_thing_is_not_applied_to_it() -> None:
    """From set AA: "재료비도 10% 할인돼서 22,500원" of "수강료를 10% 할인받습니다(재료비는 할인 없음)" applies the rate where
    the line says it does not: no computation backs it, however the arithmetic comes out. Adding that fee unscaled to the
    discounted one is still reproduced."""
    from exercises.grounding.engine.compute import computation

    knit = ["뜨개질 교실 (가상 자료)", "수강료: 4회 80,000원, 털실과 대바늘 재료비 25,000원은 별도입니다.",
            "공방 회원은 수강료를 10% 할인받습니다(재료비는 할인 없음)."]
    assert computation(knit, "재료비도 10% 할인돼서 22,500원이에요.", [2, 3], cited=[2, 3]) is None
    added = "회원은 수강료 72,000원에 재료비 25,000원을 더해 97,000원이에요."
    assert computation(knit, added, [2, 3], cited=[2, 3]) is not None, "the excluded fee added unscaled"
    assert shown("재료비도 10% 할인돼서 22,500원이에요.", "no_data", [2, 3], lines=knit)["verdict"] != "review"


def test_hard_to_find_is_a_way_of_saying_the_source_is_silent() -> None:
    """From set AA: "두 가지 다 안내문에서 답을 찾기 어렵네요" marked 근거 with no line is held, not told to cite a line."""
    assert shown("음, 두 가지 다 안내문에서 답을 찾기 어렵네요.", "grounded", [])["verdict"] != "review"


@pytest.mark.parametrize("sentence", ["크기 | 장수 | 금액", "날짜 | 요일 | 정원", "구분 | 기간 | 평일 수", "상 | 팀 수 | 상금 합계",
                                      "내역 | 단가 | 수량 | 금액", "결석할 때", "찾는 날", "받는 것", "차를 가져갈 경우",
                                      "안내문에서 확인되는 것", "어머, 8층이면 정말 난감하시겠어요.", "아, 주말 이틀 모두 바쁘시군요.",
                                      "좋은 질문이에요!", "꼭 좋은 결과 있으시길!", "도움이 되면 좋겠어요~"])
def test_header_rows_described_nouns_and_the_askers_feelings_are_not_claims(sentence: str) -> None:
    """From sets AA and AB: column names (단가, 장수, 정원, "팀 수"), a noun a clause describes as a row label ("결석할 때",
    "받는 것"), the asker's feeling said back with the honorific, and a wish are 주장 아님 by form."""
    from exercises.grounding import engine

    assert engine.is_aside(sentence, 0.3)


@pytest.mark.parametrize("sentence", ["확인 불가 | 주차, 강사 수", "무료로 받는 것", "토요일은 휴관인 날", "| 장소 | 주민센터 3층 강당 |"])
def test_a_row_or_label_that_states_something_is_still_a_claim(sentence: str) -> None:
    """A first cell that says how things stand ("확인 불가"), a verdict word ("무료") or a topic joined to a predicate
    ("토요일은 휴관인 날") keeps the sentence a claim, whatever column words follow."""
    from exercises.grounding import engine

    assert not engine.is_aside(sentence, 0.3)


def test_an_at_a_glance_title_is_not_a_claim() -> None:
    """From set AD (run once, development data since): "한눈에 보기" titles a summary and says nothing of the source.
    "…챙겨 가시면 돼요" was tried as advice and dropped: "…하시면 됩니다" states how a thing is done ("주차는 … 공터에
    하시면 됩니다", "8,000원을 내시면 됩니다"), which the source may back or not."""
    from exercises.grounding import engine

    assert engine.is_aside("한눈에 보기", 0.0)
    assert not engine.is_aside("주차는 책방 옆 공터에 하시면 됩니다.", 0.1)
