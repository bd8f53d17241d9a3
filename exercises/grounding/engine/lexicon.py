"""Word lists for Korean notice text: endings, particles, a small thesaurus, cue words.

Everything here is data, kept apart from the algorithms so that a new notice
domain needs only a new row, never a new rule. The lists are general Korean
(particles, verb endings, negators) or general notice vocabulary (opening hours,
fees, booking); none names a particular source.
"""

from __future__ import annotations

# --- Stemming -------------------------------------------------------------
# (suffix, minimum syllables that must remain). The stemmer strips the longest
# suffix that leaves at least that many syllables. Ambiguous one-syllable endings
# ask for two syllables so that two-syllable nouns (필요, 결과, 평가, 제한, 확인)
# are left alone.
_ONE = 1
_TWO = 2
SUFFIXES: tuple[tuple[str, int], ...] = tuple(sorted(
    [
        # 하다 verbs
        *((s, _ONE) for s in (
            "하였습니다", "했습니다", "합니다", "합니까", "하십시오", "하세요", "하시면", "하시기",
            "하셔야", "하실", "하신", "하겠습니다", "하였다", "했다", "했어요", "해요", "해야", "해도",
            "해서", "하여", "하며", "하고", "하지만", "하는데", "하는", "하면", "하다", "하지", "한다",
            "하기", "하려면", "하므로", "하니", "해야만")),
        *((s, _TWO) for s in ("할", "한", "함", "해")),
        # 되다 verbs
        *((s, _ONE) for s in (
            "되었습니다", "됐습니다", "됩니다", "되었다", "됐다", "돼요", "되며", "되고", "되지만",
            "되는데", "되는", "되면", "되다", "되지", "된다", "되어", "되어야", "돼야", "되어도", "돼도",
            "되기", "되도록", "되니", "되므로", "되어서", "돼서", "되었고", "됐고")),
        *((s, _TWO) for s in ("될", "된", "됨", "돼")),
        # copula
        *((s, _ONE) for s in (
            "이었습니다", "였습니다", "입니다", "이었다", "였다", "이에요", "예요", "이며", "이고",
            "이지만", "인데", "이다", "이라", "이라서", "이라고", "이므로", "이나", "이야", "이면")),
        *((s, _TWO) for s in ("인", "임")),
        # general verb endings
        *((s, _ONE) for s in (
            "었습니다", "았습니다", "습니다", "습니까", "었다", "았다", "어요", "아요", "어야", "아야",
            "어서", "아서", "어도", "아도", "으며", "으면", "으니", "는다", "는데", "은데", "지만",
            "도록", "니다", "으려면", "려면", "세요", "십시오", "다", "며", "고", "는", "은", "을", "를")),
        *((s, _ONE) for s in ("면", "야", "요", "었어요", "았어요", "였어요", "됐어요")),
        *((s, _TWO) for s in ("지", "게", "어", "아", "기")),
        # particles (after nouns)
        *((s, _ONE) for s in (
            "에서부터", "에서는", "에서도", "에게는", "으로는", "으로도", "까지는", "까지만", "부터는",
            "에는", "에도", "에게", "에서", "으로", "부터", "까지", "보다", "처럼", "마다", "이랑",
            "과는", "와는", "로는", "로도", "만은", "께서", "한테", "께", "에", "의", "도", "로", "만",
            "에만", "으로만", "로만", "에서만", "에게서", "이라도", "라도", "조차", "밖에", "뿐", "씩")),
        ("당", _TWO),
        *((s, _ONE) for s in ("이", "가")),  # only after a fitting final consonant, see hangul.stem
        *((s, _TWO) for s in ("와", "과", "나", "랑")),
    ],
    key=lambda item: -len(item[0]),
))

# Words the stemmer must not cut (they end in something that looks like an ending).
PROTECTED: frozenset[str] = frozenset({
    "참고", "광고", "최고", "재고", "창고", "사고", "경고", "신고", "보고", "금고", "원고", "차고",
    "공고", "예고", "잔고", "선고", "차고지", "정지", "금지", "유지", "방지", "중지", "휴지", "의지",
    "부지", "대지", "배지", "표지", "용지", "잡지", "편지", "가지", "가게", "무게", "정도", "제도",
    "용도", "속도", "온도", "한도", "지도", "태도", "각도", "도로", "경로", "측면", "화면", "방면",
    "전면", "후면", "표면", "정면", "단면", "라면", "냉면", "지면", "대면", "하나", "아이", "사이",
    "나이", "거리", "자리", "다리", "소리", "요가", "휴가", "평가", "추가", "참가", "시가", "도시",
    "시다", "바다", "여기", "거기", "저기", "얘기", "이야기", "크기", "길이", "높이", "넓이",
    "모임", "마감", "처음", "다음", "기다", "이다", "오늘", "내일", "모레", "어제", "주말", "평일",
    "휴일", "공휴일", "요일", "매일", "이용", "반드시", "미만", "이상", "이하", "이내", "초과",
    "중요", "주요", "수요", "바로", "새로", "따로", "서로", "별로", "주로", "스스로", "그대로", "담당", "식당", "강당",
    "분야", "광야", "외면", "수면", "반면", "이면", "당면", "직면", "체면", "한편",
})

