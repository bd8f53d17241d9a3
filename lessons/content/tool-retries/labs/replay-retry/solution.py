"""녹화해 둔 모델 제안 세 개를 다시 돌려 보는 재시도 실습 (정답 코드).

모델은 부르지 않는다. 아래 REPLAYED_REPLIES에 적힌 글을 모델이 보냈다고 치고,
실행기가 하나씩 받아 읽기 → 계약 검사 → 실행 순서로 처리한다.
재고, 책 번호, 요청 번호, 초안은 모두 지어낸 연습용 값이다.
"""

import json

# 모델이 보냈다고 가정한 응답 세 개. 순서대로 재생한다.
REPLAYED_REPLIES = [
    # 1) 설명 글과 코드 울타리가 앞뒤에 붙어서 JSON으로 읽히지 않는다.
    '초안 요청을 보냅니다!\n```json\n{"name": "create_draft", "arguments": '
    '{"request_id": "R101", "book_id": "B17", "quantity": 2}}\n```\n확인 부탁드려요.',
    # 2) 형식도 계약도 맞는 초안 요청. 실행은 되지만 결과가 모델에게 닿지 못한다.
    '{"name": "create_draft", "arguments": {"request_id": "R101", "book_id": "B17",'
    ' "quantity": 2, "note": "B17 두 권, 담당자 확인 전 임시 메모"}}',
    # 3) 결과를 못 받은 모델이 같은 요청 번호, 같은 인수로 다시 보낸다.
    '{"name": "create_draft", "arguments": {"request_id": "R101", "book_id": "B17",'
    ' "quantity": 2, "note": "B17 두 권, 담당자 확인 전 임시 메모"}}',
]

ATTEMPT_BUDGET = 4            # 응답을 이만큼 받아 보고도 못 끝내면 사람에게 넘긴다
KNOWN_BOOKS = {"B17", "B22"}
STOCK = {"B17": 2, "B22": 0}  # 가상 재고

# 허용 목록: 도구 이름 → 받아야 하는 인수 이름들 (정확히 이것만)
ALLOWED_TOOLS = {
    "lookup_stock": {"book_id"},
    "create_draft": {"request_id", "book_id", "quantity", "note"},
}


class Refused(Exception):
    """읽을 수 없거나 계약에 어긋나서 실행하지 않은 응답."""


class RequestConflict(Exception):
    """이미 쓰인 요청 번호에 다른 내용이 왔다."""


class ReplyLost(Exception):
    """도구는 일을 마쳤는데 그 결과가 모델에게 전달되지 못했다."""


def read_proposal(text):
    """응답 글 전체가 JSON 객체 하나여야 한다. 중괄호만 오려 내 살리지 않는다."""
    try:
        proposal = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused(f"JSON으로 읽을 수 없음 ({exc.msg}, {exc.pos + 1}번째 글자)") from None
    if not isinstance(proposal, dict) or set(proposal) != {"name", "arguments"}:
        raise Refused("name과 arguments 두 칸만 있는 객체가 아님")
    return proposal


def check_contract(proposal):
    """허용 목록과 인수 약속을 확인한다. 통과하면 (이름, 인수)를 돌려준다."""
    name, args = proposal["name"], proposal["arguments"]
    if name not in ALLOWED_TOOLS:
        raise Refused(f"허용 목록에 없는 도구: {name}")
    if not isinstance(args, dict) or set(args) != ALLOWED_TOOLS[name]:
        raise Refused(f"{name}의 인수 이름이 약속과 다름")
    if not isinstance(args["book_id"], str) or args["book_id"] not in KNOWN_BOOKS:
        raise Refused(f"모르는 책 번호: {args['book_id']}")
    if name == "create_draft":
        qty = args["quantity"]
        if type(qty) is not int or not 1 <= qty <= 3:
            raise Refused(f"수량은 1~3 사이 정수여야 함 (받은 값: {qty!r})")
        if not isinstance(args["request_id"], str) or not isinstance(args["note"], str):
            raise Refused("request_id와 note는 글자여야 함")
    return name, args


class DraftStore:
    """메모리 안의 초안 보관함. 요청 번호 하나에 초안 하나."""

    def __init__(self):
        self.drafts = []       # 지금까지 만들어진 초안 전부
        self.by_request = {}   # 요청 번호 → 그 번호로 만든 초안

    def create(self, args):
        key = args["request_id"]
        found = self.by_request.get(key)
        if found is not None:
            if found["args"] != args:
                raise RequestConflict(f"{key}는 이미 다른 내용으로 쓰였음")
            return found, False            # 새로 만들지 않고 있던 것을 돌려준다
        draft = {"draft_id": f"DRAFT-{len(self.drafts) + 1:02d}", "status": "draft", "args": dict(args)}
        self.drafts.append(draft)
        self.by_request[key] = draft
        return draft, True


def run_tool(name, args, store, lose_reply_for):
    """실제 작업을 하는 곳. lose_reply_for에 든 요청 번호는 한 번, 일을 마친 뒤 결과를 잃는다."""
    if name == "lookup_stock":
        return {"book_id": args["book_id"], "available": STOCK[args["book_id"]]}
    draft, is_new = store.create(args)
    if args["request_id"] in lose_reply_for:
        lose_reply_for.discard(args["request_id"])
        raise ReplyLost(f"초안 {draft['draft_id']} 저장 직후 연결이 끊김")
    return {"draft_id": draft["draft_id"], "status": draft["status"], "new": is_new}


def main():
    store = DraftStore()
    lose_reply_for = {"R101"}   # 이 요청의 첫 결과는 모델에게 닿지 못한다
    attempts = 0

    for number, text in enumerate(REPLAYED_REPLIES, start=1):
        if attempts >= ATTEMPT_BUDGET:
            print(f"[{number}] 시도 예산 {ATTEMPT_BUDGET}회를 다 써서 멈춤: 사람이 상태를 확인해야 함")
            break
        attempts += 1
        try:
            name, args = check_contract(read_proposal(text))
            print(f"[{number}] 검사 통과: {name} {args.get('request_id', '')} {args['book_id']}")
            result = run_tool(name, args, store, lose_reply_for)
        except Refused as why:
            print(f"[{number}] 거절, 실행하지 않음: {why}")
        except RequestConflict as why:
            print(f"[{number}] 충돌로 보류: {why}")
        except ReplyLost as why:
            print(f"[{number}] 응답 유실: {why}. 모델은 결과를 받지 못함")
        else:
            how = "새로 만듦" if result.get("new") else "기존 초안을 돌려줌"
            print(f"[{number}] 결과 전달: {result['draft_id']} ({result['status']}, {how})")

    print(f"보관함의 초안: {', '.join(d['draft_id'] for d in store.drafts) or '없음'}")
    print(f"시도 {attempts}, 초안 {len(store.drafts)}")
    assert attempts == 3, f"시도는 3번이어야 하는데 {attempts}번입니다"
    assert len(store.drafts) == 1, f"초안은 1건이어야 하는데 {len(store.drafts)}건입니다"


if __name__ == "__main__":
    main()
