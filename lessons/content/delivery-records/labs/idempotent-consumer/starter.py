"""적어도 한 번 전달되는 메시지를 받는 멱등 소비자 (시작 코드).

버스는 같은 메시지를 두 번 줄 수도, 늦게 줄 수도, 순서를 바꿔 줄 수도 있다. 소비자는
  1. 기한이 지난 메시지는 처리하지 않고 실패 보관함(dead letter)으로 보낸다.
  2. 분기(step)마다 기대한 상태 판보다 낡은 결과는 버린다.
  3. 멱등 키를 데이터베이스의 유일 제약으로 **먼저 선점**한 뒤에만 부수 효과를 낸다.
  4. 일시적인 실패만 정해진 횟수까지 다시 시도하고, 입력 오류는 다시 시도하지 않는다.
메시지, 초안, 시각은 모두 지어낸 연습용 값이다. 시각은 실제 시계 대신 NOW를 쓴다.
"""

import sqlite3
import threading
import time

NOW = 100                 # 가상 시계 (초)
MAX_ATTEMPTS = 3          # 일시적 실패를 포함해 한 메시지를 처리해 보는 최대 횟수


class Transient(Exception):
    """잠시 뒤 다시 하면 될 수도 있는 실패 (시간 초과 같은)."""


class Store:
    """메모리 안의 SQLite. 선점은 claims의 PRIMARY KEY가 보장한다."""

    def __init__(self):
        self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.db.executescript("""
            create table claims(key text primary key, status text, result text);
            create table drafts(key text, step text, body text);
            create table step_version(step text primary key, version int);
            create table dead_letters(message_id text, reason text);
        """)
        self.lock = threading.Lock()   # 연결 하나를 여러 스레드가 쓰므로 문장 단위로 잠근다
        self.together = None           # 동시 전달을 재현하는 동안의 threading.Barrier

    def sql(self, statement, *args):
        with self.lock:
            return self.db.execute(statement, args).fetchall()

    def meet(self):
        """동시 전달을 재현하는 동안에는 두 소비자가 모두 여기까지 온 뒤에야 둘 다 넘어간다."""
        if self.together is not None:
            try:
                self.together.wait(timeout=2)
            except threading.BrokenBarrierError:
                pass

    def lookup(self, key):
        """키의 기록을 읽는다. 동시 전달을 재현하는 동안에는 두 소비자가 모두 읽은 뒤에야 돌아온다.

        그래서 "둘 다 본 적 없음을 본다"는 가장 나쁜 순서가 스레드 일정과 상관없이 매번 일어난다.
        """
        rows = self.sql("select status from claims where key = ?", key)
        self.meet()
        return rows

    def claim(self, key):
        """키를 선점한다. 이미 누가 선점했으면 False. 확인과 기록이 한 문장이라 틈이 없다."""
        try:
            self.sql("insert into claims values (?, 'processing', null)", key)
            return True
        except sqlite3.IntegrityError:
            return False

    def version(self, step):
        """분기의 상태 판을 읽는다. 동시 전달 동안에는 두 소비자가 모두 읽은 뒤에 돌아오므로, 한쪽이 먼저
        저장을 마쳐 다른 쪽이 "낡은 판"을 보는 일이 스레드 일정에 따라 생기지 않는다."""
        rows = self.sql("select version from step_version where step = ?", step)
        self.meet()
        return rows[0][0] if rows else 0


def handle(store, env, payload):
    """부수 효과: 초안을 저장하고 그 분기의 상태 판을 하나 올린다."""
    if "body" not in payload:
        raise ValueError("payload에 body가 없음")
    if payload.get("simulate") == "timeout":
        raise Transient("초안 저장소 응답 시간 초과")
    time.sleep(0.05)                                  # 저장에 걸리는 시간
    store.sql("insert into drafts values (?, ?, ?)", env["idempotency_key"], env["step_id"], payload["body"])
    store.sql("insert into step_version values (?, 1) on conflict(step) do update set version = version + 1",
              env["step_id"])
    return f"초안 저장 ({payload['body']})"


