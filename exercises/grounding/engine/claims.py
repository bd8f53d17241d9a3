"""Splitting a pasted answer into claims, keeping exact character offsets.

Sentences end at . ? ! 。 and at line breaks; list bullets (-, •, 1.) are not part
of a claim. A sentence is split again where a clause ends in a linking ending
(…며, …고, …지만, …는데) or at ";", because each clause can be true or false on
its own. A piece shorter than three letters is never produced: a split that
would leave one is not made, and such a sentence ("네.") is dropped.

What is not a claim is left out: greetings and sign-offs (안녕하세요, 도움이 되셨길
바랍니다), questions (a sentence ending in "?", a "Q." line) and headings (a line
ending in ":" or set in Markdown "#"/"**"). "…까지만" is a particle, not -지만.
"""

from __future__ import annotations

import re

from .hangul import final_of, normalise
from .lexicon import PROTECTED
from .values import extract_values

_FINAL_N = 4
_BULLET = re.compile(r"(?:>\s*)?(?:[-*–—]\s+|[•·▪◦‣●○■□►▶✅✔️☑️]\s*|\d{1,2}[.)]\s+|\(\d{1,2}\)\s*|[①-⑳]\s*)?")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
# A sentence ends at its punctuation, or at an emoji before a space: chat answers write
# "문의 주셨네요 🚲 20일부터 탈 수 있어요" with the emoji as the full stop.
_EMOJI = "\u2600-\u27bf\U0001f300-\U0001faff"
# So do a final ending's tilde ("안 나와 있어요~ 보통은…") and a chat emoticon in jamo ("안 돼요ㅠ 근데…",
# "아마 결항일 거예요 ㅠ 결항되면…"); a tilde between values ("9시~18시") has no final ending before it.
_CHAT_END = r"(?<=[요다죠네음])~+|(?<=[가-힣])\s*[ㅠㅜㅋㅎ]+"
# A run of four or more dots with more on its line is a leader ("1일권(주말) ........ 27,000원"), not a full stop.
_SENTENCE_END = re.compile(rf"(?:(?<!\.)(?!\.{{4,}}[ \t]*[^\s.])[.?!。…]+[\"'”’)\]」』]*|(?<=\S)\s*[{_EMOJI}][{_EMOJI}\ufe0f\u200d]*|{_CHAT_END})(?=\s|$)")
_TRAILING_EMOJI = re.compile(rf"[ \t]*[{_EMOJI}][{_EMOJI}\ufe0f\u200d]*(?=\s|$)")
_TOKEN = re.compile(r"\S+")
_LETTER = re.compile(r"[0-9A-Za-z가-힣]")
_MIN_LETTERS = 3
_NOT_CLAUSE_GO = ("라고", "다고", "냐고", "자고", "그리고", "가지고", "데리고", "모시고", "말고", "통하고",
                  # "except" and "after": 주말 빼고, 포장 떼고, 수업이 끝나고 10분 뒤 (not a second claim)
                  "빼고", "떼고", "끝나고", "제외하고", "비롯하고")
# Nouns that end in 고 (냉장고, 창고, 광고 …), by their last two syllables: not the ending -고.
_GO_NOUNS = ("장고", "동고", "창고", "광고", "금고", "차고", "재고", "서고", "입고", "출고", "잔고", "원고",
             "공고", "예고", "경고", "신고", "보고", "참고", "최고", "사고", "수고", "선고", "보관고", "저장고")
# The auxiliary verbs a -고 leads into ("받고 있어요", "타고 싶다면", "해 보고 말았다", "먹고 보니"): one predicate. By the
# verb's own forms, so a noun that begins alike ("보드 대여료", "말씀") starts a clause of its own.
_AUXILIARY_AFTER_GO = re.compile(r"(?:있|싶|계시|계십|나서|나면|난(?![가-힣])"
                                 r"|말(?:았|고|지|자|게|아|까|면|기)|보(?:[다아니면세시았고기는지자게려며셔십]|$)|봐|봤|봅|[본볼](?![가-힣]))")
# A model's citation after a word or sentence, one or several in a row ("(3)(5)", "[2][4]").
_CITATION_AFTER = re.compile(r"(?:\s*(?:\(\s*\d{1,3}(?:\s*(?:[,~-]|번|줄)\s*\d{0,3})*\s*(?:번\s*줄|줄)?\s*\)"
                             r"|\[\s*\d{1,3}(?:\s*(?:[,~-]|번|줄)\s*\d{0,3})*\s*(?:번\s*줄|줄)?\s*\]))+")
