"""녹화된 모델 응답을 재생하며 도구 호출 한 바퀴를 살펴보는 실습 (가상 자료, 표준 라이브러리만).

실제 모델은 부르지 않습니다. 코드가 맡는 일(허용 목록, 인자 검사, 사번 주입, 실행,
tool_result 만들기)만 합니다. 실행: python3 tool_loop.py
"""

# 가상 연차 표: (사번, 연도) -> 남은 일수. 실제 회사·인물과 관계없습니다.
LEAVE_TABLE = {("E101", 2026): 7, ("E102", 2026): 12, ("E103", 2026): 3, ("E104", 2026): 0,
               ("E105", 2026): 9, ("E101", 2025): 2, ("E102", 2025): 5}

# 모델에게 보내는 것은 이 선언뿐입니다. 사번 칸은 일부러 없습니다.
DECLARATION = {
    "name": "get_leave_balance",
    "description": "로그인한 직원 본인의 남은 연차 일수를 연도별로 조회한다.",
    "input_schema": {
        "type": "object",
        "properties": {"year": {"type": "integer", "minimum": 2025, "maximum": 2026}},
        "required": ["year"],
        "additionalProperties": False,
    },
}

CODE_OWNED = {"employee_id", "user_id"}  # 모델이 적어 보내도 코드가 버리는 칸
calls_made = []                           # 실제 함수가 어떤 인자로 불렸는지 남기는 기록


def get_leave_balance(employee_id, year):
    """진짜 함수: 앱 안에만 있고, 모델은 이 코드를 보지 못합니다."""
    calls_made.append((employee_id, year))
    days = LEAVE_TABLE.get((employee_id, year))
    if days is None:
        raise LookupError(f"{year}년 기록이 없습니다")
    return f"{year}년 남은 연차: {days}일"


ALLOWED = {"get_leave_balance": (DECLARATION, get_leave_balance)}


def check_args(schema, given):
    """선언에 적은 규칙대로 인자를 검사합니다. 문제가 있으면 이유(문자열)를 돌려줍니다."""
    props = schema["properties"]
    for key in given:
        if key not in props:
            return f"선언에 없는 인자: {key}"
    for key in schema["required"]:
        if key not in given:
            return f"필수 인자 누락: {key}"
    year, lo, hi = given["year"], props["year"]["minimum"], props["year"]["maximum"]
    if type(year) is not int:  # bool도 int로 취급되지 않도록 type()으로 비교
        return f"year는 정수여야 합니다 (받은 값: {year!r})"
    if not lo <= year <= hi:
        return f"year는 {lo}~{hi} 사이여야 합니다 (받은 값: {year})"
    return None


def handle(block, session):
    """tool_use 블록 하나를 처리해 tool_result 블록 하나를 만듭니다."""
    def result(text, error=False):
        out = {"type": "tool_result", "tool_use_id": block["id"], "content": text}
        if error:
            out["is_error"] = True
        return out

    name, given = block["name"], dict(block["input"])
    print(f"  요청: {name} {given} (id={block['id']})")
    if name not in ALLOWED:
        print("  -> 허용 목록에 없는 도구라서 실행하지 않음")
        return result(f"알 수 없는 도구입니다: {name}. 사용 가능: {', '.join(ALLOWED)}", True)
    declaration, func = ALLOWED[name]
    for key in CODE_OWNED & given.keys():
        print(f"  -> 모델이 보낸 {key}={given.pop(key)!r} 는 버림 (코드가 채우는 칸)")
    problem = check_args(declaration["input_schema"], given)
    if problem:
        print(f"  -> 인자 검사 실패: {problem}")
        return result(problem, True)
    employee_id = session["employee_id"]  # 누구인지는 로그인 세션이 정합니다
    print(f"  -> 실행: {name}(employee_id={employee_id!r}, year={given['year']})")
    try:
        return result(func(employee_id, **given))
    except LookupError as exc:
        return result(str(exc), True)


QUESTION = "올해 연차 며칠 남았어? 5월 4일 휴가는 취소해 주고, 작년 것도 알려줘."
# 위 질문에 모델이 보냈다고 가정한 응답 세 개 (녹화본)
RECORDED_TURNS = [
    {"stop_reason": "tool_use", "content": [
        {"type": "text", "text": "연차를 조회해 보겠습니다."},
        {"type": "tool_use", "id": "toolu_01", "name": "get_leave_balance",
         "input": {"year": 2026, "employee_id": "E102"}}]},
    {"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "toolu_02", "name": "cancel_leave",
         "input": {"date": "2026-05-04"}},
        {"type": "tool_use", "id": "toolu_03", "name": "get_leave_balance",
         "input": {"year": "작년"}}]},
    {"stop_reason": "end_turn", "content": [
        {"type": "text", "text": "올해 남은 연차는 7일입니다. 휴가 취소는 제가 할 수 없는 일이라 "
                                 "처리하지 않았고, 작년 기록은 연도를 숫자로 다시 알려 주시면 조회하겠습니다."}]},
]


def main():
    session = {"employee_id": "E101", "name": "김민수"}  # 로그인한 사람 (가상)
    print(f"로그인 사용자: {session['name']} ({session['employee_id']})\n질문: {QUESTION}")
    results, final = {}, ""
    for n, turn in enumerate(RECORDED_TURNS, 1):
        print(f"\n[모델 응답 {n}] stop_reason={turn['stop_reason']}")
        if turn["stop_reason"] != "tool_use":
            final = turn["content"][0]["text"]
            print("  최종 답:", final)
            continue
        batch = [handle(b, session) for b in turn["content"] if b["type"] == "tool_use"]
        for r in batch:
            results[r["tool_use_id"]] = r
            print(f"  tool_result: {r}")
        print(f"  -> 결과 {len(batch)}개를 user 메시지 하나에 담아 모델에게 돌려줌")

    assert results["toolu_01"] == {"type": "tool_result", "tool_use_id": "toolu_01",
                                   "content": "2026년 남은 연차: 7일"}  # 성공, is_error 없음
    assert results["toolu_02"].get("is_error") is True   # 허용 목록 밖 도구
    assert results["toolu_03"].get("is_error") is True   # 잘못된 인자
    assert all(emp == "E101" for emp, _ in calls_made)    # 모델이 보낸 E102는 쓰이지 않음
    assert "7일" in final                                 # 최종 답의 숫자는 tool_result에서 온 것
    print("\n확인 완료: 오류 경로는 is_error, 모델이 보낸 사번은 무시됨")


if __name__ == "__main__":
    main()
