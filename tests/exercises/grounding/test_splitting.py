"""Splitting a pasted answer: citations stay with their sentence, emphasis goes, 고-nouns and 빼고 do not cut."""

from __future__ import annotations

from exercises.grounding.engine import claim_text, split_claims


def texts(answer: str) -> list[str]:
    return [claim.text for claim in split_claims(answer)]


def test_a_trailing_citation_stays_with_its_sentence() -> None:
    """"…엽니다. (2)" keeps the model's own citation; "(2, 3)" and "[4]" too."""
    assert texts("토요일은 18시까지 엽니다. (2)\n주차는 안 됩니다. (2, 3) 참가비는 무료입니다. [8]") == [
        "토요일은 18시까지 엽니다. (2)", "주차는 안 됩니다. (2, 3)", "참가비는 무료입니다. [8]"]


def test_markdown_emphasis_is_stripped_from_claim_text_but_offsets_stay_on_the_paste() -> None:
    """**bold** and *em* leave the claim's text; its span still points into the pasted answer."""
    answer = "- **토요일**은 *18시*까지 엽니다.\n2 * 3 = 6 입니다."
    claims = split_claims(answer)
    assert [c.text for c in claims] == ["토요일은 18시까지 엽니다.", "2 * 3 = 6 입니다."]
    assert answer[claims[0].start:claims[0].end] == "**토요일**은 *18시*까지 엽니다."
    assert claim_text(answer, claims[0].start, claims[0].end) == claims[0].text


def test_nouns_ending_in_go_and_except_words_do_not_split() -> None:
    """냉장고, 창고, 광고 are nouns; 빼고, 떼고, 끝나고 do not start a second claim."""
    assert texts("음료는 냉장고 안에 보관합니다.") == ["음료는 냉장고 안에 보관합니다."]
    assert texts("창고 정리로 하루 쉽니다.") == ["창고 정리로 하루 쉽니다."]
    assert texts("주말 빼고 매일 엽니다.") == ["주말 빼고 매일 엽니다."]
    assert texts("포장을 떼고 반납하면 됩니다.") == ["포장을 떼고 반납하면 됩니다."]
    assert texts("수업이 끝나고 10분 뒤에 문을 닫습니다.") == ["수업이 끝나고 10분 뒤에 문을 닫습니다."]
    assert texts("책방은 11시에 열고 18시에 닫습니다.") == ["책방은 11시에 열고", "18시에 닫습니다."]


def test_quotes_table_headers_and_sign_offs_are_not_claims() -> None:
    """"> " is dropped like a bullet, a table's header row is not a claim, "더 궁금한 점이 있으면 …" is a sign-off."""
    answer = ("> 참고: 일정은 바뀔 수 있습니다.\n| 항목 | 내용 |\n|---|---|\n| 참가비 | 무료 |\n"
              "혹시 더 궁금한 점이 있으면 말씀해 주세요.\n문의는 안내 데스크로 해 주세요.")
    assert texts(answer) == ["참고: 일정은 바뀔 수 있습니다.", "| 참가비 | 무료 |", "문의는 안내 데스크로 해 주세요."]


def test_a_clause_that_only_states_the_other_side_stays_with_the_one_before() -> None:
    """"…토요일에만 열리고 다른 요일에는 열지 않아요" is one claim (the second clause points back and denies);
    "…10시에 열고 토요일은 쉽니다" is two."""
    assert texts("시장은 토요일에만 열리고 다른 요일에는 열지 않아요.") == [
        "시장은 토요일에만 열리고 다른 요일에는 열지 않아요."]
    assert texts("샤워실은 20분 동안 쓸 수 있고 그 뒤에는 쓸 수 없습니다.") == [
        "샤워실은 20분 동안 쓸 수 있고 그 뒤에는 쓸 수 없습니다."]
    assert texts("평일에는 10시에 열고 토요일은 쉽니다.") == ["평일에는 10시에 열고", "토요일은 쉽니다."]
    assert texts("오전에 열고 그 뒤에는 상담을 받습니다.") == ["오전에 열고", "그 뒤에는 상담을 받습니다."]


def test_a_bracketed_line_citation_and_a_wishing_sign_off() -> None:
    """"… 취소됩니다. [10번 줄]" keeps its citation; "즐거운 장보기 되세요" is a sign-off, not a claim."""
    assert texts("15분 넘게 늦으면 예약이 취소됩니다. [10번 줄]\n즐거운 장보기 되세요!") == [
        "15분 넘게 늦으면 예약이 취소됩니다. [10번 줄]"]