# Nouns that end in ㄴ데 (가운데, 몇 군데): not the ending -ㄴ데.
_DE_NOUNS = ("가운데", "군데")
# What follows -고 and says nothing without it: "더 내고 할 수 있습니다" is one claim, not two.
_BARE_PREDICATE = re.compile(r"\s*[가-힣]{1,2}\s+수\s+(?:있|없)")
_CONJUNCTIONS = frozenset({"하지만", "그렇지만", "그런데", "그리고", "그러나", "그러며", "또한"})
_NOT_JIMAN = ("까지만", "에게만", "한테만", "에서만")  # a particle followed by 만, not the ending -지만
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*:?\s*$|\[[^\]]+\]\s*$|[^.?!。]{1,40}:\s*$)")
_QUESTION_LINE = re.compile(r"^\s*(?:Q\s*[.:)]|질문\s*[.:)]|문\s*[.:)])", re.IGNORECASE)
_GREETING = re.compile(
    r"^\s*(?:(?:혹시|또|더|추가로|그\s*밖에|그\s*외에)\s*)*(?:궁금하신|궁금한\s*(?:게|것이|사항이|점이)|문의\s*사항이)[^\n]*(?:주세요|바랍니다|물어보세요|하세요)[.!]?\s*$"
    r"|^\s*(?:안녕하세요|반갑습니다|감사합니다|고맙습니다|좋은 질문|도움이 되(?:셨|었)|도움이 필요|더 궁금|궁금한 점|"
    r"추가로 궁금|문의 주셔서|질문 주셔서|다음과 같이 정리|아래와 같이 정리|정리해 드리겠|답변드리겠|알려 드리겠|"
    r"말씀드리겠)[^\n]*$")
_MARKDOWN_HEADING = re.compile(r"#{1,6}\s")  # a Markdown heading ("### 세차 가능 여부")
# A line all in bold that states something, a figure or a predicate ("**두 아이 총 126,000원**", "**정리하면 30,000원만 내시면
# 됩니다.**"): the answer's conclusion, not a heading ("**확인 결과**").
_BOLD_STATEMENT = re.compile(r"^\s*\*\*(?=[^*]*(?:\d|(?:다|요|죠)[.!]?\*\*))[^*]+\*\*\s*$")
_SIGNPOST = re.compile(r"(?:정리해|알려|안내해|설명해|말씀|답변)\s*드리겠습니다[.!]?$|(?:이)?[라다]니\s*(?:정말\s*|너무\s*|참\s*)?(?:멋지|멋져|좋|설레|부럽|재밌|재미있|즐겁|기대되|대단하|다행|뜻깊)[가-힣]*(?:네요|군요|요)[^가-힣0-9]*$|되(?:셨|었)(?:길|으면)\s*(?:바랍니다|좋겠습니다)[.!]?$"
                       r"|(?:즐거운|좋은|행복한|편안한|건강한|알찬)\s*[가-힣 ]{0,12}(?:되세요|보내세요|하세요)[.!~]*$"
                       # the asker's question said back ("…얼마를 내는지 물어보셨어요", "…궁금하시군요"): it answers nothing
                       r"|(?:물어보셨|물으셨|문의하셨|궁금하시)(?:어요|군요|네요|지요|죠|습니다|는데)?[.!~]*$"
                       # the answer announcing its own form ("표로 정리했어요", "기준으로 정리해 드릴게요")
                       r"|(?:정리|요약)(?:해\s*)?(?:드릴게요|드려요|드립니다|했어요|했습니다|해\s*봤어요|해\s*드렸어요)[.!~:]*$"
                       r"|표로\s*(?:보면|정리하면)\s*[가-힣]*[.!~:]*$"
                       # "요금 알려 드릴게요", "대비책은 다음과 같아요", "확인할 수 있는 내용은 이 정도예요"
                       r"|(?:알려|안내해|설명해|말씀)\s*드릴게요[.!~:]*$|다음과\s*같(?:아요|습니다)[.!~:]*$"
                       r"|(?:내용|정보)은\s*이\s*정도(?:예요|입니다|네요)[.!~]*$")
# The answer saying what it is about to do or has done ("네, 계산해 볼게요!", "계산해 봤어요.", "정리해 드리면요,",
# "정리하면 아래와 같습니다", "답변드릴게요", "일정 알려 드릴게요 😊"): no figure in it, so it states nothing.
_META = re.compile(r"(?:계산|정리|요약|비교|확인|답변|알려|안내|설명|하나씩)\s*(?:해|하여|해서)?\s*(?:드릴게요|드릴께요|볼게요|볼께요"
                   r"|봤어요|봤습니다|드렸어요|드렸습니다|드리면요|드리면|드려요|드릴까요)[^가-힣0-9]*$"
                   r"|(?:정리|요약|계산)하면\s*(?:아래|다음)(?:와|과)\s*같(?:아요|습니다)[^가-힣0-9]*$"
                   r"|(?:알려|안내해|설명해|말씀)\s*드릴게요[^가-힣0-9]*$")
# A remark on the asker's own situation ("걱정이 많으시겠어요", "바쁘시죠!", "주민이시라니 다행이네요!", "입학 축하드려요!",
# "화이팅!"): about the person asking, never the source; only without a figure or a reason that could carry a fact
# ("한 병씩 주니까 두 병 받아 오시겠네요" states what is given).
_ABOUT_ASKER = re.compile(r"(?:(?:시|으시)겠(?:어요|네요|습니다)|(?<![가-힣])[가-힣]*(?:쁘|프|드|많으|힘드)시죠"
                          r"|이시라니\s*[가-힣]+(?:네요|에요|예요|요)|(?:축하|응원)(?:드려요|드립니다|해요|합니다)"
                          r"|[화파]이팅(?:이에요|입니다|이요)?|힘내세요|뜻깊겠(?:어요|네요)|다행이(?:네요|에요|예요)"
                          r"|응원(?:할게요|해요|합니다|드려요|드릴게요)|반가워요|반갑네요|멋져요|멋지네요|좋은\s*(?:생각|선택)이(?:에요|네요)"
                          r"|감사(?:해요|합니다|드려요)|도움이\s*(?:됐|되었|되)(?:으면|길)\s*(?:해요|좋겠어요|합니다|바라요)"
                          r"|(?:하|되)시네요)[^가-힣0-9]*$")
