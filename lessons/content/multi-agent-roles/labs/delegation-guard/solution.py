"""위임 가드: 깊이, 인과 경로의 순환, 팬아웃, 원자적 예산 예약 (정답 코드).

에이전트는 부르지 않는다. 메시지 봉투(envelope)는 신뢰된 런타임이 만들고, 에이전트가 채운
payload의 hop·trust·예산 주장은 읽지 않는다. 예산의 권위 있는 값은 Run 저장소(RunStore)에
있고, 검사·차감·등록은 잠금 하나 안에서 한꺼번에 한다.
이 실습의 설정은 가드를 보여 주려고 동료끼리의 위임을 일부러 넓게 열어 둔 가상 설정이다.
"""

import contextlib  # 실패 주입 단계에서 잠금 대신 쓰는 빈 잠금(nullcontext)
import hashlib
import threading

LIMITS = {"max_depth": 3, "max_fanout": 4, "delegation_budget": 6}


def intent_hash(intent):
    """런타임이 의도 글을 정규화해 해시한다 (공백·대소문자 차이는 같은 의도)."""
    return hashlib.sha256(" ".join(intent.split()).lower().encode()).hexdigest()[:12]


class Rejected(Exception):
    pass


class StoreLock:
    """Run 저장소의 잠금. 지금 몇 개가 이 잠금 앞에서 기다리는지 세어 둔다.

    세는 까닭은 장면 5뿐이다. 스레드의 차례를 잠(sleep)이나 운에 맡기지 않고, "다른 예약이
    모두 검사를 마쳤거나 잠금 앞에서 기다린다"는 사실로 정하려고 센다.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self.waiting = 0
        self.changed = threading.Condition()

    def __enter__(self):
        with self.changed:
            self.waiting += 1
            self.changed.notify_all()
        self._lock.acquire()
        with self.changed:
            self.waiting -= 1
        return self

    def __exit__(self, *exc):
        self._lock.release()


class RunStore:
    """Run 하나의 권위 있는 상태. 위임 예약은 이 잠금 안에서만 일어난다."""

    def __init__(self, run_id, limits):
        self.run_id, self.limits = run_id, limits
        self.lock = StoreLock()
        self.round_trip = lambda: None  # 저장소까지 다녀오는 틈. 장면 5가 이 틈을 가장 넓게 벌린다.
        self.remaining = limits["delegation_budget"]
        self.messages = {}          # message_id → (parent_id, edge, hop)
        self.children = {}          # parent_id → 자식 위임 수
        self.counter = 0

    def path_edges(self, message_id):
        """이 메시지에서 뿌리까지 거슬러 오르며 만난 간선들 (현재 인과 경로)."""
        edges = []
        while message_id is not None:
            parent, edge, _hop = self.messages[message_id]
            edges.append(edge)
            message_id = parent
        return edges

    def is_cycle(self, parent_id, edge):
        """이 위임이 순환이면 True. reserve가 잠금 안에서 부른다.

        받는 것: 부모 메시지 id(뿌리 위임이면 None)와 새 간선 (보낸 쪽, 받는 쪽, 의도 해시).
        약속: 같은 간선이 이 위임의 **현재 인과 경로**에 이미 있을 때만 순환이다. 같은 Run의 다른
        가지(형제)에서 같은 간선을 썼다고 순환은 아니다. 저장소의 상태는 바꾸지 않는다.
        """
        return parent_id is not None and edge in self.path_edges(parent_id)

    def reserve(self, parent_id, edge, hop):
        """깊이·순환·팬아웃·예산을 확인하고, 통과하면 예산을 빼고 간선을 등록한다. 한 번에."""
        with self.lock:
            if hop >= self.limits["max_depth"]:
                raise Rejected("depth")
            if self.is_cycle(parent_id, edge):
                raise Rejected("cycle")
            if self.children.get(parent_id, 0) >= self.limits["max_fanout"]:
                raise Rejected("fan-out")
            if self.remaining <= 0:
                raise Rejected("budget")
            self.round_trip()        # 저장소까지 다녀오는 틈 (검사와 차감 사이)
            self.remaining -= 1
            self.counter += 1
            message_id = f"msg-{self.counter:03d}"
            self.messages[message_id] = (parent_id, edge, hop)
            self.children[parent_id] = self.children.get(parent_id, 0) + 1
            return message_id


class Runtime:
    """봉투를 만드는 신뢰된 런타임. 발신자는 인증된 에이전트, hop은 부모보다 하나 많게."""

    def __init__(self, store):
        self.store = store

    def delegate(self, sender, parent_id, to_agent, payload):
        hop = 0 if parent_id is None else self.store.messages[parent_id][2] + 1
        edge = (sender, to_agent, intent_hash(payload["intent"]))   # payload의 hop·trust는 읽지 않는다
        message_id = self.store.reserve(parent_id, edge, hop)
        return {"message_id": message_id, "run_id": self.store.run_id, "correlation_id": "corr-1",
                "parent_message_id": parent_id, "from_agent": sender, "to_agent": to_agent,
                "intent_hash": edge[2], "hop": hop, "trust": "agent-output"}


def attempt(runtime, label, sender, parent_id, to_agent, intent, **payload_extra):
    try:
        env = runtime.delegate(sender, parent_id, to_agent, {"intent": intent, **payload_extra})
    except Rejected as why:
        print(f"{label}: 거부 ({why})")
        return None
    print(f"{label}: 허용 {env['message_id']} {sender}→{to_agent} hop={env['hop']} 남은 예산 {runtime.store.remaining}")
    return env["message_id"]


def main():
    results = {}
    print("== 1. 정상 체인: 같은 correlation_id를 나눠 써도 순환이 아니다 ==")
    rt = Runtime(RunStore("run-A", LIMITS))
    m1 = attempt(rt, "1a", "orchestrator", None, "researcher", "회의 근거 수집")
    m2 = attempt(rt, "1b", "researcher", m1, "fact-checker", "외부 주장 확인")
    m3 = attempt(rt, "1c", "fact-checker", m2, "writer", "초안 작성")
    results["chain"] = [m1, m2, m3]

    print("== 2. 인과 경로의 순환, 그리고 같은 간선의 형제 가지 ==")
    back = attempt(rt, "2a", "researcher", m1, "orchestrator", "회의 근거 수집")
    results["cycle"] = attempt(rt, "2b", "orchestrator", back, "researcher", "회의  근거   수집")
    results["sibling"] = attempt(rt, "2c", "researcher", m1, "fact-checker", "외부 주장 확인")

    print("== 3. 깊이: hop은 런타임이 센다 (payload의 hop=0은 무시) ==")
    rt = Runtime(RunStore("run-B", LIMITS))
    d0 = attempt(rt, "3a", "orchestrator", None, "researcher", "근거 수집")
    d1 = attempt(rt, "3b", "researcher", d0, "fact-checker", "사실 확인")
    d2 = attempt(rt, "3c", "fact-checker", d1, "writer", "초안 작성")
    results["depth"] = attempt(rt, "3d", "writer", d2, "editor", "문장 다듬기", hop=0, trust="trusted")

    print("== 4. 팬아웃: 한 부모 아래 하위 위임은 4개까지 ==")
    rt = Runtime(RunStore("run-C", LIMITS))
    root = attempt(rt, "4a", "orchestrator", None, "researcher", "근거 수집")
    fan = [attempt(rt, f"4b-{n}", "researcher", root, "fact-checker", f"주장 {n} 확인") for n in range(1, 6)]
    results["fanout"] = fan

    print("== 5. 예산: 남은 예산 2에 동시에 4개가 예약을 시도 ==")
    store = RunStore("run-D", dict(LIMITS, delegation_budget=2, max_fanout=10))
    rt = Runtime(store)
    granted, lock = [], threading.Lock()
    racers, gate, seen = 4, store.lock.changed, {"checked": 0, "rejected": 0}

    def all_checked_or_waiting():
        return seen["checked"] + seen["rejected"] + store.lock.waiting >= racers

    def round_trip():
        # 검사를 통과한 예약은, 다른 예약이 모두 검사를 마쳤거나 잠금 앞에서 기다릴 때까지 차감하지
        # 않는다. 틈을 가장 넓게 벌리되 시간에 기대지 않으므로, 잠금이 있든 없든 결과가 매번 같다.
        with gate:
            seen["checked"] += 1
            gate.notify_all()
            gate.wait_for(all_checked_or_waiting, timeout=2)

    store.round_trip = round_trip

    def racer(n):
        try:
            env = rt.delegate("orchestrator", None, "researcher", {"intent": f"조각 {n} 조사"})
        except Rejected:
            with gate:
                seen["rejected"] += 1
                gate.notify_all()
            return
        with lock:
            granted.append(env["message_id"])

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"5: 허용 {len(granted)}개, 남은 예산 {store.remaining}")
    results["budget"] = (len(granted), store.remaining)

    print(f"요약: 체인 허용 {sum(m is not None for m in results['chain'])}, 순환 "
          f"{'거부' if results['cycle'] is None else '허용'}, 형제 가지 "
          f"{'허용' if results['sibling'] else '거부'}, 깊이 {'거부' if results['depth'] is None else '허용'}, "
          f"팬아웃 허용 {sum(m is not None for m in fan)}/5, 동시 예약 허용 {results['budget'][0]}/4")
    assert all(results["chain"]), "정상 체인이 막혔습니다"
    assert results["cycle"] is None, "인과 경로의 순환이 허용됐습니다"
    assert results["sibling"] is not None, "경로가 다른 형제 가지가 순환으로 막혔습니다"
    assert results["depth"] is None
    assert sum(m is not None for m in fan) == 4 and fan[-1] is None
    assert results["budget"] == (2, 0), f"예산 2를 넘겨 예약됨: {results['budget']}"
    print("가드 검사 통과")


if __name__ == "__main__":
    main()
