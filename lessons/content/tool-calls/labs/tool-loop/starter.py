"""도구 호출 한 바퀴를 기록해 둔 모델 응답으로 네 번 돌려 보는 실습 (시작 코드).

실제 모델은 부르지 않는다. FakeModel이 시나리오마다 기록해 둔 응답을 차례로 내놓고,
받은 메시지 목록이 API의 규칙(도구 요청 바로 다음 user 메시지에 그 결과가 모두 있어야 함)을
지키는지 확인한다. 코드가 맡는 일은 허용 목록, 인자 검사, 사번 넣기, 실행, tool_result 만들기,
그리고 메시지 목록 쌓기다. 연차 표는 가상 자료 /sandbox/leave-balances.txt에서 읽는다.
"""

import re

# 모델에게 보내는 선언. 사번 칸은 일부러 없다. (strict 모드는 minimum/maximum을 강제하지 않으므로
# 범위 검사는 아래 check_args가 직접 한다.)
DECLARATION = {
    "name": "get_leave_balance",
    "description": "로그인한 직원 본인의 남은 연차 일수를 연도별로 조회한다. 휴가를 신청하거나 취소하지 않는다.",
    "input_schema": {
        "type": "object",
        "properties": {"year": {"type": "integer", "minimum": 2025, "maximum": 2026}},
        "required": ["year"],
        "additionalProperties": False,
    },
}
CODE_OWNED = {"employee_id", "user_id"}   # 모델이 적어 보내도 코드가 버리는 칸
MAX_MODEL_CALLS = 3                       # 한 질문에 모델을 부르는 횟수의 상한


class DatabaseDown(Exception):
    """연차 DB에 닿지 못했다 (시나리오 4에서 일부러 일으킨다)."""


class LeaveDB:
    """가상 연차 표. 한 줄 예: E101 김민수 2026년 연차 잔여 7일"""

    def __init__(self, path, down=False):
        self.down = down
        self.rows = {}
        for line in open(path, encoding="utf-8"):
            m = re.fullmatch(r"(E\d+) \S+ (\d{4})년 연차 잔여 (\d+)일", line.strip())
            if m:
                self.rows[(m[1], int(m[2]))] = int(m[3])
        self.calls = []                    # 실제 함수가 어떤 인자로 불렸는지

    def remaining(self, employee_id, year):
        self.calls.append((employee_id, year))
        if self.down:
            raise DatabaseDown("connection refused")
        if (employee_id, year) not in self.rows:
            raise LookupError(f"{year}년 기록이 없습니다")
        return self.rows[(employee_id, year)]


def check_args(schema, given):
    """선언의 규칙대로 인자를 검사한다. 문제가 있으면 이유를, 없으면 None을 돌려준다."""
    props = schema["properties"]
    extra = set(given) - set(props)
    if extra:
        return f"선언에 없는 인자: {', '.join(sorted(extra))}"
    for key in schema["required"]:
        if key not in given:
            return f"필수 인자 누락: {key}"
    year, lo, hi = given["year"], props["year"]["minimum"], props["year"]["maximum"]
    if type(year) is not int:
        return f"year는 정수여야 합니다 (받은 값: {year!r})"
    if not lo <= year <= hi:
        return f"year는 {lo}~{hi} 사이여야 합니다 (받은 값: {year})"
    return None


def tool_result(block, text, error=False):
    out = {"type": "tool_result", "tool_use_id": block["id"], "content": text}
    if error:
        out["is_error"] = True
    return out


def handle(block, session, db):
    """tool_use 블록 하나를 처리해 tool_result 블록 하나를 만든다. 실패도 결과로 돌려준다."""
    name, given = block["name"], dict(block["input"])
    if name != DECLARATION["name"]:
        return tool_result(block, f"알 수 없는 도구입니다: {name}", error=True)
    for key in sorted(CODE_OWNED & given.keys()):
        print(f"  {key}={given.pop(key)!r}는 버림 (코드가 채우는 칸)")
    problem = check_args(DECLARATION["input_schema"], given)
    if problem:
        return tool_result(block, problem, error=True)
    employee_id = session["employee_id"]   # 누구인지는 로그인 세션이 정한다
    try:
        days = db.remaining(employee_id, given["year"])
    except DatabaseDown:
        # 내부 사정(주소, 예외 원문)은 모델에게 넘기지 않는다.
        return tool_result(block, "연차 DB에 연결하지 못해 조회하지 못했습니다. 숫자를 추측하지 마세요.", error=True)
    except LookupError as exc:
        return tool_result(block, str(exc), error=True)
    print(f"  실행: get_leave_balance({employee_id}, {given['year']}) → {days}일")
    return tool_result(block, f"{given['year']}년 남은 연차: {days}일")


class ApiRuleBroken(Exception):
    """실제 API라면 400으로 거절했을 메시지 목록."""


def blocks(message, kind):
    """메시지 안에서 종류가 kind인 블록들 (글 하나짜리 메시지면 빈 목록)."""
    content = message["content"]
    return [b for b in content if b["type"] == kind] if isinstance(content, list) else []


class FakeModel:
    """기록해 둔 응답을 차례로 내놓는 가짜 모델. 그 전에 메시지 목록의 짝 규칙부터 확인한다."""

    def __init__(self, replies):
        self.replies = list(replies)

    def create(self, messages):
        for i, message in enumerate(messages):
            asked = [b["id"] for b in blocks(message, "tool_use")] if message["role"] == "assistant" else []
            if not asked:
                continue
            following = messages[i + 1] if i + 1 < len(messages) else {"role": "user", "content": []}
            answered = [b["tool_use_id"] for b in blocks(following, "tool_result")]
            if following["role"] != "user" or sorted(answered) != sorted(asked):
                raise ApiRuleBroken(f"요청 {asked} 바로 다음 user 메시지에 결과가 {answered}뿐임")
        return self.replies.pop(0)


