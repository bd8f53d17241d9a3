"""인용 재현율과 인용 정밀도를 사람의 판정표로 재는 채점기 (참고 답안).

기록해 둔 가상의 모델 답변 네 개(answers.json)가 주장마다 안내문 줄 번호를 인용했다. 사람이
주장마다 적은 판정표(judgements.json)가 기준이다. 이 프로그램은 그 둘을 맞대어

- 주장마다: 인용 재현(인용한 줄을 모두 모으면 주장 전체를 받치기에 충분한가, 1 또는 0)과
  인용 정밀(인용한 줄 가운데 주장의 어느 부분이라도 받치는 줄이 몇 개인가)을,
- 답변마다, 그리고 네 답변 전체의 미시(모두 합쳐 한 번에 나눈 값)와 거시(답변마다 낸 값의
  평균) 수치를 출력한다.

규칙:
1. 사람이 "근거가 필요 없다"고 표시한 주장은 재현율에도 정밀도에도 넣지 않는다.
2. 인용이 없는 주장은 재현 0이고, 정밀도에는 나눌 인용이 없으니 넣지 않는다(정밀 -).
3. 같은 줄을 여러 번 인용해도 한 번으로 센다.
4. 원문에 없는 줄 번호도 인용으로 센다. 그 줄은 아무것도 받치지 않는다.
5. 줄이 주장을 받치는지는 relevant()로만, 곧 사람의 판정표로만 묻는다.
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


def score_claim(claim):
    """주장 하나의 점수. 근거가 필요 없는 주장이면 None."""
    if not needs_support(claim):
        return None
    cited = list(dict.fromkeys(claim["cites"]))   # 같은 줄은 한 번만, 처음 나온 순서대로
    repeated = sorted({n for n in claim["cites"] if claim["cites"].count(n) > 1})
    missing = [n for n in cited if n not in LINES]
    if not cited:
        return {"recall": 0, "hits": 0, "cited": 0, "repeated": [], "missing": []}
    valid = {n for n in cited if n in LINES}
    recall = 1 if any(group <= valid for group in enough_sets(claim)) else 0
    hits = sum(1 for n in cited if n in LINES and relevant(claim, n))
    return {"recall": recall, "hits": hits, "cited": len(cited), "repeated": repeated, "missing": missing}


def claim_line(claim, score):
    if score is None:
        return f"  {claim['id']} 제외: 근거가 필요 없는 문장 (사람 판정)"
    if not score["cited"]:
        return f"  {claim['id']} 인용 없음 → 재현 0, 정밀 -"
    notes = [f"겹친 줄 {', '.join(map(str, score['repeated']))}"] if score["repeated"] else []
    notes += [f"없는 줄 {', '.join(map(str, score['missing']))}"] if score["missing"] else []
    tail = f" ({'; '.join(notes)})" if notes else ""
    return (f"  {claim['id']} 인용 {claim['cites']} → 재현 {score['recall']}, "
            f"정밀 {score['hits']}/{score['cited']}{tail}")


def main():
    print(f"안내문 {len(LINES)}줄, 답변 {len(ANSWERS)}개, 판정표 {len(JUDGED)}개 주장")
    every = []            # 근거가 필요한 모든 주장의 점수 (미시)
    per_answer = []       # 답변마다 (재현율 또는 None, 정밀도 또는 None) (거시)
    for answer in ANSWERS:
        print(f"답변 {answer['id']}: {answer['question']}")
        scores = []
        for claim in answer["claims"]:
            score = score_claim(claim)
            print(claim_line(claim, score))
            if score is not None:
                scores.append(score)
        r_num, r_den = sum(s["recall"] for s in scores), len(scores)
        p_num, p_den = sum(s["hits"] for s in scores), sum(s["cited"] for s in scores)
        recall = r_num / r_den if r_den else None
        precision = p_num / p_den if p_den else None
        shown_r = f"{r_num}/{r_den}" if r_den else "-"
        shown_p = f"{p_num}/{p_den}" if p_den else "-"
        print(f"답변 {answer['id']} 합계: 재현 {shown_r}, 정밀 {shown_p}")
        per_answer.append((recall, precision))
        every.extend(scores)

    print(f"미시 인용 재현율 {ratio(sum(s['recall'] for s in every), len(every))}")
    print(f"미시 인용 정밀도 {ratio(sum(s['hits'] for s in every), sum(s['cited'] for s in every))}")
    recalls = [r for r, _ in per_answer if r is not None]
    precisions = [p for _, p in per_answer if p is not None]
    left_out = len(per_answer) - len(precisions)
    print(f"거시 인용 재현율 {sum(recalls) / len(recalls):.3f} (답변 {len(recalls)}개 평균)")
    print(f"거시 인용 정밀도 {sum(precisions) / len(precisions):.3f} (답변 {len(precisions)}개 평균, "
          f"잴 인용이 없는 답변 {left_out}개 제외)")


if __name__ == "__main__":
    main()