# A clause after a linking ending that only states the other side of the one before it ("토요일에만 열고 / 다른
# 요일에는 열지 않아요", "20분 동안 쓸 수 있고 / 그 뒤에는 쓸 수 없습니다"): it points back and denies, so the
# sentence stays one claim, checked as one.
_POINTS_BACK = re.compile(r"^(?:그\s*(?:뒤|후|전|동안|날|때|밖|외)|그동안|그날|그때|그전|그외|다른\s|나머지|따로)")
_DENIES = re.compile(r"(?:않|없|못|안\s)")


def letters(text: str) -> int:
    return len(_LETTER.findall(text))


def _links(word: str, following: str) -> bool:
    """Whether ``word`` ends a clause with a linking ending (영업하고, 있으며, 무료지만, 있는데)."""
    comma = word.endswith(",")
    word = word.rstrip(",;:")
    if len(word) < 2 or not ("가" <= word[-1] <= "힣") or word in _CONJUNCTIONS:
        return False
    if word.endswith("지만") and not word.endswith(_NOT_JIMAN):
        return True
    if word.endswith("며"):
        return True
    if word.endswith("데") and not word.endswith(_DE_NOUNS) and (
            word.endswith(("는데", "은데", "인데")) or final_of(word[-2]) == _FINAL_N):
        return True
    if comma and word.endswith("데요") and (word.endswith(("는데요", "은데요", "인데요")) or final_of(word[-3]) == _FINAL_N):
        return True  # "27,000원인데요, 3되 이상이라…": the polite form, where a comma shows the sentence goes on
    if comma and word.endswith("고요") and not word[:-1].endswith(_NOT_CLAUSE_GO):
        return True  # "70,000원이고요, 둘째는 …": the polite form of -고, where a comma shows the sentence goes on
    if word.endswith("고"):
        if word in PROTECTED or word.endswith(_NOT_CLAUSE_GO) or word.endswith(_GO_NOUNS):
            return False
        return not _AUXILIARY_AFTER_GO.match(following)
    return False