# Contracted final syllables of verb stems (빌려 <- 빌리+어, 써 <- 쓰+어 ...).
CONTRACTIONS: dict[str, str] = {
    "려": "리", "쳐": "치", "혀": "히", "져": "지", "써": "쓰", "떠": "뜨", "꺼": "끄", "봐": "보",
    "와": "오", "줘": "주", "둬": "두", "워": "우", "해": "하", "돼": "되", "켜": "키", "겨": "기",
    "뤄": "루", "놔": "놓",
}

# --- Thesaurus ------------------------------------------------------------
# Concept keys start with "@". A word may carry several concepts; a word marked
# negative (휴무 = "not open") flips the polarity of its concept.
_CONCEPT_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("@open", ("영업", "운영", "열", "연", "엽", "여", "열리", "열린", "열려", "개관", "개점", "오픈",
               "개장", "운행", "문을열", "개방")),
    ("@hold", ("열리", "열린", "열려", "진행", "개최", "열")),
    ("@start", ("시작", "개강", "개시", "개막", "시행", "개강일")),
    ("@end", ("끝", "끝나", "종료", "마치", "마감", "종강", "폐장")),
    ("@depart", ("출발", "떠나", "떠납", "떠난", "떠")),
    ("@stop", ("정차", "서", "섭", "선", "멈추", "멈춥", "멈춘", "정거", "멈춰")),
    ("@pass", ("지나", "거치", "경유", "거쳐", "지납", "지난")),
    ("@change", ("바뀌", "바뀝", "바뀐", "바꾸", "변경", "변동", "달라지", "달라", "바뀔")),
    ("@extend", ("연장", "늘어나", "늘어", "늘", "길어지", "길어", "늘어날")),
    ("@free", ("무료", "공짜")),
    ("@need", ("필요", "요구")),
    ("@reserve", ("예약", "사전예약", "예약제")),
    ("@apply", ("신청", "접수", "등록")),
    ("@cancel", ("취소",)),
    ("@refund", ("환불", "환급", "돌려받", "돌려주", "반환")),
    ("@discount", ("할인", "깎", "빼", "뺀", "뺍", "빼주")),
    ("@price", ("가격", "요금", "비용", "값", "금액")),
    ("@pay", ("내", "낸", "냅", "지불", "결제", "계산", "지급")),
    ("@sell", ("판매", "팔", "파", "판", "팝")),
    ("@buy", ("구매", "구입", "매입", "사")),
    ("@give", ("제공", "드리", "드립", "드린", "주", "준", "줍", "나눠주", "증정")),
    ("@borrow", ("대출", "대여", "빌리", "빌", "빌려")),
    ("@return", ("반납",)),
    ("@use", ("이용", "사용", "쓰", "써", "쓸", "쓴")),
    ("@wear", ("착용", "쓰", "써", "쓸", "쓴", "입", "신")),
    ("@enter", ("입장", "출입", "입실", "들어가", "들어오", "들어갈", "들어와", "들어간")),
    ("@bring", ("가져오", "가져가", "가지", "지참", "가져와", "가져갈", "가져간", "가져온")),
    ("@bring", ("반입",)),
    ("@enter", ("반입",)),
    ("@photo", ("촬영", "찍")),
    ("@view", ("관람", "보", "볼", "본", "봅", "구경", "감상")),
    ("@attend", ("수강", "참가", "참여", "듣", "들", "들을")),
    ("@treat", ("진료", "치료", "진찰")),
    ("@child", ("어린이", "아이", "아동", "어린이들")),
    ("@adult", ("성인", "어른")),
    ("@youth", ("청소년",)),
    ("@senior", ("노인", "어르신")),
    ("@dog", ("반려견", "강아지")),
    ("@pet", ("반려동물", "애완동물", "반려견")),
    ("@wifi", ("와이파이", "무선인터넷")),
    ("@book", ("도서", "책")),
    ("@with", ("함께", "같이", "동반", "함께하")),
    ("@include", ("포함",)),
    ("@separate", ("따로", "별도")),
    ("@take", ("소요", "걸리", "걸립", "걸린")),
    ("@limit", ("제한", "한정", "한해")),
    ("@soldout", ("품절", "매진")),
    ("@announce", ("발표", "공지", "알리", "알려")),
    ("@decide", ("결정", "정해지", "정해", "정하", "정합", "확정")),
    ("@check", ("확인", "점검")),
    ("@review", ("검토", "논의")),
    ("@approve", ("승인", "허가")),
    ("@make", ("만들", "만드", "발급", "만듭")),
    ("@busstop", ("정류장", "정거장", "정류소")),
    ("@lunch", ("점심시간", "점심")),
    ("@rest", ("휴식", "쉬는시간")),
    ("@delivery", ("배달", "배송")),
    ("@cash", ("현금",)),
    ("@card", ("카드",)),
    ("@after", ("후", "뒤", "다음", "이후")),
    ("@install", ("설치",)),
    ("@monthly", ("매월", "매달", "달마다", "다달이")),
    ("@weekly", ("매주", "주마다")),
    ("@yearly", ("매년", "해마다")),
    ("@alone", ("혼자", "홀로", "단독")),
    ("@inside", ("실내", "안쪽", "내부", "매장안")),
    ("@outside", ("실외", "야외", "테라스", "바깥", "밖")),
    ("@online", ("온라인", "인터넷", "누리집", "홈페이지", "앱")),
    ("@onsite", ("현장", "방문", "창구", "오프라인")),
    ("@up", ("오르", "올랐", "인상", "올리", "올린", "비싸")),
    ("@down", ("내리", "인하", "싸", "저렴")),
    ("@late", ("늦", "연체")),
    # A silence claim names its subject in its own word: "우천 시 안내는 없어요" of a notice whose line says
    # "비가 오면 …", "반납 장소는 나와 있지 않아요" of "반납은 빌린 곳이 아니어도 …".
    ("@rain", ("비", "우천", "강우")),
    ("@place", ("장소", "곳", "위치")),
    # "어떤 신발을 신어야 하는지 나와 있지 않아요" of a notice whose line names 운동화 and 실내화.
    # "작품 보관은 안내가 없어요" of a notice whose line says "완성품은 … 보관해 드리며".
    ("@work", ("작품", "완성품", "결과물")),
    ("@shoes", ("신발", "운동화", "실내화", "구두", "슬리퍼", "샌들", "등산화", "장화", "덧신")),
)

