"""다온마을 알림판 도우미: 여러분이 설계합니다.

옆의 harness.py(읽기 전용)가 주는 것만 쓸 수 있습니다. 자세한 모양은 그 파일 첫머리에 있습니다.

  turn          {"id": "Q1", "kind": "question" 또는 "request", "text": 사용자가 쓴 글}
                같은 요청이 다시 오면 같은 id로 옵니다.
  kit.notices   공지 줄 목록. kit.notices[0]이 1번 줄입니다.
  kit.model     kit.model.complete(request_id, prompt) -> 기록해 둔 모델 응답 하나
                {"claims": [{"text", "line", "quote"}], "tool_uses": [{"id", "name", "input"}]}
  kit.approve   kit.approve(request_id, name, args) -> True/False  (사람의 결정)
  kit.tools     {"book_room": ..., "cancel_booking": ...}  부르면 곧바로 실행됩니다.

handle()이 돌려주는 글에 대한 약속:
  - 확인한 주장 끝에는 근거 줄을 [4]처럼 붙인다.
  - 공지에서 답을 찾지 못하면 "자료없음"으로 시작한다.
  - 행동을 실행했으면 "완료"로, 실행하지 않았으면 "보류"로 시작한다.

무엇을 믿고 무엇을 다시 확인할지, 언제 승인을 묻고 무엇을 기억할지는 여러분이 정합니다.
함수를 몇 개로 나눌지도 자유입니다. 맨 아래 run(handle)만 남겨 두세요.
"""

from harness import run


def handle(turn, kit):
    # 아직 아무것도 설계하지 않은 자리입니다. 지금은 모든 질문을 거절합니다.
    return "자료없음: 아직 도우미를 만들지 않았습니다."


run(handle)
