"""구조화된 출력 검사기: 모델이 낸 환불 JSON은 '제안'으로만 접수한다 (가상 자료, 표준 라이브러리만).

실제 모델은 부르지 않습니다. 모델이 보냈다고 가정하고 손으로 적어 둔 응답(기록해 둔 응답)을
1) JSON으로 해석하고, 2) 손으로 쓴 스키마와 대조하고, 3) 모델이 정해도 되는 상태인지 확인합니다.
환불을 실제로 실행하는 코드는 이 파일 어디에도 없습니다.
"""

import json
import re

# 모델이 보냈다고 가정한 응답. 가람책방, 주문번호, 금액은 모두 지어낸 값입니다.
RECORDED_REPLY = """
{
  "request_id": "RF-0412",
  "order_id": "GR-1187",
  "amount": 18000,
  "reason": "파본",
  "status": "needs_review",
  "evidence_lines": [2, 4]
}
"""

# 환불 기록 테이블의 상태 칸을 그대로 옮긴 스키마입니다. 그래서 허용값에 approved도 들어 있습니다.
# 형식 검사만으로는 approved를 막지 못한다는 점이 이 실습의 핵심입니다.
PROPOSAL_SCHEMA = {
    "request_id": {"type": str, "pattern": r"RF-\d{4}"},
    "order_id": {"type": str, "pattern": r"GR-\d{4}"},
    "amount": {"type": int, "minimum": 1},
    "reason": {"type": str, "enum": ["파본", "오배송", "단순 변심"]},
    "status": {"type": str, "enum": ["pending", "needs_review", "approved", "rejected"]},
    "evidence_lines": {"type": list, "items": int, "min_items": 1},
}

MODEL_MAY_PROPOSE = {"pending", "needs_review"}  # 모델이 적어도 되는 상태
PERSON_ONLY = {"approved", "rejected"}            # 로그인한 담당자만 정하는 상태


def validate(data, schema):
    """스키마와 어긋나는 곳을 한국어 문장 목록으로 돌려줍니다. 빈 목록이면 형식은 맞습니다."""
    if type(data) is not dict:
        return [f"최상위 값이 객체가 아닙니다: {type(data).__name__}"]
    problems = [f"빠진 필드: {name}" for name in schema if name not in data]
    problems += [f"스키마에 없는 필드: {name}" for name in data if name not in schema]
    for name, rule in schema.items():
        if name not in data:
            continue
        value = data[name]
        # type()으로 비교해야 True/False가 정수 칸을 통과하지 못합니다.
        if type(value) is not rule["type"]:
            problems.append(f"{name}의 타입이 틀렸습니다 (기대: {rule['type'].__name__}, 받은 값: {value!r})")
            continue
        if "pattern" in rule and not re.fullmatch(rule["pattern"], value):
            problems.append(f"{name}의 모양이 틀렸습니다: {value!r}")
        if "minimum" in rule and value < rule["minimum"]:
            problems.append(f"{name} 값이 {rule['minimum']}보다 작습니다: {value!r}")
        if "enum" in rule and value not in rule["enum"]:
            problems.append(f"{name}에 허용되지 않은 값: {value!r}")
        if "items" in rule:
            if len(value) < rule["min_items"]:
                problems.append(f"{name} 목록이 비어 있습니다")
            wrong = [item for item in value if type(item) is not rule["items"]]
            if wrong:
                problems.append(f"{name}에 {rule['items'].__name__} 타입이 아닌 항목: {wrong!r}")
    return problems


def type_self_test(proposal, schema):
    """정수 칸에 True가 들어간 사본을 validate가 정말 거절하는지 확인합니다.

    파이썬에서 bool은 int의 하위 타입이라 isinstance(True, int)가 참입니다. 모델이 금액 대신
    true를 적어도 형식 검사가 1원으로 받아들이면 안 되므로, 사본 두 개로 직접 시험합니다.
    """
    for label, forged in (
        ("amount=True", dict(proposal, amount=True)),
        ("evidence_lines=[True]", dict(proposal, evidence_lines=[True])),
    ):
        if not validate(forged, schema):
            raise SystemExit(
                f"자체 점검 실패: {label}인 사본이 형식 검사를 그냥 통과했습니다. validate의 타입 비교를 확인하세요."
            )
    print("1단계 자체 점검: amount=True, evidence_lines=[True] 사본은 타입 오류로 거절")


def check_authority(proposal):
    """형식이 맞아도, 모델이 정할 수 없는 상태라면 여기서 멈춥니다.

    약속: 모델이 정해도 되는 상태의 제안이면 아무 일 없이 돌아온다. 그 밖의 상태라면
    (사람만 정하는 상태든, 어느 목록에도 없는 상태든) 예외로 멈추고, 메시지에는 그 상태 이름과
    왜 모델이 정할 수 없는지를 적는다. 어떤 예외를 쓸지, 검사를 몇 개로 나눌지는 직접 정한다.
    """
    status = proposal["status"]
    # ---------------------------------------------------------------
    # TODO(실습): 위 약속대로 이 함수의 몸통을 작성하세요. 위에 정의된 상태 목록을 읽어 보세요.
    # 지금은 아무것도 확인하지 않으므로 아래 self_test가 실패합니다.
    # ---------------------------------------------------------------


def self_test(proposal):
    """검사기가 사람 전용 상태를 정말 막는지, 상태만 바꾼 사본으로 확인합니다."""
    for forged_status in sorted(PERSON_ONLY):
        forged = dict(proposal, status=forged_status)
        try:
            check_authority(forged)
        except (AssertionError, PermissionError):  # assert (실습) 또는 raise PermissionError (실제 서비스)
            continue
        raise SystemExit(
            f"자체 점검 실패: status={forged_status!r}인 사본이 권한 검사를 그냥 통과했습니다. "
            "check_authority를 확인하세요."
        )


def main():
    print("기록해 둔 모델 응답을 읽습니다 (가상 자료, 실제 모델 호출 없음)")
    try:
        proposal = json.loads(RECORDED_REPLY)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"JSON으로 읽을 수 없습니다: {exc}")

    problems = validate(proposal, PROPOSAL_SCHEMA)
    assert not problems, "형식 검사 실패: " + "; ".join(problems)
    print(f"1단계 형식: 필드 {len(proposal)}개, 타입과 허용값 모두 스키마와 일치")
    type_self_test(proposal, PROPOSAL_SCHEMA)

    check_authority(proposal)
    self_test(proposal)
    print(f"2단계 권한: status={proposal['status']!r}는 모델이 제안할 수 있는 값")

    print("환불 실행: 하지 않음 (승인과 지급은 담당자가 따로 기록)")
    print(f"검사 통과: 제안으로 접수됨 ({proposal['request_id']}, {proposal['amount']:,}원, 담당자 확인 대기)")


main()