def test_a_table_row_is_one_claim_even_with_a_linking_ending_in_a_cell() -> None:
    """"30일이 지나고 열흘 더 두면" inside a row is one statement of that row; a sentence still splits at 고."""
    answer = ("| 항목 | 내용 |\n|---|---|\n| 장기 보관료 | 30일이 지나고 열흘 더 두면 5,000원 |\n\n"
              "보관은 30일까지 무료이고 그 뒤에는 열흘마다 5,000원입니다.")
    assert texts(answer) == ["| 장기 보관료 | 30일이 지나고 열흘 더 두면 5,000원 |",
                             "보관은 30일까지 무료이고", "그 뒤에는 열흘마다 5,000원입니다."]


def test_an_emoji_before_a_space_ends_a_sentence_so_a_greeting_does_not_swallow_a_claim() -> None:
    """"…문의 주셨네요 💉 독감 접종은 …" is a greeting, then a claim; the emoji after a claim stays with it."""
    answer = "안녕하세요, 접종 문의 주셨네요 💉 독감 접종은 3일부터 받을 수 있어요! 비용은 25,000원입니다 😊 참고로 65세 이상은 무료예요."
    assert texts(answer) == ["독감 접종은 3일부터 받을 수 있어요!", "비용은 25,000원입니다 😊", "참고로 65세 이상은 무료예요."]


def test_a_tilde_or_a_jamo_emoticon_after_a_final_ending_ends_a_chat_sentence() -> None:
    """"…안 돼요ㅠ 근데 …", "…거예요 ㅠ 결항되면 …" and "…있어요~ 보통 …" are two sentences each; a tilde between
    values ("9시~ 18시") is no end."""
    assert texts("강아지 동반은 아직 안 돼요ㅠ 근데 1월부터 허용된대요") == ["강아지 동반은 아직 안 돼요ㅠ", "근데 1월부터 허용된대요"]
    assert texts("내일은 결항일 거예요 ㅠ 결항되면 표값은 전액 환불돼요") == ["내일은 결항일 거예요 ㅠ", "결항되면 표값은 전액 환불돼요"]
    assert texts("주차 요금은 안 나와 있어요~ 토요일엔 쉬어요.") == ["주차 요금은 안 나와 있어요~", "토요일엔 쉬어요."]
    assert texts("운영 시간은 9시~ 18시입니다.") == ["운영 시간은 9시~ 18시입니다."]


def test_the_askers_question_said_back_is_not_a_claim() -> None:
    """"…얼마인지 물어보셨어요." and "…궁금하시군요" answer nothing."""
    assert texts("독감 접종 비용이 얼마인지 물어보셨어요. 성인은 25,000원입니다. 주차가 되는지 궁금하시군요.") == [
        "성인은 25,000원입니다."]


def test_a_leader_of_dots_is_no_full_stop_and_a_trailing_emoji_stays_with_its_sentence() -> None:
    """"1일권(주말) ........ 27,000원" is one line of a receipt, not two sentences; "…좋을 것 같아요! 😊" keeps its emoji
    (the claim the learner sees is the sentence as pasted); an ellipsis still ends a sentence."""
    assert texts("- 1일권(주말) ........ 27,000원\n- 총 37,000원") == ["1일권(주말) ........ 27,000원", "총 37,000원"]
    assert texts("미리 충전해 가시면 좋을 것 같아요! 😊\n요금은 2만 원입니다.") == [
        "미리 충전해 가시면 좋을 것 같아요! 😊", "요금은 2만 원입니다."]
    assert texts("잘 모르겠어요... 요금은 2만 원입니다.") == ["잘 모르겠어요...", "요금은 2만 원입니다."]


def test_a_bulleted_item_is_cut_at_its_linking_endings_like_prose() -> None:
    """A bullet's clauses are claims of their own, as in prose: the course's sample answers cite each clause
    ("- 작은방은 … 5,000원이고 (4), 주말에는 … 7,500원입니다 (6)."), and a learner marks each fact. (Several
    data writers keep a bullet whole; that is their convention, not the site's.)"""
    assert texts("- 주민 20명이 우선이고, 다른 동은 4명까지 받습니다. 접수는 방문만 돼요.") == [
        "주민 20명이 우선이고", "다른 동은 4명까지 받습니다.", "접수는 방문만 돼요."]


def test_a_bare_predicate_after_a_linking_ending_stays_with_its_clause() -> None:
    """"안전모는 꼭 쓰고 타세요" has no second claim: "타세요" alone says nothing."""
    assert texts("안전모는 대여소에서 빌려서 꼭 쓰고 타세요!") == ["안전모는 대여소에서 빌려서 꼭 쓰고 타세요!"]