def linked_clauses(text: str) -> list[str]:
    """``text`` cut at every linking ending (…고, …며, …지만, …는데), whatever the clauses say."""
    tokens = text.split()
    clauses, current = [], []
    for index, token in enumerate(tokens):
        current.append(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if following and index > 0 and _links(token, following):
            clauses.append(" ".join(current))
            current = []
    return [*clauses, " ".join(current)] if current else clauses


def _restates_other_side(text: str, cut: int, end: int) -> bool:
    rest = text[cut:end].strip()
    return bool(_POINTS_BACK.match(rest)) and bool(_DENIES.search(rest))


def _trim(text: str, start: int, end: int, strip_tail: str) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ";,:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in strip_tail):
        end -= 1
    return start, end


def clause_spans(text: str, start: int, end: int, *, commas: bool = False) -> list[tuple[int, int]]:
    """Clauses of ``text[start:end]``; with ``commas`` also split at ", " between two multi-word parts."""
    pieces: list[tuple[int, int]] = []
    cuts: list[int] = []
    tokens = [(m.start() + start, m.end() + start, m.group()) for m in _TOKEN.finditer(text[start:end])]
    for index, (_, token_end, token) in enumerate(tokens[:-1]):
        following = tokens[index + 1][2]
        linking = index > 0 and _links(token, following) and not _restates_other_side(text, token_end, end)
        comma = commas and token.endswith(",") and index >= 1 and len(tokens) - index - 1 >= 2
        if linking or comma:
            citation = _CITATION_AFTER.match(text, token_end, end)  # "받지만 (6), 참가는": (6) stays behind
            cuts.append(citation.end() if citation else token_end)
    cuts.extend(start + m.end() for m in re.finditer(";", text[start:end]))  # list separator
    cuts = sorted({cut for cut in cuts if start < cut < end})
    begin = start
    for cut in [*cuts, end]:
        piece = _trim(text, begin, cut, ",;:")
        if cut != end and (letters(text[piece[0]:piece[1]]) < _MIN_LETTERS
                           or letters(text[cut:end]) < _MIN_LETTERS or len(text[cut:end].split()) < 2
                           or _BARE_PREDICATE.match(text, cut, end)):
            continue  # too short on one side, or a bare predicate after it ("꼭 쓰고 타세요"): one clause
        if cut == end:
            piece = _trim(text, begin, cut, ",;:" if not _SENTENCE_END.search(text[begin:cut]) else "")
        if piece[0] < piece[1]:
            pieces.append(piece)
        begin = cut
    return pieces


def not_a_claim(sentence: str) -> bool:
    """A greeting, a question or a heading: nothing there can be true or false of the source."""
    stripped = sentence.strip()
    # "궁금한 점은 자료운영팀(02-555-0173)에 문의하세요" gives the source's contact line: a claim, not a sign-off
    return bool(_asks(stripped) or (_GREETING.match(stripped) and not _CONTACT_FIGURE.search(stripped))
                or _SIGNPOST.search(stripped) or _MARKDOWN_HEADING.match(stripped))


_CONTACT_FIGURE = re.compile(r"\d{2,4}-\d{3,4}-\d{4}")


def _asks(sentence: str) -> bool:
    """A question, which asserts nothing; not a tag question that states a figure ("하루 600포기씩이니 꽤 많죠?")."""
    return sentence.endswith(("?", "？")) and not (re.search(r"\d", sentence) and _TAG_QUESTION.search(sentence))


# What a table's header row names its columns with: labels, never values or predicates.
_COLUMN_LABELS = ("구분", "항목", "내용", "금액", "요금", "가격", "비용", "시간", "시각", "요일", "날짜", "기간", "조건",
                  "안내", "계산", "근거", "비고", "수량", "품목", "대상", "합계", "방법", "오전", "오후", "값", "줄",
                  "번호", "장소", "일정", "여부", "판단", "이유", "출처", "요약", "설명", "종류", "횟수", "인원", "메모",
                  "참고", "정보", "주장", "질문", "답", "답변", "확인", "상태", "결과", "과목", "프로그램", "코스",
                  # fees by name, and totals: "| 구분 | 참가비 |", "원래 금액 / 적용 금액 / 소계"
                  "참가비", "재료비", "교육비", "수강료", "이용료", "관람료", "대여료", "입장료", "정가", "소계", "총액", "기준",
                  "안내문", "원문",
                  # generic column words: "| 내역 | 단가 | 수량 | 금액 |", "| 크기 | 장수 | 금액 |", "| 상 | 팀 수 | 상금 합계 |"
                  "단가", "크기", "장수", "개수", "정원", "시점", "내역", " 수")
_TABLE_CELLS = re.compile(r"^\|(.+)\|$")
# The asker's plan or feeling said back ("18일 방문 계획이시군요!", "아이가 접종을 앞두고 있군요."): it is about the
# person asking, never about the source.
_ASKER_SAID_BACK = re.compile(
    r"(?:(?:계획|예정)이(?:시)?(?:군요|네요|시죠|죠)"
    # the asker's own plan, with the honorific only a person takes: "4명이서 방탈출 가시는군요", "처음 도전하시는군요"
    r"|[가-힣](?:시|으시)(?:는|려는)군요"
    # the asker's own step, done ("예약하셨군요, 잘하셨어요"): about the person asking
    r"|[가-힣]셨(?:군요|네요)(?:[,.!~\s]*잘\s*하셨(?:어요|네요|습니다))?"
    r"|(?:여쭤|여쭈|물어|물으|문의|궁금|걱정|고민)[가-힣]*(?:시|셨)[가-힣]*(?:군요|네요|죠|지요)"
    r"|(?:문의|질문)\s*주셨(?:군요|네요|어요|습니다)|질문\s*(?:잘\s*)?받았(?:어요|습니다)"
    # who the asker is, said back with the honorific copula: "솔내동 주민이시군요", "처음이시군요"
    r"|[가-힣]이시군요"
    r"|(?:말씀|얘기|질문)이(?:시|신)?(?:죠|군요|네요|지요)|좋은\s*질문이(?:에요|네요|세요|십니다)"
    # the asker's feeling, with the honorific: "8층이면 정말 난감하시겠어요", "주말 이틀 모두 바쁘시군요"
    r"|(?:난감하|불편하|답답하|속상하|서운하|피곤하|힘드|바쁘|아쉬우|당황스러우)(?:시|셨)[가-힣]*(?:요|군요|죠)"
    r"|(?:앞두|계획하|준비하|기다리|알아보|찾으)[가-힣]*\s*(?:있|계시)(?:군요|네요|으시군요|는군요))"
    r"[^가-힣0-9]*$")
# A wish to the reader ("즐겁게 배우시길 바랄게요!", "좋은 하루 보내세요~"): a sign-off, unless it restates a line.
_WISH = re.compile(r"(?:(?:길|기를)\s*바(?:라요|랄게요|랍니다|래요)|(?:되|보내)세요|(?:있으시|되시|하시)길"
                   r"|(?:되면|됐으면|되었으면)\s*좋겠(?:어요|습니다|네요))[^가-힣0-9]*$")
# So is a reaction to the asker's plan ("아이가 정말 좋아하겠네요!", "자전거 타기 좋은 계절이네요 🚲") and a wish of
# manner ("재밌게 탈출하세요!", "예쁘게 자르고 오세요~"), as long as no figure or reason rides on it: "12일부터 열린다고
# 하니 다음에 해 보셔도 좋겠네요" states the opening.
_REACTION = re.compile(r"(?:(?:좋|좋아하|좋아하시|반갑|설레|멋지|부럽|신나|재밌|재미있|즐겁)(?:겠)?네요|좋은\s*[가-힣]+(?:이)?네요"
                       r"|(?<![가-힣])(?:재밌|재미있|즐겁|맛있|예쁘|신나|건강하|안전하)게\s[가-힣 ]*세요"
                       # "면접 잘 보세요!", "새 많이 보고 오세요!", "좋은 향 만드세요~", "건강하게 즐기세요"
                       r"|(?<![가-힣])(?:잘|많이)\s[가-힣 ]*세요|(?<![가-힣])좋은\s[가-힣]+\s[가-힣]*세요|즐기세요)[^가-힣0-9]*$")
# The endings that give a reason ("…되니", "…라서", "…지만"): a sentence with one states a fact of its own.
_REASON_ENDINGS = "니까|니|으니|므로|라서|어서|아서|해서|는데|지만"
_REASON = re.compile(rf"[가-힣](?:{_REASON_ENDINGS})\s|다고\s*하")
_TAG_QUESTION = re.compile(r"(?:죠|지요|잖아요|잖아|거든요)\s*[?？]+[^가-힣0-9]*$")
_PREDICATE_END = re.compile(r"(?:다|요|죠)[^가-힣0-9]*$")


# Words that end a title rather than a statement ("참가비 안내", "예약 방법", "점심 제공 여부", "방문 전 체크리스트").
_TITLE_WORDS = ("안내", "요약", "방법", "정보", "여부", "계산", "정리", "관련", "참고", "주의", "체크리스트", "목록", "사항",
                "요령", "일정표", "요금표", "규정", "과정", "시간표", "비교", "내역", "보기")


def _is_label(sentence: str) -> bool:
    """A short title line with no predicate: a plain-text heading ("참가비 안내", "3인 요금 계산"); a column
    label such as "요금" ends one only without figures ("참고 요금"), since "성인 2만 원 요금" may be a row."""
    words = sentence.rstrip(":： ").split()
    if not 1 <= len(words) <= 4 or _PREDICATE_END.search(sentence) or "|" in sentence or _value_cell(words[-1]):
        return False  # a row ("요일 | 토요일") is the header check's; "추첨일 요일 / 월요일" ends in a value, not a title word
    if _described_noun(" ".join(words), words):
        return True
    if any(word.endswith(("은", "는", "을", "를", "로", "에서", "까지", "부터")) for word in words[:-1]):
        return False  # "결과는 문자로 안내": a terse statement with its topic and means, not a title
    if words[-1].endswith(_TITLE_WORDS):
        return True
    if _bare_topic(" ".join(words), words):
        return True
    return not re.search(r"\d", sentence) and words[-1].endswith(_COLUMN_LABELS) and len(words) >= 2


# What makes a short fragment a statement after all: a verdict word (무료, 휴관, 미정, 불가, 필수) or mark ("토요일 접수
# ❌", "주차 ⭕") or a particle or ending that joins it to a predicate left out ("입장은 무료지만", "토요일은 오전만").
_STATES = re.compile(r"무료|유료|미정|휴관|휴무|휴진|휴업|휴장|불가|가능|필수|금지|없|있|마감|제공|포함|별도|할인|완료"
                     r"|[❌✅⭕✔✖✕⛔🚫○×]"
                     r"|(?<![가-힣])(?:안|못)(?![가-힣])|만$")
_JOINED = ("은", "는", "을", "를", "와", "과", "이고", "이며", "고", "며", "지만", "에서", "으로", "로", "에", "도", "할", "한",
           "된", "될", "인")


def _bare_topic(sentence: str, words: list[str]) -> bool:
    """A bare topic of one to three words standing alone, as a list's or table's row label ("참가비", "청력 검사",
    "비가 올 때", "두루미 먹이 주기"): no figure, no punctuation that ends or splits a statement ("주제: 천체망원경
    관찰"), no verdict word and nothing joining it to a predicate. On the development sets: 79 of 79 such fragments
    not already read as asides were labelled 주장 아님."""
    if len(words) > 3 or re.search(r"[\d|.?!,:：·/]", sentence) or _STATES.search(sentence):
        return False
    return not any(word.endswith(_JOINED) for word in words)


def _described_noun(sentence: str, words: list[str]) -> bool:
    """A row label that is a noun with a clause describing it ("결석할 때", "찾는 날", "받는 것", "차를 가져갈 경우",
    "안내문에서 확인되는 것"): the words before the noun describe it and join it to no predicate. Two to four words, no
    figure, no mark that ends or splits a statement, no verdict word ("무료로 받는 것" says 무료)."""
    return (2 <= len(words) <= 4 and words[-1] in _LABEL_HEADS and not re.search(r"[\d|.?!,:：·/]", sentence)
            and not _STATES.search(sentence))


# Nouns that head a describing clause in a row label ("결석할 때", "받는 것", "끝나는 시간"): with one of these last, the
# words before it describe it and join it to no predicate.
_LABEL_HEADS = frozenset({"때", "경우", "날", "것", "곳", "시간", "돈", "분", "점", "방법"})


def aside_by_form(sentence: str) -> bool:
    """Not a claim by its form alone, whatever its words: a Markdown heading that states nothing, a question,
    a table's header row, the asker's question or plan said back, or a greeting with nothing else in it.

    These hold even where a source line shares the words ("## 독감 접종 비용" names line 4's subject).
    """
    stripped = strip_markdown(sentence).strip()
    if not stripped:
        return False
    if _MARKDOWN_HEADING.match(stripped):
        return not _PREDICATE_END.search(stripped)
    if _is_label(stripped):
        return True
    if _ASKER_SAID_BACK.search(stripped) or _SIGNPOST.search(stripped):
        return True
    if not re.search(r"\d", stripped) and not _REASON.search(stripped) and (
            _META.search(stripped) or _ABOUT_ASKER.search(stripped)):
        return True
    if _asks(stripped):
        return True
    labels = _header_cells(stripped)
    if labels is not None:
        framed = bool(_TABLE_CELLS.match(stripped))
        return _is_header_row(labels, framed=framed) or (framed and _names_its_columns(labels))
    greeting = re.match(r"^(?:안녕하세요|반갑습니다|감사합니다|고맙습니다)(?:\s*(?:어르신|고객님|회원님|여러분|선생님))?"
                        r"[^가-힣0-9]*", stripped)
    if greeting is None:
        return False
    return greeting.end() == len(stripped) or aside_by_form(stripped[greeting.end():])


def _header_cells(row: str) -> list[str] | None:
    """A table row's cells: "| a | b |", "a | b" or "a / b / c" (a plain-text table); None for anything else."""
    cells = _TABLE_CELLS.match(row)
    if cells:
        return [cell.strip() for cell in cells.group(1).split("|")]
    if _SENTENCE_END.search(row):
        return None
    for separator, least in ((" | ", 2), (" / ", 3)):
        parts = [part.strip() for part in row.split(separator)]
        if len(parts) >= least and all(parts):
            return parts
    return None


# A value in a cell, which no column name holds: an amount in any row; in a row without its pipes at both ends (a
# plain-text table, less sure to be one) also a clock time, a date, an age or a count. "1시간 요금" names a column,
# "전날 17:00 문자 안내" states when.
_CELL_AMOUNT = re.compile(r"\d\s*[,.]?\d*\s*(?:원|%)")
_CELL_VALUE = re.compile(r"\d\s*[,.]?\d*\s*(?:원|%)|\d{1,2}:\d{2}|\d\s*(?:시(?!간)|월|일|세|명|개|회|번)")


def _value_cell(cell: str) -> bool:
    """A cell that is a value and nothing else ("일요일", "6시간", "16일 오후"): it ends in a column word (요일, 시간,
    오후) but names no column. A bare part of the day ("오전", "오후") is a column name."""
    found, rest = extract_values(normalise(cell))
    return any(v.role != "within" for v in found) and not re.search(r"[가-힣A-Za-z]", rest)


def _ends_in_figure(cell: str) -> bool:
    """A cell whose last word holds a figure ("무료 주차 2시간") gives a value; "1시간 요금" names a column."""
    words = cell.split()
    return bool(words) and bool(re.search(r"\d", words[-1]))


# A cell after the first that says how things stand, which no column name does: pending ("추후 안내", "미정"),
# not applied ("미적용"), or a weekday rule ("매주 금·토요일", "금·토요일"). "| 재방문 날짜 | 추후 문자 안내 |" is a row.
_CELL_SAYS = re.compile(r"추후|미정|미적용|(?<![가-힣])(?:매주|격주|매일)(?![가-힣])"
                        r"|(?<![가-힣])(?:[월화수목금토일]\s*[·,/]\s*)+[월화수목금토일]요일")


# A cell that lists what holds, clause after clause, with a figure among them ("문화회관 소극장(120석), 같은 시각"): no
# column name is written so.
_CELL_LIST = re.compile(r"\d[^,]*,\s*[가-힣]|[가-힣][^,\d]*,\s*[^,]*\d")


def _is_header_row(labels: list[str], *, framed: bool) -> bool:
    """Column names, never values: every cell a label ("| 구분 | 1시간 요금 | 비고 |"), or the first cell naming the
    rows and labels after it ("아이 | 참가비 | 소계", "| 아이 | 참가비 |"). A value anywhere makes it a row of data ("1시간
    요금" is still a label), and so does a cell such as "무료" ("| 구분 | 무료 |")."""
    value = _CELL_AMOUNT if framed else _CELL_VALUE
    if len(labels) < 2 or any(value.search(label) or _value_cell(label) or _ends_in_figure(label) for label in labels):
        return False
    if any(_CELL_SAYS.search(label) or _CELL_LIST.search(label) for label in labels[1:]):
        return False
    named = [label.endswith(_COLUMN_LABELS) for label in labels]
    if not named[0] and _STATES.search(labels[0]):
        return False  # "확인 불가 | 주차, 강사 수": a first cell that says how things stand names no rows
    return all(named) or all(named[1:])


# The first cell of a framed header row that names what its rows are ("| 구분 | 1시간 | 2시간 |", "| 경우 | 50ml | 30ml |"):
# never a key of a key-value row (요일, 날짜, 대상 are: "| 요일 | 토요일 |").
_ROW_NAMES = ("구분", "항목", "경우", "이름", "회차", "조건", "테마", "종류", "분류", "품목", "과목", "코스", "프로그램")
_CELL_STATES = re.compile(r"\d\s*[,.]?\d*\s*(?:원|%)|(?:다|요|죠|음|됨|함|임|없음|있음|불가|가능|무료|미정)$")


def _names_its_columns(cells: list[str]) -> bool:
    """A framed row whose first cell names the rows below (``_ROW_NAMES``) and whose other cells name columns, even
    with a figure ("1시간", "2인 합계", "50ml"): no amount and nothing stated in any cell. On the development sets 14
    such rows not read as headers otherwise, all labelled 주장 아님."""
    return len(cells) >= 2 and cells[0] in _ROW_NAMES and not any(_CELL_STATES.search(cell) for cell in cells)


def states_something(sentence: str) -> bool:
    """Whether the sentence can say something of the source at all: a predicate ending or a figure. A bare
    label ("화장실 정보", "점심 제공 여부") names a topic and asserts nothing."""
    stripped = strip_markdown(sentence).strip()
    return bool(_PREDICATE_END.search(stripped) or re.search(r"\d", stripped))


def is_wish(sentence: str) -> bool:
    """A wish or sign-off to the reader (…보내세요, …되세요, …하시길 바랄게요), or a reaction with nothing stated."""
    stripped = sentence.strip()
    if _WISH.search(stripped) is not None:
        return True
    return bool(_REACTION.search(stripped)) and not re.search(r"\d", stripped) and not _REASON.search(stripped)


# Advice to the reader rather than a statement about the source: "방문 전에 전화로 확인해 보시길 권합니다".
_ADVICE = re.compile(
    r"(?:권(?:합니다|해요|해\s*드립니다|해\s*드려요|장합니다)|추천(?:합니다|해요|드립니다|드려요|해\s*드립니다)"
    r"|(?:게|것이|편이|시면|하면)\s*(?:더\s*)?(?:좋|안전하|확실하|편하)(?:습니다|아요|겠습니다|겠어요|ㄹ\s*거예요|을\s*(?:것|거)\s*같(?:습니다|아요))"
    r"|(?:하시|보시|가시|챙기시|준비하시|확인하시|문의하시|연락하시|참고하시)(?:기\s*바랍니다|길\s*바랍니다|는\s*(?:게|것이)\s*(?:좋|안전|확실))"
    r"|(?:확인|문의|연락|참고|준비)해\s*보(?:세요|시기\s*바랍니다|시길\s*바랍니다)"
    r"|(?:잊지|놓치지)\s*마(?:세요|십시오)|(?:유의|주의)하(?:세요|십시오))"
    r"[^가-힣]*$")


# More advice: an imperative to the reader ("이름표 꼭 붙이세요~"), a pointer to ask someone ("카운터에 물어보시면
# 알려 주실 거예요"), "…하시는 게 가장 빠릅니다". Only ever where no line is about the sentence (``ASIDE_MAX``): a rule
# of the notice said as an imperative ("수영모를 꼭 쓰세요") restates that line.
_ADVICE_MORE = re.compile(
    r"[가-힣](?:세요|십시오)[^가-힣]*$"
    r"|(?:물어보|문의하|확인하|전화하|여쭤보|연락하)시(?:면|는\s*게)"
    r"|게\s*(?:가장\s*|제일\s*|더\s*)?(?:빠릅니다|빨라요|정확합니다|정확해요|나아요|낫습니다|나을\s*(?:듯해요|거예요|것\s*같아요))"
    r"|권해\s*(?:드립니다|드려요)")


# "…두 배가 되니 참고하세요", "1년 내내 열리니까 언제든 놀러 가세요": a fact given as the reason for the advice is a
# claim, judged on its fact.
_BECAUSE = re.compile(rf"[가-힣](?:{_REASON_ENDINGS}|고)\s")


# A figure or a weekday given as the reason: "50석이라 ", "3시간이니 ", "5,000원이라서 ", "수요일이니 ".
_FIGURE_AS_REASON = re.compile(rf"(?:\d[^\s]*?|[월화수목금토일]요일)(?:이)?(?:라|라서|{_REASON_ENDINGS})\s")


_REPORTED_FACT = re.compile(r"[다라]는\s*(?:점|것|사실)(?:도|은|을|만)?\s")


def is_advice(sentence: str) -> bool:
    """Advice or a suggestion to the reader (…권합니다, …하시는 게 좋습니다, 확인해 보세요)."""
    stripped = sentence.strip()
    if _REPORTED_FACT.search(stripped):
        return False  # "한 번만 받을 수 있다는 점도 기억해 두세요" states that it can be had once
    if _ADVICE.search(stripped) is not None:
        return not _FIGURE_AS_REASON.search(stripped)  # "선착순 50석이라 일찍 가시는 게 좋아요" states 50석
    return _ADVICE_MORE.search(stripped) is not None and not _BECAUSE.search(stripped)


_OPINION_END = re.compile(r"(?:좋아요|좋습니다|좋겠어요|좋겠습니다|좋을\s*거예요|딱\s*맞아요|딱이에요|딱입니다|편해요|편합니다"
                          r"|편할\s*거예요)[.!~\s]*$")


def gives_a_reason(sentence: str) -> bool:
    """Whether the sentence joins a clause of its own as a reason or a setting (…받으니, …차니까, …라서, …인데): advice
    that says why ("신청은 12월 21일 월요일부터 받으니 그날 바로 하세요") states that clause, which the source may back
    or not."""
    return _REASON.search(sentence.strip()) is not None


def is_opinion(sentence: str) -> bool:
    """An opinion that weighs a fact of the source ("토요일 오전이라 아이와 같이 가기 좋아요"): it answers no question."""
    return _OPINION_END.search(sentence.strip()) is not None


def sentence_spans(text: str, *, claims_only: bool = False) -> list[tuple[int, int]]:
    """Sentences of ``text``: split at line breaks and sentence ends, bullets removed.

    With ``claims_only``, headings, question lines, questions and greetings are left out.
    """
    spans: list[tuple[int, int]] = []
    line_start = 0
    for line in text.split("\n"):
        line_end = line_start + len(line)
        begin = line_start
        following = text[line_end + 1:].split("\n", 1)[0]
        if claims_only and ((_HEADING.match(line) and not _BOLD_STATEMENT.match(line)) or _QUESTION_LINE.match(line)
                            or _TABLE_RULE.match(following)):
            line_start = line_end + 1  # a heading, a question, or a table's header row
            continue
        while begin < line_end and text[begin].isspace():
            begin += 1
        bullet = _BULLET.match(text, begin, line_end)
        if bullet:
            begin = bullet.end()
        for end_mark in _SENTENCE_END.finditer(text, begin, line_end):
            if end_mark.start() < begin:
                continue  # inside a citation already kept with the sentence before
            end = end_mark.end()
            citation = _CITATION_AFTER.match(text, end, line_end)  # "…입니다. (2)": the model's citation stays
            if citation:
                end = citation.end()
                trailing = re.match(r"[.?!。]", text[end:line_end])
                end += 1 if trailing else 0
            emoji = _TRAILING_EMOJI.match(text, end, line_end)  # "…같아요! 😊": the emoji ends the same sentence
            if emoji:
                end = emoji.end()
            spans.append((begin, end))
            begin = end
        spans.append((begin, line_end))
        line_start = line_end + 1
    trimmed = [_trim(text, start, end, "") for start, end in spans]
    out = []
    for index, (start, end) in enumerate(trimmed):
        if claims_only and _opener(text, trimmed, index):
            continue
        if letters(text[start:end]) >= _MIN_LETTERS and not (claims_only and not_a_claim(text[start:end])):
            out.append((start, end))
    return out


_BARE_GREETING = re.compile(r"^\s*(?:안녕하세요|반갑습니다)(?:\s*(?:어르신|고객님|회원님|여러분|선생님))?[^가-힣0-9]*$")


def _opener(text: str, spans: list[tuple[int, int]], index: int) -> bool:
    """The remark right after a bare greeting on its line ("안녕하세요! 참기름 짜러 가시는군요."): the two are one opener,
    and no claim; the greeting itself is left out as ``not_a_claim``."""
    if index == 0:
        return False
    (before_start, before_end), (start, end) = spans[index - 1], spans[index]
    return (bool(_BARE_GREETING.match(text[before_start:before_end])) and "\n" not in text[before_end:start]
            and aside_by_form(text[start:end]))


_TABLE_ROW = re.compile(r"\s*\|.*\|\s*")


def claim_spans(text: str) -> list[tuple[int, int]]:
    """Claims: sentences cut into clauses, except a table row, which is one claim whole (its cells
    are the parts of one statement, "| 장기 보관료 | 30일이 지나고 열흘 더 두면 5,000원 |")."""
    return [piece for start, end in sentence_spans(text, claims_only=True)
            for piece in ([(start, end)] if _TABLE_ROW.fullmatch(text, start, end) else clause_spans(text, start, end))]


# **bold**, __bold__, *italic*, _italic_ (not inside a word: snake_case stays) and `code`
_EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<!\*)\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?!\*)|`([^`\n]+)`"
                       r"|(?<![\w_])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w_])")
_EDGE_MARKS = "*_`"


