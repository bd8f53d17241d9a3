"""장난감 2차원 임베딩 검색 (가상 자료, 표준 라이브러리만).

좌표는 사람이 손으로 정한 숫자입니다. 어떤 임베딩 모델도 이 숫자를 만들지 않았고,
이 프로그램도 모델이나 벡터 데이터베이스를 부르지 않습니다. 검색의 단계를
눈으로 따라가 보려는 모형일 뿐, 실제 임베딩 검색의 품질을 보여 주지 않습니다.
"""

import math
import re

CURRENT_VERSION = 2  # 지금 시행 중인 안내문 판

# 가람책방(가상)의 안내 조각. vec는 사람이 정한 2차원 좌표다.
DOCS = {
    "d1": {"text": "토요일 문 여는 시간 11~18시", "vec": (1.0, 0.0), "version": 2},
    "d2": {"text": "행사 신청은 담당 확인 뒤 확정", "vec": (0.0, 1.0), "version": 2},
    "d3": {"text": "토요일 운영시간 10~17시 [폐기]", "vec": (0.9, 0.1), "version": 1},
}

QUESTION = "영업시간?"
QUERY_VEC = (0.8, 0.2)   # 질문의 좌표도 사람이 정했다
KEYWORD = "영업시간"      # 질문에서 그대로 뽑은 검색어
REWRITE = "토요일"        # 사람이 바꿔 쓴 검색어
RRF_K = 60               # 역순위 융합에서 흔히 쓰는 완충 상수
HOURS = re.compile(r"\d{1,2}~\d{1,2}시")  # "11~18시" 같은 시각 표기


def keyword_search(docs, term):
    """글자가 그대로 들어 있는 조각의 id만 돌려준다."""
    return [doc_id for doc_id, doc in docs.items() if term in doc["text"]]


def distances(docs, query):
    return {doc_id: math.dist(query, doc["vec"]) for doc_id, doc in docs.items()}


def current_only(docs):
    """시행 중인 판만 남긴다. 가까운 것보다 유효한 것이 먼저다.

    받는 것: {id: {"text": 글, "vec": 좌표, "version": 판}} 모양의 조각 사전.
    돌려줄 것: 같은 모양의 새 사전. 지금 시행 중인 판(CURRENT_VERSION)의 조각만 담는다.
    폐기된 옛 판도, 아직 시행 전인 새 판도 남기지 않는다. 받은 사전은 바꾸지 않는다.
    순위를 매기기 전에 불리므로, 거리나 순위는 보지 않는다.
    """
    # TODO: 직접 작성하세요. 어떤 조건으로 거를지, 무엇을 돌려줄지는 위 약속을 보고 정합니다.
    raise NotImplementedError("current_only()를 아직 작성하지 않았습니다. 위 docstring의 약속대로 작성하세요.")


def dense_ranking(docs, query):
    dist = distances(docs, query)
    return sorted(dist, key=lambda doc_id: (dist[doc_id], doc_id))


def reciprocal_rank_fusion(rankings, k=RRF_K):
    """순위 목록 여러 개를 1/(k+순위)의 합으로 합친다. 거리나 점수의 크기는 보지 않는다.

    점수가 같으면 첫 목록(dense)에서 앞선 쪽을 먼저 둔다.
    """
    scores = {}
    for ranking in rankings:
        for rank, doc_id in enumerate(ranking, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + rank)
    first = {doc_id: position for position, doc_id in enumerate(rankings[0])}
    order = sorted(scores, key=lambda doc_id: (-scores[doc_id], first.get(doc_id, len(first))))
    return order, scores


def rerank(candidates, docs):
    """후보의 글을 차례로 읽어, 질문이 묻는 시각이 실제로 적힌 첫 조각을 고른다. 없으면 None."""
    for doc_id in candidates:
        if HOURS.search(docs[doc_id]["text"]):
            return doc_id
    return None


def with_context(chunk, doc_id, doc):
    """짧은 조각 앞에 원문에서 확인한 문서 이름과 판만 붙인다. 새 사실은 붙이지 않는다."""
    return f"가람책방(가상) 토요일 안내 [{doc_id} v{doc['version']}] {chunk}"


def main():
    print("좌표는 사람이 정한 값입니다. 모델이 만든 임베딩이 아닙니다.")
    print(f"질문: {QUESTION}  질문 좌표 {QUERY_VEC}")

    hits = keyword_search(DOCS, KEYWORD)
    print(f"키워드 '{KEYWORD}' → {hits}")

    dist = distances(DOCS, QUERY_VEC)
    for doc_id in sorted(dist):
        doc = DOCS[doc_id]
        print(f"거리 {doc_id} = {dist[doc_id]:.3f}  (v{doc['version']}) {doc['text']}")
    print(f"필터 전 dense 순위 → {dense_ranking(DOCS, QUERY_VEC)}")

    active = current_only(DOCS)
    dense = dense_ranking(active, QUERY_VEC)
    print(f"v{CURRENT_VERSION} 필터 후 dense 순위 → {dense}")

    sparse = keyword_search(active, REWRITE)
    print(f"바꿔 쓴 검색어 '{REWRITE}' sparse → {sparse}")

    hybrid, scores = reciprocal_rank_fusion([dense, sparse])
    shown = ", ".join(f"{doc_id} {scores[doc_id]:.4f}" for doc_id in hybrid)
    print(f"hybrid(RRF, k={RRF_K}) → {hybrid}  점수: {shown}")

    chosen = rerank(hybrid, active)
    if chosen is None:
        answer = "보류: 시각이 적힌 현행 안내가 없습니다"
    else:
        hours = HOURS.search(active[chosen]["text"]).group(0)
        answer = f"{hours} [{chosen} v{active[chosen]['version']}]"
    print(f"rerank → {chosen or '없음'}")

    chunk = "11~18시"
    contextual = with_context(chunk, "d1", DOCS["d1"])
    print(f"contextual 조각: '{chunk}' → '{contextual}'")
    print(f"조각만으로 '{REWRITE}' 검색: {REWRITE in chunk}, 맥락을 붙인 뒤: {REWRITE in contextual}")

    print(f"답: {answer}")

    # 스스로 확인: 화면에 찍힌 것이 아니라 계산한 값을 본다.
    assert hits == [], "정확한 글자 검색은 세 조각 어디에서도 '영업시간'을 찾지 못해야 합니다"
    assert "d3" not in dense, "폐기된 판(d3)이 순위에 남아 있습니다"
    assert dense[0] == "d1", f"현행 판 가운데 가장 가까운 조각은 d1이어야 합니다: {dense}"
    assert answer.endswith("[d1 v2]"), f"답의 근거가 현행 d1이 아닙니다: {answer}"
    print("검사 통과: 현행 판 d1만 근거로 답했습니다")


main()