def test_several_citations_stay_with_their_sentence_and_nouns_in_nde_do_not_cut() -> None:
    """"…끝납니다. (3)(5)" keeps both citations; "이 가운데 …" is no clause ending in -ㄴ데; the polite "…인데요," with its
    comma links two claims; "더 내고 할 수 있습니다" has no second claim."""
    assert texts("오후 2시 30분쯤 끝납니다. (3)(5) 주차는 안 돼요.") == ["오후 2시 30분쯤 끝납니다. (3)(5)", "주차는 안 돼요."]
    assert texts("- 이 가운데 20일과 21일은 쉽니다. (2)") == ["이 가운데 20일과 21일은 쉽니다. (2)"]
    assert texts("2권이면 18,000원인데요, 3권 이상이면 10% 할인돼요.") == ["2권이면 18,000원인데요", "3권 이상이면 10% 할인돼요."]
    assert texts("세척은 원하면 1대당 20,000원을 더 내고 할 수 있습니다. (9)") == [
        "세척은 원하면 1대당 20,000원을 더 내고 할 수 있습니다. (9)"]


def test_who_the_asker_is_and_a_question_received_are_not_claims() -> None:
    """"안녕하세요, 솔내동 주민이시군요!" and "질문 잘 받았어요." say nothing of the source; "담당은 원장님이 직접
    가르치시네요" does."""
    from exercises.grounding.engine.claims import aside_by_form

    assert aside_by_form("안녕하세요, 솔내동 주민이시군요!")
    assert aside_by_form("안녕하세요~ 질문 잘 받았어요.")
    assert not aside_by_form("담당은 원장님이 직접 가르치시네요.")


def test_a_greeting_and_the_remark_after_it_are_one_opener_and_no_claim() -> None:
    """"안녕하세요! 참기름 짜러 가시는군요." opens the answer: neither part is a claim to mark. A claim after a greeting
    ("안녕하세요! 토요일은 쉽니다.") stays, and so does a remark on a line of its own."""
    assert texts("안녕하세요! 참기름 짜러 가시는군요. 참깨 3되면 27,000원이에요.") == ["참깨 3되면 27,000원이에요."]
    assert texts("안녕하세요! 토요일은 쉽니다.") == ["토요일은 쉽니다."]


def test_underscore_emphasis_a_noun_after_go_and_the_polite_goyo_split_as_they_read() -> None:
    """"_…_" is emphasis like "*…*" (snake_case is not); "48,000원이고, 보드 대여료는" is two clauses (보드 is a noun, not
    the auxiliary 보다, which keeps "듣고 보니" one); "70,000원이고요, 둘째는" is -고 in its polite form."""
    from exercises.grounding.engine.claims import strip_markdown

    assert texts("_수업은 오후 5시 50분에 끝납니다._") == ["수업은 오후 5시 50분에 끝납니다."]
    assert strip_markdown("print(snake_case) 와 a_b") == "print(snake_case) 와 a_b"
    assert texts("둘째는 48,000원이고, 보드 대여료 10,000원은 할인되지 않아요.") == [
        "둘째는 48,000원이고", "보드 대여료 10,000원은 할인되지 않아요."]
    assert texts("첫째는 70,000원이고요, 둘째는 58,000원이에요.") == ["첫째는 70,000원이고요", "둘째는 58,000원이에요."]
    assert texts("수업을 직접 듣고 보니 참 좋았어요.") == ["수업을 직접 듣고 보니 참 좋았어요."]
    assert texts("신청을 지금 받고 있습니다.") == ["신청을 지금 받고 있습니다."]


def test_a_bold_line_that_states_something_and_a_contact_with_its_number_are_claims() -> None:
    """A line all in bold is a heading ("**확인 결과**") unless it states a figure or a predicate: "**두 아이 총
    126,000원**" is the answer's conclusion, to be marked. "궁금한 점은 자료운영팀(02-555-0173)에 문의하세요" gives the
    source's contact line; without a number it is a sign-off."""
    assert texts("**확인 결과**\n\n**두 아이 총 126,000원**") == ["두 아이 총 126,000원"]
    assert texts("**정리하면 30,000원만 내시면 됩니다.**") == ["정리하면 30,000원만 내시면 됩니다."]
    assert texts("궁금한 점은 자료운영팀(02-555-0173)에 문의하세요.") == ["궁금한 점은 자료운영팀(02-555-0173)에 문의하세요."]
    assert texts("궁금한 점 있으면 또 물어보세요.") == []