# Words whose concept is negated: "closed" is "not open", "paid" is "not free".
_NEGATIVE_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("@treat", ("휴진",)),
    ("@open", ("휴무", "휴관", "휴진", "휴업", "휴점", "휴장", "휴무일", "휴관일", "쉬", "쉽", "쉰",
               "쉼", "쉴", "쉬는날", "휴일")),
    ("@free", ("유료",)),
    ("@need", ("불필요",)),
)

CONCEPTS: dict[str, frozenset[str]] = {}
NEGATIVE_CONCEPTS: dict[str, frozenset[str]] = {}
for _concept, _words in _CONCEPT_ROWS:
    for _word in _words:
        CONCEPTS[_word] = CONCEPTS.get(_word, frozenset()) | {_concept}
for _concept, _words in _NEGATIVE_ROWS:
    for _word in _words:
        NEGATIVE_CONCEPTS[_word] = NEGATIVE_CONCEPTS.get(_word, frozenset()) | {_concept}

# Prefixes that carry a negative concept inside longer words (휴관일, 휴장합니다).
NEGATIVE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("휴무", "@open"), ("휴관", "@open"), ("휴진", "@open"), ("휴업", "@open"),
    ("휴점", "@open"), ("휴장", "@open"),
)

# Pairs of concepts that contradict each other when one text says one and the other the other.
ANTONYMS: frozenset[frozenset[str]] = frozenset({
    frozenset({"@alone", "@with"}), frozenset({"@inside", "@outside"}), frozenset({"@online", "@onsite"}),
    frozenset({"@up", "@down"}), frozenset({"@monthly", "@weekly"}), frozenset({"@yearly", "@monthly"}),
    frozenset({"@yearly", "@weekly"}),
})

