"""공지 공개 흐름의 상태표: 사람이 승인하기 전에는, 그리고 승인한 판이 바뀌면 공개하지 않는다.

모델, MCP 서버, 외부 게시 서비스는 부르지 않는다. 게시 채널은 이 파일 안의
가짜 객체이고, 호출 횟수를 세어 "몇 번 보냈는가"를 확인하는 데만 쓴다.
"""

TODAY = "2026-04-04"
MAX_TOOL_CALLS = 2  # 게시 채널을 한 요청에서 부르는 최대 횟수

DOCS = {
    "d1": {"version": 2, "valid_until": "2026-12-31", "text": "토요일 11~18시"},
    "d4": {"version": 1, "valid_until": "2026-03-31", "text": "3월 휴강 안내"},
    "d5": {"version": 1, "valid_until": "2026-04-04", "text": "오늘까지 도서 교환 접수"},
}


class Channel:
    """가짜 게시 채널. down이면 부를 때마다 연결 오류를 낸다."""

    def __init__(self, down=False):
        self.down = down
        self.attempts = 0
        self.posted = []

    def post(self, text):
        self.attempts += 1
        if self.down:
            raise ConnectionError("게시 채널 응답 없음")
        self.posted.append(text)


def new_request(request_id, doc_id):
    """질문에 대한 답 초안과 상태. 근거 문서가 없으면 초안도 없다."""
    doc = DOCS.get(doc_id)
    return {
        "request": request_id,
        "doc": doc_id,
        "draft": f"{doc['text']} [{doc_id} v{doc['version']}]" if doc else None,
        "approved_by": None,
        "approved_version": None,
        "published": False,
    }


def approve(state, person):
    """사람의 승인. 승인한 사람과, 그때 본 문서의 판을 함께 적는다."""
    state["approved_by"] = person
    state["approved_version"] = DOCS[state["doc"]]["version"]


def idempotency_key(state):
    return f"{state['request']}:{state['doc']}@v{state['approved_version']}"


def publish(state, channel, done):
    """공개를 시도하고 결과를 한 줄로 돌려준다. 실패하면 언제나 보류이고, 이유를 말한다."""
    doc = DOCS.get(state["doc"])
    if state["draft"] is None or doc is None:
        return "보류: 근거 없음"
    if doc["valid_until"] < TODAY:
        return "보류: 자료 기한 지남"
    if state["approved_by"] is None:
        return "보류: 승인 전"
    # TODO: 사람이 승인한 뒤 문서가 고쳐졌을 수 있다. 그것을 무엇으로 알아볼지, 그때 이 요청의
    #       승인 기록을 어떻게 할지는 직접 정하세요. 보류할 때의 결과 문구는
    #       "보류: 문서 판이 바뀌어 승인 무효, 다시 승인 필요"입니다.
    key = idempotency_key(state)
    if key in done:
        return "중복 요청: 이미 공개됨, 다시 보내지 않음"
    for _ in range(MAX_TOOL_CALLS):
        try:
            channel.post(state["draft"])
        except ConnectionError:
            continue
        state["published"] = True
        state["published_version"] = doc["version"]
        done.add(key)
        return "공개됨"
    return f"보류: 게시 채널 장애({MAX_TOOL_CALLS}회 시도), 승인은 유지"


channel = Channel()
broken = Channel(down=True)
done = set()
rows = []


def scenario(label, request_id, doc_id, approver=None, edit_after_approval=False, via=channel):
    state = new_request(request_id, doc_id)
    if approver:
        approve(state, approver)
    if edit_after_approval:
        DOCS[doc_id] = {**DOCS[doc_id], "version": DOCS[doc_id]["version"] + 1}
    result = publish(state, via, done)
    approved = "예" if state["approved_by"] else "아니오"
    published = "예" if state["published"] else "아니오"
    rows.append(state)
    print(f"{label} | {request_id} {doc_id} | 승인 {approved} | 공개 {published} | {result}")


scenario("정상", "R1", "d1", approver="담당자 김")
scenario("중복 요청", "R1", "d1", approver="담당자 김")
scenario("근거 없음", "R2", "d9")
scenario("자료 기한 지남", "R3", "d4", approver="담당자 김")
scenario("승인 전", "R4", "d1")
scenario("오늘까지 유효, 승인 전", "R7", "d5")
scenario("외부 서비스 장애", "R6", "d1", approver="담당자 김", via=broken)
scenario("승인 뒤 문서 수정", "R5", "d1", approver="담당자 김", edit_after_approval=True)

print(f"게시 {len(channel.posted)}건, 정상 채널 호출 {channel.attempts}회, 장애 채널 호출 {broken.attempts}회")
assert all(row["approved_by"] for row in rows if row["published"]), "승인 없이 공개된 요청이 있습니다"
assert all(row["approved_version"] == row["published_version"] for row in rows if row["published"]), \
    "승인한 판과 공개한 판이 다른 요청이 있습니다"
assert len(channel.posted) == 1, "한 번만 공개되어야 할 공지가 여러 번 나갔습니다"
assert broken.attempts == MAX_TOOL_CALLS, "장애 채널을 한도보다 많이 불렀습니다"
print("검사 통과: 승인과 판이 맞을 때 한 번만 공개했습니다")