def ask(question, replies, session, db):
    """질문 하나를 도구 호출 한 바퀴로 처리하고 (메시지 목록, 최종 답)을 돌려준다."""
    model = FakeModel(replies)
    messages = [{"role": "user", "content": question}]
    for _ in range(MAX_MODEL_CALLS):
        response = model.create(messages)
        messages.append({"role": "assistant", "content": response["content"]})   # 요청을 그대로 기록
        if response["stop_reason"] != "tool_use":
            return messages, "".join(b["text"] for b in response["content"] if b["type"] == "text")
        for block in response["content"]:
            if block["type"] == "tool_use":
                print(f"  요청 {block['id']}: {block['name']} {block['input']}")
                result = handle(block, session, db)
                flag = " [is_error]" if result.get("is_error") else ""
                print(f"  tool_result {block['id']}: {result['content']}{flag}")
                # TODO(실습): 지금은 결과 하나마다 user 메시지를 하나씩 붙인다. 요청이 하나면
                #   문제가 없지만, 한 응답에 요청이 둘 오면(병렬 호출) FakeModel이 거절한다.
                #   FakeModel.create가 확인하는 규칙을 읽고, 결과를 어디에 어떻게 붙일지 직접 정하세요.
                messages.append({"role": "user", "content": [result]})
    raise RuntimeError(f"모델을 {MAX_MODEL_CALLS}번 불러도 끝나지 않음")


def shape(messages):
    """메시지 목록을 한 줄로 줄여 보여 준다. 예: user(글) → assistant(tool_use toolu_01) → ..."""
    parts = []
    for m in messages:
        if isinstance(m["content"], str):
            inner = "글"
        else:
            inner = ", ".join(
                b["type"] if b["type"] == "text" else
                f"{b['type']} {b.get('id') or b.get('tool_use_id')}" + ("!" if b.get("is_error") else "")
                for b in m["content"])
        parts.append(f"{m['role']}({inner})")
    return " → ".join(parts)


def use(id_, year, **extra):
    return {"type": "tool_use", "id": id_, "name": "get_leave_balance", "input": {"year": year, **extra}}


def say(text):
    return {"type": "text", "text": text}


SCENARIOS = [
    ("일반 요청", "올해 연차 며칠 남았어?", False, [
        {"stop_reason": "tool_use", "content": [say("연차를 조회해 볼게요."), use("toolu_01", 2026, employee_id="E102")]},
        {"stop_reason": "end_turn", "content": [say("올해 남은 연차는 7일입니다.")]},
    ]),
    ("병렬 호출", "올해랑 작년 연차 둘 다 알려 줘.", False, [
        {"stop_reason": "tool_use", "content": [use("toolu_11", 2026), use("toolu_12", 2025)]},
        {"stop_reason": "end_turn", "content": [say("올해는 7일, 작년에는 2일이 남았습니다.")]},
    ]),
    ("도구가 필요 없는 인사", "안녕?", False, [
        {"stop_reason": "end_turn", "content": [say("안녕하세요! 연차가 궁금하면 물어보세요.")]},
    ]),
    ("DB 조회 실패", "올해 연차 며칠 남았어?", True, [
        {"stop_reason": "tool_use", "content": [use("toolu_31", 2026)]},
        {"stop_reason": "end_turn", "content": [say("지금은 연차 시스템에 연결되지 않아 확인하지 못했어요. 잠시 뒤 다시 물어봐 주세요.")]},
    ]),
]


def main():
    session = {"employee_id": "E101", "name": "김민수"}    # 로그인한 사람 (가상)
    outcomes = {}
    for number, (title, question, down, replies) in enumerate(SCENARIOS, start=1):
        print(f"== 시나리오 {number}: {title} ==\n질문: {question}")
        db = LeaveDB("leave-balances.txt", down=down)
        messages, final = ask(question, replies, session, db)
        print(f"  최종 답: {final}")
        print(f"메시지 목록 {number}: {shape(messages)}")
        outcomes[number] = (messages, final, db.calls)

    m1, final1, calls1 = outcomes[1]
    assert calls1 == [("E101", 2026)], f"실행은 세션의 E101로 한 번이어야 함: {calls1}"
    assert m1[2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01", "content": "2026년 남은 연차: 7일"}]}
    assert "7일" in final1

    m2, final2, calls2 = outcomes[2]
    assert len(m2) == 4, f"병렬 호출 결과는 user 메시지 하나에 모아야 함 (메시지 {len(m2)}개)"
    assert [b["tool_use_id"] for b in m2[2]["content"]] == ["toolu_11", "toolu_12"]
    assert sorted(calls2) == [("E101", 2025), ("E101", 2026)]

    m3, final3, calls3 = outcomes[3]
    assert [m["role"] for m in m3] == ["user", "assistant"] and calls3 == [], "인사에는 도구가 없어야 함"

    m4, final4, calls4 = outcomes[4]
    failed = m4[2]["content"][0]
    assert failed.get("is_error") is True, f"DB 실패는 is_error로 돌려줘야 함: {failed}"
    assert "connection refused" not in failed["content"], "내부 오류 원문은 모델에게 넘기지 않음"
    assert not re.search(r"\d+일", final4), "조회하지 못했는데 최종 답에 일수가 있음"
    print("네 시나리오 모두 검사 통과")


if __name__ == "__main__":
    main()