def strip_markdown(text: str) -> str:
    """A claim's text without Markdown emphasis: "**토요일**은 *18시*까지" -> "토요일은 18시까지", "_5시 50분_" -> "5시 50분"."""
    previous = None
    while previous != text:
        previous = text
        text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or m.group(5) or "", text)
    return text


def claim_pieces(text: str) -> list[tuple[int, int, str]]:
    """Claims as (start, end, text): the span in ``text`` (emphasis marks at its edges left out) and
    the claim's text with Markdown emphasis removed."""
    out = []
    for start, end in claim_spans(text):
        while start < end and text[start] in _EDGE_MARKS and not text[start:end].strip(_EDGE_MARKS).startswith(" "):
            if strip_markdown(text[start:end]) != text[start:end]:
                break  # a pair opens here ("**토요일**은"): keep the span, clean the text
            start += 1
        cleaned = strip_markdown(text[start:end]).strip()
        if cleaned:
            out.append((start, end, cleaned))
    return out


def segments(text: str) -> list[str]:
    """Clauses of one source line or claim, also cut at commas: the unit that carries one polarity."""
    pieces = [text[s:e] for start, end in sentence_spans(text) for s, e in clause_spans(text, start, end, commas=True)]
    return pieces or ([text] if text.strip() else [])
