#!/usr/bin/env python3
"""가람책방(가상) 안내문에 대해 내가 내린 판단과 인용한 줄 번호를 점검한다.

표준 라이브러리만 쓴다. 어느 폴더에서 실행해도 된다:
    python3 check_judgements.py
이 프로그램은 판단이 '맞는지'를 채점하지 않는다. 인용한 줄이 실제로 있는지,
'근거'라고 한 주장에 줄 번호가 붙어 있는지만 본다. 내용이 맞는지는 사람이 읽고 확인한다.
"""
import sys

# 안내문 원문. 사이트가 붙이는 줄 번호와 같도록 1번부터 센다.
NOTICE = [
    "가람책방 이용 안내 (가상 자료)",
    "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다.",
    "일요일과 월요일은 쉽니다.",
    "지하철 가람역 2번 출구에서 걸어서 5분 거리입니다.",
    "이달의 행사: 둘째 토요일 오후 3시 독서 모임 (정원 12명)",
    "행사 참가 신청은 누리집 신청서로 받습니다.",
    "행사 신청은 담당자 확인 뒤 확정되며, 확정되면 문자로 알려 드립니다.",
    "독서 모임 참가비는 무료입니다.",
    "문의는 책방 계산대나 누리집 게시판으로 해 주세요.",
]

JUDGEMENTS = ("근거", "자료없음", "보류")

# 내 판단: (주장, 판단, 인용한 줄 번호들). 이 목록을 고쳐 가며 실험해 본다.
CLAIMS = [
    ("토요일 17시에는 책방이 열려 있다", "근거", [2]),
    ("주차는 무료다", "자료없음", []),
    ("행사 신청서를 내면 바로 참가가 확정된다", "보류", [7]),
]


def check(claim, judgement, lines):
    """한 주장을 점검하고 (출력할 줄들, 통과 여부)를 돌려준다."""
    out = [f"주장: {claim}", f"  판단: {judgement}  인용: {lines or '없음'}"]
    ok = True
    if judgement not in JUDGEMENTS:
        out.append(f"  [문제] 판단은 {', '.join(JUDGEMENTS)} 가운데 하나여야 합니다.")
        ok = False
    valid = []
    for n in lines:
        if 1 <= n <= len(NOTICE):
            valid.append(n)
            out.append(f"  {n}번 줄 있음: {NOTICE[n - 1]}")
        else:
            out.append(f"  [문제] {n}번 줄은 안내문에 없습니다 (1~{len(NOTICE)}번까지 있음).")
    if judgement == "근거" and not valid:
        # 실제로 있는 줄을 하나도 가리키지 못하면 인용이 없는 것과 같다.
        out.append("  [문제] '근거'라고 했다면 안내문의 줄을 하나 이상 가리켜야 합니다.")
        ok = False
    if judgement == "자료없음" and valid:
        out.append("  [참고] '자료없음'인데 줄을 인용했습니다. 그 줄이 정말 이 질문과 무관한지 다시 읽어 보세요.")
    return out, ok


def main():
    failed = 0
    for claim, judgement, lines in CLAIMS:
        out, ok = check(claim, judgement, lines)
        print("\n".join(out))
        print("  => 통과" if ok else "  => 다시 보기")
        failed += 0 if ok else 1
    print(f"\n점검한 주장 {len(CLAIMS)}개, 다시 볼 주장 {failed}개")
    print("이 점검은 인용의 형식만 봅니다. 판단이 옳은지는 원문을 읽고 사람이 확인하세요.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
