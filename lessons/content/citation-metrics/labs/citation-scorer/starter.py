"""인용 재현율과 인용 정밀도를 사람의 판정표로 재는 채점기 (시작 코드).

기록해 둔 가상의 모델 답변 네 개(answers.json)가 주장마다 안내문 줄 번호를 인용했다. 사람이
주장마다 적은 판정표(judgements.json)가 기준이다. 이 둘을 맞대어 점수를 내는 부분을 직접 설계한다.

규칙 (레슨의 「실제로 어떻게 동작하나」에서 정한 것):
1. 사람이 "근거가 필요 없다"고 표시한 주장은 재현율에도 정밀도에도 넣지 않는다.
2. 인용이 없는 주장은 재현 0이고, 정밀도에는 나눌 인용이 없으니 넣지 않는다(정밀 -).
3. 같은 줄을 여러 번 인용해도 한 번으로 센다.
4. 원문에 없는 줄 번호도 인용으로 센다. 그 줄은 아무것도 받치지 않는다.
5. 줄이 주장을 받치는지는 relevant()로만, 곧 사람의 판정표로만 묻는다.
재현: 인용한 (원문에 있는) 줄들이 enough_sets()의 묶음 하나를 통째로 담으면 1, 아니면 0.
정밀: 인용한 줄 가운데 relevant()인 줄의 수 / 인용한 줄의 수.
미시: 근거가 필요한 모든 주장을 한데 모아 한 번에 나눈 값.
거시: 답변마다 낸 재현율·정밀도의 평균 (잴 것이 없는 답변은 그 평균에서 뺀다).

출력해야 할 줄 (실습의 확인이 이 모양을 글자 그대로 찾는다):
  주장마다   "  X1 인용 [2, 9, 9] → 재현 1, 정밀 1/2"      (X1, X2, X3은 모양만 보이는 가짜 주장.
             "  X2 인용 없음 → 재현 0, 정밀 -"               인용 목록은 답변에 적힌 그대로 찍고,
             "  X3 제외: 근거가 필요 없는 문장 (사람 판정)"   뒤에 "(없는 줄 9)" 같은 메모는 자유)
  끝에 네 줄 "미시 인용 재현율 a/b = 0.xxx"                 (ratio(a, b)를 쓰면 이 모양이 된다)
             "미시 인용 정밀도 …"
             "거시 인용 재현율 0.xxx (답변 N개 평균)"          (소수 셋째 자리까지)
             "거시 인용 정밀도 0.xxx (답변 N개 평균, 잴 인용이 없는 답변 M개 제외)"
값은 실행하기 전에 손으로 먼저 계산해 두고, 출력과 맞춰 본다.
"""

import json

with open("hanbit-classes.txt", encoding="utf-8") as source:
    LINES = {number: text for number, text in enumerate(source.read().splitlines(), start=1)}
with open("answers.json", encoding="utf-8") as f:
    ANSWERS = json.load(f)["answers"]
with open("judgements.json", encoding="utf-8") as f:
    JUDGED = json.load(f)["claims"]


def needs_support(claim):
    """사람의 판정: 이 주장은 원문의 뒷받침이 필요한가 (인사말·권유는 필요 없다)."""
    return JUDGED[claim["id"]]["needs_support"]


def enough_sets(claim):
    """사람의 판정: 함께 인용하면 주장 전체를 받치기에 충분한 줄 묶음들 (없으면 빈 목록)."""
    return [set(group) for group in JUDGED[claim["id"]]["enough"]]


def relevant(claim, line_no):
    """사람의 판정: 이 줄이 이 주장의 어느 부분이라도 받치는가."""
    return line_no in JUDGED[claim["id"]]["support"]


def shares_word(line, text):
    """두 글에 띄어쓰기 단위로 같은 낱말이 하나라도 있는가. 채점에 쓰지 않는다 (실패 주입에서만 쓴다)."""
    def words(s):
        return {w.strip(".,!?()") for w in s.split()} - {""}
    return bool(words(line) & words(text))


def ratio(num, den):
    return f"{num}/{den} = {num / den:.3f}"


# TODO(실습): 여기에 채점기를 설계한다.
#   - 주장 하나의 결과를 무엇으로 돌려줄지(재현, 받치는 줄 수, 인용한 줄 수, 잴 수 없음을 어떻게
#     나타낼지) 정하고, 위의 규칙 1~5를 모두 지키는 함수를 쓴다.
#   - 답변마다 합계를 내고, 네 답변 전체의 미시·거시 수치를 낸다. 0으로 나누는 곳이 어디인지 먼저 찾는다.


def main():
    print(f"안내문 {len(LINES)}줄, 답변 {len(ANSWERS)}개, 판정표 {len(JUDGED)}개 주장")
    for answer in ANSWERS:
        print(f"답변 {answer['id']}: {answer['question']}")
        for claim in answer["claims"]:
            judged = JUDGED[claim["id"]]
            print(f"  {claim['id']} 인용 {claim['cites']} | 판정표: 근거 필요 {judged['needs_support']}, "
                  f"받치는 줄 {judged['support']}, 충분한 묶음 {judged['enough']}")
    # TODO(실습): 위의 자료 출력 대신, 주장마다의 점수 줄과 답변 합계, 끝의 네 줄을 출력한다.


if __name__ == "__main__":
    main()