def on_message(store, env, payload, events):
    """메시지 하나를 처리하고 결과 종류를 돌려준다. 상태 변화는 events에 이벤트로 남긴다."""
    mid = env["message_id"]
    if NOW > env["deadline"]:
        store.sql("insert into dead_letters values (?, 'expired')", mid)
        events.append((mid, "DEAD_LETTER", "expired"))
        return "만료"
    recorded = store.lookup(env["idempotency_key"])
    if recorded:                                    # 이미 선점됐거나 끝난 키: 다시 처리하지 않는다
        events.append((mid, "DUPLICATE", recorded[0][0]))
        return "중복"
    if env["expected_state_version"] < store.version(env["step_id"]):
        events.append((mid, "DROPPED", "stale version"))
        return "낡은 판"
    # TODO(실습): 지금은 "본 적 있나 확인 → 처리 → 기록" 순서다. 두 소비자가 거의 동시에 같은
    #   메시지를 받으면 둘 다 "본 적 없음"을 보고 둘 다 처리한다. 부수 효과가 한 번만 나도록
    #   순서를 다시 설계하세요. Store가 이미 제공하는 것을 읽어 보고, 다른 소비자에게 진 경우에
    #   무엇을 돌려줄지, 아래 on_success의 기록이 그 설계와 맞는지도 직접 정합니다.
    states = ["RUNNING"]
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            result = handle(store, env, payload)
        except Transient:
            states.append("FAILED")
            if attempt == MAX_ATTEMPTS:
                states.append("GAVE_UP")
                break
            states += ["RETRYING", "RUNNING"]
            continue
        except ValueError:
            states += ["FAILED", "GAVE_UP"]        # 입력 오류는 다시 해도 같다: 재시도하지 않는다
            store.sql("update claims set status = 'gave_up', result = 'invalid' where key = ?", env["idempotency_key"])
            store.sql("insert into dead_letters values (?, 'invalid')", mid)
            events.append((mid, " → ".join(states), "invalid"))
            return "입력 오류"
        states.append("SUCCEEDED")
        store.sql("insert or replace into claims values (?, 'done', ?)", env["idempotency_key"], result)  # on_success
        events.append((mid, " → ".join(states), result))
        return "처리"
    store.sql("update claims set status = 'gave_up', result = 'poison' where key = ?", env["idempotency_key"])
    store.sql("insert into dead_letters values (?, 'gave_up')", mid)
    events.append((mid, " → ".join(states), f"{MAX_ATTEMPTS}번 실패"))
    return "포기"


def envelope(mid, key, step, expected, deadline=200):
    return {"message_id": mid, "idempotency_key": key, "step_id": step,
            "expected_state_version": expected, "deadline": deadline}


def main():
    store, events, outcomes = Store(), [], []
    m101 = (envelope("M-101", "idem-101", "S1", 0), {"body": "회의 결정 요약 초안"})

    # 1) 같은 메시지가 두 소비자에게 거의 동시에 전달된다 (적어도 한 번 전달).
    start = threading.Barrier(2)
    store.together = threading.Barrier(2)   # 두 소비자가 모두 확인한 뒤에 다음으로 넘어간다

    def deliver():
        start.wait()
        outcomes.append(("M-101", on_message(store, *m101, events)))

    workers = [threading.Thread(target=deliver) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    store.together = None

    # 2) 나머지 메시지가 차례로 도착한다.
    arrivals = [
        m101,                                                                  # 확인 응답을 잃어 다시 옴
        (envelope("M-102", "idem-102", "S1", 0), {"body": "S1의 옛 결과"}),      # S1은 이미 판 1
        (envelope("M-201", "idem-201", "S2", 0), {"body": "외부 주장 검토 메모"}),  # 병렬 분기 S2
        (envelope("M-103", "idem-103", "S1", 1, deadline=50), {"body": "늦게 온 수정"}),
        (envelope("M-104", "idem-104", "S1", 1), {"body": "저장소가 계속 느림", "simulate": "timeout"}),
        (envelope("M-105", "idem-105", "S1", 1), {"text": "body 칸이 없는 결과"}),
    ]
    for env, payload in arrivals:
        outcomes.append((env["message_id"], on_message(store, env, payload, events)))

    for n, (mid, kind, detail) in enumerate(events, start=1):
        print(f"id: {n}  {mid}  {kind}  ({detail})")
    drafts = store.sql("select key, step from drafts order by key")
    dead = store.sql("select message_id, reason from dead_letters order by message_id")
    print("초안:", ", ".join(f"{k}/{s}" for k, s in drafts))
    print("실패 보관:", ", ".join(f"{m}({r})" for m, r in dead))
    count = {k: sum(o == k for _, o in outcomes) for k in ("처리", "중복", "낡은 판", "만료", "포기", "입력 오류")}
    print("요약: " + ", ".join(f"{k} {v}" for k, v in count.items()) + f" | 부수 효과 {len(drafts)}, 실패 보관 {len(dead)}")

    last_seen = 3                                   # 브라우저가 재연결하며 보낸 Last-Event-ID
    replay = [n for n in range(1, len(events) + 1) if n > last_seen]
    print(f"재연결(Last-Event-ID: {last_seen}) 뒤 다시 보낸 이벤트 id: {replay}")

    assert len(drafts) == 2, f"부수 효과는 M-101과 M-201의 2건이어야 하는데 {len(drafts)}건"
    assert count["중복"] == 2 and count["낡은 판"] == 1, f"중복 2, 낡은 판 1이어야 함: {count}"
    assert [r for _, r in dead] == ["expired", "gave_up", "invalid"], f"실패 보관 메시지가 다름: {dead}"
    print("소비자 검사 통과")


if __name__ == "__main__":
    main()
