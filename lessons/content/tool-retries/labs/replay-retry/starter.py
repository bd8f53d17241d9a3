"""기록해 둔 모델 응답을 다시 돌려 보는 재시도 실습 (시작 코드).

모델은 부르지 않는다. 대화마다 기록해 둔 응답 글을 모델이 보냈다고 치고, 실행기가
하나씩 읽기 → 계약 검사 → 도구 실행 순서로 처리한다. 세 대화를 차례로 재생한다.

  대화 1 (R101): 조회 요청(형식 오류) → 고친 조회 → 초안 요청(결과 유실) → 같은 번호로 재시도
  대화 2 (R202): 조회 없이 온 초안 요청 → B22 조회(0권) → 초안 요청 → 수량을 0으로 바꾼 요청
  대화 3 (R101): 수량만 3으로 바꾼 재시도

"시도"는 읽기와 계약 검사를 통과해 도구까지 간 요청의 수다. 읽히지 않거나 계약에 어긋나
실행 전에 거절된 응답은 세지 않는다. 재고, 책 번호, 요청 번호, 초안은 모두 가상이다.
"""

import json

STOCK = {"B17": 2, "B22": 0}                 # 가상 재고
CHECKED_AT = "2026-10-28T10:00:00+09:00"    # 가상 재고의 기준 시각 (고정값)
ATTEMPT_BUDGET = 4                           # 한 대화에서 도구까지 갈 수 있는 요청 수

# 허용 목록: 도구 이름 → 받아야 하는 인자 이름들 (정확히 이것만)
ALLOWED_TOOLS = {
    "lookup_stock": {"book_id"},
    "create_draft": {"request_id", "book_id", "quantity", "note"},
}
NOTE_R101 = "2026-10-28 10:00 조회 기준 2권 남음. 예약 아님, 담당자가 확인할 초안"


def reply(name, **arguments):
    """모델이 보낸 응답 글 하나를 만든다 (한 줄짜리 JSON)."""
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def chatty(text):
    """설명 문장과 코드 울타리를 앞뒤에 붙인 응답: 사람 눈엔 멀쩡하지만 JSON이 아니다."""
    return "B17 재고부터 확인할게요.\n```json\n" + text + "\n```\n결과를 알려 주세요."


CONVERSATIONS = [
    ("R101", [
        chatty(reply("lookup_stock", book_id="B17")),
        reply("lookup_stock", book_id="B17"),
        reply("create_draft", request_id="R101", book_id="B17", quantity=2, note=NOTE_R101),
        reply("create_draft", request_id="R101", book_id="B17", quantity=2, note=NOTE_R101),
    ]),
    ("R202", [
        reply("create_draft", request_id="R202", book_id="B22", quantity=2, note="B22 두 권"),
        reply("lookup_stock", book_id="B22"),
        reply("create_draft", request_id="R202", book_id="B22", quantity=2, note="B22 두 권"),
        reply("create_draft", request_id="R202", book_id="B22", quantity=0, note="B22 영 권"),
    ]),
    ("R101 충돌", [
        reply("lookup_stock", book_id="B17"),
        reply("create_draft", request_id="R101", book_id="B17", quantity=3, note=NOTE_R101),
    ]),
]
LOSE_REPLY_ONCE = {"R101"}   # 이 요청 번호의 첫 초안 결과는 모델에게 닿지 못한다


class Refused(Exception):
    """읽을 수 없거나 계약에 어긋나서 도구에 넘기지 않은 응답."""


class Held(Exception):
    """도구까지 왔지만 조건이 맞지 않아 아무것도 만들지 않고 보류한 요청."""


class ReplyLost(Exception):
    """도구는 일을 마쳤는데 그 결과가 모델에게 전달되지 못했다."""


def read_proposal(text):
    """응답 글 전체가 JSON 객체 하나여야 한다. 중괄호만 오려 내 살리지 않는다."""
    try:
        proposal = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused(f"invalid_json: {exc.msg}, {exc.pos + 1}번째 글자") from None
    if not isinstance(proposal, dict) or set(proposal) != {"name", "arguments"}:
        raise Refused("contract: name과 arguments 두 칸만 있는 객체가 아님")
    return proposal


def check_contract(proposal):
    """허용 목록과 인자 약속을 확인한다. 통과하면 (이름, 인자)를 돌려준다."""
    name, args = proposal["name"], proposal["arguments"]
    if name not in ALLOWED_TOOLS:
        raise Refused(f"contract: 허용 목록에 없는 도구 {name}")
    if not isinstance(args, dict) or set(args) != ALLOWED_TOOLS[name]:
        raise Refused(f"contract: {name}의 인자 이름이 약속과 다름")
    if args["book_id"] not in STOCK:
        raise Refused(f"contract: 모르는 책 번호 {args['book_id']!r}")
    if name == "create_draft":
        qty = args["quantity"]
        if type(qty) is not int or not 1 <= qty <= 3:
            raise Refused(f"contract: 수량은 1~3 사이 정수여야 함 (받은 값 {qty!r})")
        if not isinstance(args["request_id"], str) or not isinstance(args["note"], str):
            raise Refused("contract: request_id와 note는 글자여야 함")
    return name, args