# Generic verbs: matched when present, never missed when absent ("쓸 수 있다" = "이용").
LIGHT_CONCEPTS: frozenset[str] = frozenset({"@use"})

# Concept-bearing heads of compounds (영업시간 -> 영업, 관람료 -> 관람): at least two syllables.
COMPOUND_HEADS_MIN = 2

# "닫다" is a closing *time* next to a clock time and "closed" otherwise.
CLOSE_WORDS: frozenset[str] = frozenset({"닫", "닫히", "닫혀", "닫습", "닫는", "닫을", "닫은"})

# --- Stop and light words --------------------------------------------------
STOPWORDS: frozenset[str] = frozenset({
    "있", "없", "하", "되", "이", "그", "저", "것", "수", "등", "및", "또", "또는", "그리고", "하지만",
    "그러나", "다만", "또한", "더", "잘", "좀", "안", "못", "않", "아니", "가능", "불가", "불가능",
    "까지", "부터", "이상", "이하", "미만", "초과", "이내", "최대", "최소", "약", "총", "모든", "각",
    "매", "당", "씩", "만", "제", "저희", "여러분", "우리", "해당", "중", "내", "외", "전", "동안",
    "정도", "이전", "쯤", "경", "분", "해", "될", "할", "한", "된", "됨", "함", "수도", "있어야",
    "해야", "돼", "되어", "주세요", "바랍니다", "경우", "여부", "때", "시", "에", "는", "은", "을",
    "를", "도", "요", "게", "다른", "께", "님", "분들", "고객", "여러", "대해", "관련", "통해",
    "위해", "따라", "대신", "새로", "자세한", "자세히", "더욱", "모두", "누구나", "항상", "반드시",
    "꼭", "선착순", "정원", "아직", "예정", "계획", "미정", "이면", "인", "임", "번째", "문", "가", "오",
    # left over from how chat models phrase an answer (보입니다 -> 보, 5,000원짜리 -> 짜리)
    "짜리", "있어", "있으", "있고", "보", "같", "듯", "나와", "적혀", "안내되어", "안내문", "원문",
    "공지문", "말씀", "드리", "드립", "참고", "보시", "보세요", "주시", "그렇",
})

# Generic words that add little beyond the value next to them ("가격은 5,000원").
LIGHT: frozenset[str] = frozenset({
    "가격", "요금", "비용", "값", "금액", "시간", "날짜", "일정", "기간", "요일", "나이", "인원",
    "횟수", "이제", "지금", "다시", "바로", "이미", "여전히", "현재", "새", "이번", "매장", "안내",
    "공지", "알림", "사항", "이용자", "손님", "본", "해당일", "당일",
})

# Nouns that end in 면 but are not the conditional ending.
MYEON_NOUNS: frozenset[str] = frozenset({
    "측면", "화면", "방면", "전면", "후면", "표면", "정면", "단면", "라면", "냉면", "지면", "대면",
    "가면", "국면", "장면", "평면", "수면", "이면", "우면", "쫄면", "비대면",
})

# Verb stems whose "-ㄹ 수 있다" means "may happen" rather than "is allowed".
CHANGE_STEMS: tuple[str, ...] = (
    "변경", "취소", "제한", "조정", "연기", "중단", "휴장", "휴관", "휴무", "휴진", "마감", "종료",
    "지연", "품절", "폐강", "축소", "단축", "변동", "늦", "달라", "바뀌", "바뀔", "늘어", "줄어",
    "생기", "생길", "없어", "매진", "조기",
)

# What chat models most often invent about a place (a car park, Wi-Fi, a café): a claim whose
# subject is one of these, where the source never names it, is about something the source
# does not cover. Kept to such services and facilities: an ordinary noun may be a paraphrase.
AMENITIES: frozenset[str] = frozenset({
    "주차", "주차장", "주차권", "주차비", "주차요금", "발레", "와이파이", "무선인터넷", "인터넷", "카페", "매점", "식당",
    "편의점", "자판기", "샤워실", "샤워", "탈의실", "화장실", "수유실", "엘리베이터", "승강기", "셔틀", "셔틀버스",
    "보험", "자격증", "미용실", "키즈존", "놀이방", "흡연", "흡연실", "쿠폰", "포인트", "적립", "멤버십", "회원카드",
    "할인카드", "기념품", "굿즈", "택배", "배달", "포장", "충전", "충전기", "콘센트", "사물함", "락커", "보관함",
    "우산", "담요", "간식", "음료", "커피", "생수", "무료음료", "통역", "수화", "점자", "휠체어", "유모차",
})
