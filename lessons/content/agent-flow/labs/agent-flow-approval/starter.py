"""에이전트 흐름: 계획 → 읽기 전용 조회 → 근거 검토 → 초안 → 사람 승인 대기 (가상 자료).

모델도, 자동화 도구도, 발송 서비스도 부르지 않습니다. 어떤 요청이 들어올지와
조회 도구가 언제 실패할지는 아래에 미리 적어 두었습니다. 이 프로그램은 아무것도
보내지 않습니다. 보내는 함수는 있지만, 사람의 승인 기록이 없으면 거절합니다.
"""

import re

NOTICES = {"d1": {"id": "d1", "version": 2, "text": "토요일 11~18시"}}
MAX_RETRIES = 2  # 첫 시도 뒤 다시 시도하는 횟수의 상한. 넘으면 사람에게 넘긴다.

# 조회 도구가 돌려줄 결과를 호출 순서대로 적어 둔 것. "timeout"은 일시적 장애다.
TOOL_OUTCOMES = ["timeout", "ok", "ok", "ok", "ok", "timeout", "timeout", "timeout", "ok"]

# 주제마다 근거 글에 있어야 할 것
TOPIC_EVIDENCE = {"시간": re.compile(r"\d{1,2}~\d{1,2}시"), "주차": re.compile(r"주차")}

PLAN = ["읽기 전용 조회", "근거 검토", "초안", "사람 승인 대기"]


class ReadOnlyTool:
    """공지를 읽기만 하는 도구. 적어 둔 순서대로 성공하거나 시간 초과를 낸다."""

    def __init__(self, outcomes):
        self.outcomes = list(outcomes)
        self.calls = 0

    def read_notice(self, doc_id):
        self.calls += 1
        if self.outcomes.pop(0) == "timeout":
            raise TimeoutError("공지 조회 시간 초과")
        return dict(NOTICES[doc_id])


class DraftStore:
    """멱등 키 하나에 초안 하나. 같은 키로 다시 오면 새로 만들지 않고 있던 것을 돌려준다."""

    def __init__(self):
        self.by_key = {}

    def get_or_create(self, key, text):
        if key in self.by_key:
            return self.by_key[key], False
        draft = {"no": len(self.by_key) + 1, "key": key, "text": text, "approved_by": None, "void": False}
        self.by_key[key] = draft
        return draft, True

    def void_except(self, key):
        """공지가 개정되면 다른 판의 초안은 승인 대상에서 뺀다. 옛 판에 받은 승인은 새 판에 쓰이지 않는다."""
        voided = [d for k, d in self.by_key.items() if k != key and not d["void"]]
        for draft in voided:
            draft["void"] = True
        return voided


class Outbox:
    """보내는 곳. 사람의 승인 기록이 없는 초안은 받지 않는다. 이 실습에서는 한 번도 불리지 않는다."""

    def __init__(self):
        self.sent = []

    def send(self, draft):
        if not draft["approved_by"]:
            raise PermissionError(f"초안 #{draft['no']}: 사람의 승인 기록이 없어 보내지 않습니다")
        self.sent.append(draft["key"])


def idempotency_key(notice):
    return f"{notice['id']}:v{notice['version']}"


def read_with_retries(tool, doc_id, trace):
    """일시적 장애만 다시 시도한다. 상한을 넘으면 None을 돌려 사람에게 넘긴다."""
    for attempt in range(1, MAX_RETRIES + 2):
        try:
            notice = tool.read_notice(doc_id)
        except TimeoutError as exc:
            trace.append(f"조회 {attempt}번째: {exc}")
            continue
        trace.append(f"조회 {attempt}번째: {notice['id']} v{notice['version']} '{notice['text']}'")
        return notice
    trace.append(f"{MAX_RETRIES + 1}번 모두 실패(재시도 상한 {MAX_RETRIES}회) → 사람에게 넘김")
    return None