class DraftStore:
    """메모리 안의 초안 보관함. 요청 번호 하나에 초안 하나. 모든 대화가 함께 쓴다."""

    def __init__(self):
        self.drafts = []       # 지금까지 만들어진 초안 전부
        self.by_request = {}   # 요청 번호 → 그 번호로 만든 초안

    def find_retry(self, args):
        """같은 요청 번호의 초안이 있으면 돌려준다. 인자가 다르면 같은 일이 아니므로 보류한다."""
        # TODO(실습 1): 이 보관함은 아직 재시도를 알아보지 못한다. 위 docstring의 약속대로 작성하세요.
        #   무엇을 "같은 요청"으로 볼지, 같은 번호에 다른 인자가 오면 어떻게 할지(보류 사유 이름은
        #   request_id_conflict)는 직접 정합니다. 처음 보는 번호면 None을 돌려줍니다.
        return None

    def add(self, args):
        draft = {"draft_id": f"DRAFT-{args['request_id']}", "status": "draft", "args": dict(args)}
        self.drafts.append(draft)
        self.by_request[args["request_id"]] = draft
        return draft


class Conversation:
    """대화 하나의 상태: 도구까지 간 요청 수와, 이 대화에서 실제로 조회한 재고."""

    def __init__(self):
        self.attempts = 0
        self.stock_seen = {}   # 책 번호 → 이 대화의 lookup_stock이 돌려준 수량


def check_lookup(conversation, args):
    """초안은 이 대화에서 조회한 재고로만 허락한다. 모델의 말이나 재고 표를 믿지 않는다."""
    # TODO(실습 2): 지금은 아무것도 확인하지 않아 초안이 곧바로 만들어진다. 위 docstring의 약속대로
    #   작성하세요. 무엇을 근거로 허락할지, 어떤 경우에 보류할지(보류 사유 이름은 lookup_required,
    #   insufficient_stock)는 직접 정합니다. 허락하면 None을 돌려줍니다.
    return None


def run_tool(name, args, conversation, store):
    """도구를 실행한다. LOSE_REPLY_ONCE에 든 요청 번호는 한 번, 일을 마친 뒤 결과를 잃는다."""
    if name == "lookup_stock":
        conversation.stock_seen[args["book_id"]] = STOCK[args["book_id"]]
        return f"조회: {args['book_id']} available={STOCK[args['book_id']]} (checked_at {CHECKED_AT})"
    draft = store.find_retry(args)
    is_new = draft is None
    if is_new:                        # 처음 보는 요청 번호일 때만 재고 조건을 보고 새로 만든다
        check_lookup(conversation, args)
        draft = store.add(args)
    if args["request_id"] in LOSE_REPLY_ONCE:
        LOSE_REPLY_ONCE.discard(args["request_id"])
        raise ReplyLost(f"simulated_reply_lost_after_create: {draft['draft_id']} 저장 직후 연결이 끊김")
    how = "새로 만듦" if is_new else "기존 초안을 돌려줌"
    return f"결과 전달: {draft['draft_id']} status={draft['status']} ({how})"


def replay(label, replies, store):
    """대화 하나를 재생하고 (도구까지 간 요청 수, 이 대화에서 새로 생긴 초안 수)를 돌려준다."""
    print(f"== 대화 {label} ==")
    conversation = Conversation()
    drafts_before = len(store.drafts)
    for number, text in enumerate(replies, start=1):
        try:
            name, args = check_contract(read_proposal(text))
        except Refused as why:
            print(f"[{number}] 거절, 도구에 넘기지 않음 ({why}). 시도로 세지 않음")
            continue
        if conversation.attempts >= ATTEMPT_BUDGET:
            print(f"[{number}] 시도 예산 {ATTEMPT_BUDGET}회를 다 써서 멈춤: 사람이 상태를 확인해야 함")
            break
        conversation.attempts += 1
        try:
            print(f"[{number}] {run_tool(name, args, conversation, store)}")
        except Held as why:
            print(f"[{number}] 보류, 아무것도 만들지 않음 ({why})")
        except ReplyLost as why:
            print(f"[{number}] 응답 유실 ({why}). 모델은 결과를 받지 못함")
    return conversation.attempts, len(store.drafts) - drafts_before


def main():
    store = DraftStore()
    results = {}
    for label, replies in CONVERSATIONS:
        attempts, new = results[label] = replay(label, replies, store)
        if label == "R101":   # 원래 대화의 수치: 도구까지 간 시도와 보관함의 초안 수
            print(f"R101 재현: 받은 응답 {len(replies)}, 시도 {attempts}, 초안 {len(store.drafts)}")
        else:
            print(f"{label}: 받은 응답 {len(replies)}, 시도 {attempts}, 새 초안 {new}")
    print(f"보관함의 초안: {', '.join(d['draft_id'] for d in store.drafts) or '없음'}")
    assert results["R101"] == (3, 1), f"R101은 시도 3, 새 초안 1이어야 하는데 {results['R101']}입니다"
    assert results["R202"][1] == 0, "재고가 0권인 B22로 초안이 만들어졌습니다"
    assert results["R101 충돌"][1] == 0, "같은 번호에 다른 인자가 온 요청이 새 초안을 만들었습니다"
    assert len(store.drafts) == 1, f"보관함의 초안은 1건이어야 하는데 {len(store.drafts)}건입니다"


if __name__ == "__main__":
    main()
