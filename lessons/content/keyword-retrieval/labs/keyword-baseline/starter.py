"""키워드 검색 기준선: 문서 번호를 단 채로 찾고, 못 찾으면 지어내지 않는다.

모델도 임베딩도 쓰지 않는다. 질문마다 미리 정해 둔 검색어가 문서에 그대로
들어 있는지만 본다. 그래서 결과가 왜 나왔는지 한 줄씩 따라갈 수 있다.
"""

TODAY = "2026-04-04"

# 등록된 차례대로다. 예전 공지가 먼저 등록되어 목록 앞에 있다.
DOCS = [
    {"id": "d3", "topic": "토요일 영업시간", "effective": "2025-09-01",
     "text": "토요일 영업시간 10~17시 (지난 공지)"},
    {"id": "d1", "topic": "토요일 영업시간", "effective": "2026-03-01",
     "text": "토요일 영업시간 11~18시"},
    {"id": "d2", "topic": "행사 신청", "effective": "2026-03-01",
     "text": "행사 신청은 담당자 확인 뒤 확정"},
]

# 정답표: (질문, 검색어, 정답 문서). 정답 문서가 None이면 "없다고 답해야 하는" 질문이다.
GOLD = [
    ("토요일 영업시간?", "토요일", "d1"),
    ("행사 신청은 언제 확정되나요?", "행사 신청", "d2"),
    ("대관 취소 수수료?", "취소 수수료", None),
]

NO_DATA = "자료 없음: 미확인"


def in_effect(docs, today):
    """주제마다, 오늘 이미 시행 중인 공지 가운데 시행일이 가장 늦은 것 하나만 남긴다.

    받는 것: 공지 목록(등록된 차례, 각 공지는 id·topic·effective·text)과 오늘 날짜 "YYYY-MM-DD".
    돌려줄 것: 새 목록. 주제마다 오늘 기준으로 시행 중인 공지 하나만, 받은 목록의 차례대로.
    시행일이 오늘인 공지는 시행 중이고, 아직 시행 전인 공지는 없는 공지로 친다.
    """
    # TODO: 직접 작성하세요. 주제를 어떻게 묶고 날짜를 어떻게 비교할지는 스스로 정합니다.
    #       지금은 자리만 채워 두어 아무것도 거르지 않고 그대로 돌려줍니다.
    return list(docs)


def search(term, docs):
    """검색어가 그대로 들어 있는 문서를 목록 차례대로 돌려준다."""
    return [doc for doc in docs if term in doc["text"]]


def answer(term, docs):
    """첫 번째 결과를 문서 번호와 함께 답한다. 결과가 없으면 없다고 답한다."""
    hits = search(term, in_effect(docs, TODAY))
    if not hits:
        return NO_DATA, None
    top = hits[0]
    return f"{top['text']} [{top['id']}]", top["id"]


hits_at_1 = 0
answerable = 0
no_data_right = 0
no_data_total = 0
for question, term, gold in GOLD:
    text, top_id = answer(term, DOCS)
    print(f"{question} | {text}")
    if gold is None:
        no_data_total += 1
        no_data_right += top_id is None
    else:
        answerable += 1
        hits_at_1 += top_id == gold

print(f"precision@1 = {hits_at_1}/{answerable} = {hits_at_1 / answerable:.2f}")
print(f"없는 정보를 없다고 답함 = {no_data_right}/{no_data_total}")
assert no_data_right == no_data_total, "없는 정보에 문서를 갖다 붙였습니다"
assert hits_at_1 == answerable, "첫 번째 결과가 정답 문서가 아닌 질문이 있습니다"
# 시행일 규칙의 두 경계: 오늘부터 시행하는 공지는 남고, 아직 시행 전인 공지는 빠진다.
EDGE_DOCS = [
    {"id": "d5", "topic": "토요일 영업시간", "effective": "2026-06-01",
     "text": "토요일 영업시간 9~21시 (6월부터)"},
    {"id": "d6", "topic": "대관 안내", "effective": TODAY,
     "text": "대관 예약은 전화로만 받음"},
]
kept_ids = [doc["id"] for doc in in_effect(DOCS + EDGE_DOCS, TODAY)]
print(f"시행일 규칙 확인(오늘 {TODAY}) → 남는 문서 {kept_ids}")
assert kept_ids == ["d1", "d2", "d6"], "오늘 시행하는 공지는 남고, 시행 전 공지와 지난 공지는 빠져야 합니다"
print("검사 통과: 기준선이 정답표와 맞습니다")