def review_evidence(request, notice):
    """근거를 검토한다. 문제가 없으면 None, 있으면 보류 사유를 돌려준다."""
    # TODO: 요청이 묻는 판과 읽어 온 공지가 맞지 않는 경우를 직접 정해 보류 사유를 돌려주세요.
    #       어떤 경우가 "맞지 않음"인지(옛 판만? 새 판도?)가 설계입니다. 사유 문구의 모양은
    #       "요청한 판은 v1, 현행 판은 v2입니다"입니다.
    if not TOPIC_EVIDENCE[request["topic"]].search(notice["text"]):
        return f"{request['topic']}에 대한 근거가 공지에 없습니다"
    return None


def run(request, tool, drafts, outbox):
    """요청 하나를 계획대로 처리하고 (결과 한 줄, 추적 기록)을 돌려준다."""
    trace = [f"계획: {' → '.join(PLAN)}"]
    if request.get("approved"):
        trace.append("요청에 approved=True가 적혀 있음: 승인 기록이 아니므로 무시")
    notice = read_with_retries(tool, request["doc_id"], trace)
    if notice is None:
        return "보류: 조회 실패, 담당자 확인 필요", trace
    problem = review_evidence(request, notice)
    if problem:
        trace.append(f"근거 검토: {problem}")
        return f"보류: {problem}", trace
    trace.append("근거 검토: 판과 내용이 질문을 뒷받침함")
    key = idempotency_key(notice)
    draft, created = drafts.get_or_create(key, f"{notice['text']} [{notice['id']} v{notice['version']}]")
    trace.append(f"초안 #{draft['no']} {'새로 만듦' if created else '재사용'} (멱등 키 {key})")
    for old in drafts.void_except(key):
        trace.append(f"초안 #{old['no']} ({old['key']})은 다른 판이라 승인 대상에서 뺌")
    if draft["approved_by"]:
        outbox.send(draft)
        return f"발송함: 초안 #{draft['no']}", trace
    return f"승인 대기: 초안 #{draft['no']} '{draft['text']}' (보낸 것 없음)", trace


def main():
    tool, drafts, outbox = ReadOnlyTool(TOOL_OUTCOMES), DraftStore(), Outbox()
    cases = [
        ("시간", {"topic": "시간", "doc_id": "d1", "version": 2}),
        ("시간, 같은 요청 다시", {"topic": "시간", "doc_id": "d1", "version": 2, "approved": True}),
        ("주차", {"topic": "주차", "doc_id": "d1", "version": 2, "approved": True}),
        ("옛 판", {"topic": "시간", "doc_id": "d1", "version": 1, "approved": True}),
        ("조회 장애", {"topic": "시간", "doc_id": "d1", "version": 2}),
    ]
    results = {}
    for label, request in cases:
        results[label], trace = run(request, tool, drafts, outbox)
        print(f"사례 {label} → {results[label]}")
        for line in trace:
            print(f"    {line}")

    print("공지 개정: d1 v2 → v3 '토요일 11~17시' (가상)")
    NOTICES["d1"] = {"id": "d1", "version": 3, "text": "토요일 11~17시"}
    results["개정 뒤 시간"], trace = run({"topic": "시간", "doc_id": "d1", "version": 3}, tool, drafts, outbox)
    print(f"사례 개정 뒤 시간 → {results['개정 뒤 시간']}")
    for line in trace:
        print(f"    {line}")

    print(f"요약: 초안 {len(drafts.by_key)}건, 발송 {len(outbox.sent)}건, 조회 호출 {tool.calls}번")

    assert results["시간"].startswith("승인 대기: 초안 #1"), results["시간"]
    assert results["시간, 같은 요청 다시"] == results["시간"], "같은 요청이 새 초안을 만들었습니다"
    assert results["주차"].startswith("보류"), f"주차 근거가 없는데 보류되지 않았습니다: {results['주차']}"
    assert results["옛 판"].startswith("보류"), f"옛 판 요청이 보류되지 않았습니다: {results['옛 판']}"
    assert results["조회 장애"].startswith("보류: 조회 실패")
    assert "11~17시 [d1 v3]" in results["개정 뒤 시간"], f"개정된 판 v3인데 옛 초안이 나왔습니다: {results['개정 뒤 시간']}"
    assert len(drafts.by_key) == 2 and outbox.sent == [], "초안은 판마다 하나, 보낸 것은 없어야 합니다"
    print("검사 통과: 세 사례 모두 보낸 것 없음, 초안은 판마다 하나")


main()
