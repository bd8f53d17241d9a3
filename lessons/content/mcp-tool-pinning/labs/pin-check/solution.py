"""사람이 승인한 도구 정의에 목록을 고정(pin)하는 호스트 (모범 답안).

가람책방(가상)의 도우미는 MCP 서버 garam-catalog의 도구를 씁니다. 점장이 승인한 도구 정의는
approved.json에, 서버가 보낸 tools/list 응답 세 번과 목록이 바뀌었다는 알림은 listings.json에
기록해 두었습니다(네트워크 없음, 모델 없음). 호스트는 목록을 받을 때마다 도구를 승인한 정의와
견주어, 똑같은 도구만 부를 수 있게 두고 나머지는 사람이 다시 볼 때까지 붙잡아 둡니다.
"""

import copy
import hashlib
import json
import unicodedata

PINNED_FIELDS = ("name", "description", "inputSchema")   # 사람이 승인한 칸: 모델이 읽는 것 전부
SAME, NEW, CHANGED, GONE = "그대로", "새 도구", "바뀜", "사라짐"


# ---------------------------------------------------------------- 내가 쓰는 부분

def canonical(value):
    """같은 내용이면 키 순서와 상관없이 같은 글. 글자는 한 글자도 고치지 않는다."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def tool_digest(tool):
    """도구 정의에서 고정할 칸만 골라 만든 지문(SHA-256, 16진수 64자)."""
    pinned = {field: tool.get(field) for field in PINNED_FIELDS}
    return hashlib.sha256(canonical(pinned).encode("utf-8")).hexdigest()


def review(pins, tools):
    """받은 목록을 고정 기록과 견주어 도구마다 {name, status, fields}를 돌려준다(이름 순)."""
    offered = {tool["name"]: tool for tool in tools}
    results = []
    for name, tool in offered.items():
        pin = pins.get(name)
        if pin is None:
            results.append({"name": name, "status": NEW, "fields": []})
        elif tool_digest(tool) == pin["digest"]:
            results.append({"name": name, "status": SAME, "fields": []})
        else:
            approved = pin["definition"]
            fields = [f for f in PINNED_FIELDS if canonical(tool.get(f)) != canonical(approved.get(f))]
            results.append({"name": name, "status": CHANGED, "fields": fields})
    for name in pins:
        if name not in offered:
            results.append({"name": name, "status": GONE, "fields": []})
    return sorted(results, key=lambda r: r["name"])


def apply_review(state, results):
    """검토 결과로 지금 부를 수 있는 도구와 사람을 기다리는 도구를 정한다. 목록을 받을 때마다 새로."""
    state["callable"] = {r["name"] for r in results if r["status"] == SAME}
    state["held"] = {r["name"]: r for r in results if r["status"] in (NEW, CHANGED)}


# ---------------------------------------------------------------- 주어진 부분 (고치지 않음)

def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


APPROVED = load("approved.json")
RECORDED = load("listings.json")


def as_text(value):
    """보여 주기용 JSON 한 줄 (비교에는 쓰지 않는다)."""
    return json.dumps(value, ensure_ascii=False)


def hidden_tags(text):
    """유니코드 태그 문자(U+E0020~U+E007E)로 숨긴 글을 풀어 읽는다."""
    return "".join(chr(ord(ch) - 0xE0000) for ch in text if 0xE0020 <= ord(ch) <= 0xE007E)


def show_added(added):
    """덧붙은 글을 사람이 볼 수 있게: 줄바꿈과 보이지 않는 문자를 세고, 숨은 글을 풀어 보인다."""
    newlines = added.count("\n")
    invisible = [ch for ch in added if unicodedata.category(ch) in ("Cf", "Co", "Cn")]
    shown = " ".join(added.split())
    shown = "".join(ch for ch in shown if ch not in invisible)
    parts = [f"끝에 {len(added)}자 추가"]
    if newlines:
        parts.append(f"줄바꿈 {newlines}개")
    if invisible:
        parts.append(f"보이지 않는 문자 {len(invisible)}개, 풀어 읽으면 \"{hidden_tags(added)}\"")
    parts.append(f"보이는 글 \"{shown}\"" if shown else "보이는 글 없음")
    return ", ".join(parts)


def explain_change(field, old, new):
    """고정한 칸 하나가 어떻게 달라졌는지 한 줄로."""
    if field == "description" and isinstance(old, str) and isinstance(new, str) and new.startswith(old):
        return show_added(new[len(old):])
    if field == "inputSchema" and isinstance(old, dict) and isinstance(new, dict):
        notes = []
        before, after = old.get("properties", {}), new.get("properties", {})
        notes += [f"인자 추가 {k}" for k in sorted(set(after) - set(before))]
        notes += [f"인자 삭제 {k}" for k in sorted(set(before) - set(after))]
        for k in sorted(set(before) & set(after)):
            if before[k] != after[k]:
                notes.append(f"인자 {k}의 정의가 바뀜 {as_text(before[k])} → {as_text(after[k])}")
        req_before, req_after = set(old.get("required", [])), set(new.get("required", []))
        notes += [f"필수 인자 추가 {k}" for k in sorted(req_after - req_before)]
        notes += [f"필수 인자 해제 {k}" for k in sorted(req_before - req_after)]
        return ", ".join(notes) or "속성 밖의 스키마가 바뀜"
    return f"{as_text(old)} → {as_text(new)}"


pins = {tool["name"]: {"digest": tool_digest(tool), "definition": tool} for tool in APPROVED["tools"]}
print(f"[고정] {APPROVED['approved_by']}가 {APPROVED['approved_at']}에 승인한 도구 {len(pins)}개: "
      + ", ".join(sorted(pins)))

reserve = pins["reserve_book"]["definition"]
shuffled = json.loads(json.dumps(reserve, ensure_ascii=False))
shuffled = {key: shuffled[key] for key in reversed(list(shuffled))}
shuffled["inputSchema"] = {key: shuffled["inputSchema"][key] for key in reversed(list(shuffled["inputSchema"]))}
same_for_order = tool_digest(shuffled) == pins["reserve_book"]["digest"]
print(f"[지문] 키 순서만 바꾼 같은 정의 → {'같은 지문' if same_for_order else '다른 지문'}")
dotted = copy.deepcopy(reserve)
dotted["description"] += "."
differs_for_dot = tool_digest(dotted) != pins["reserve_book"]["digest"]
print(f"[지문] 설명 끝에 마침표 하나를 더한 정의 → {'다른 지문' if differs_for_dot else '같은 지문'}")

state = {"callable": set(), "held": {}}
sent = []
asked = 0


def take_listing(label, message):
    results = review(pins, message["result"]["tools"])
    apply_review(state, results)
    print(f"== {label} ==")
    for r in results:
        name = r["name"]
        if name in state["callable"]:
            verdict = "부를 수 있음"
        elif name in state.get("held", {}):
            verdict = "보류: 사람이 승인하기 전에는 부르지 않음"
        else:
            verdict = "부를 수 없음"
        status = r["status"] + (": " + ", ".join(r["fields"]) if r["fields"] else "")
        print(f"{name} | {status} | {verdict}")
        for field in r["fields"]:
            old = pins[name]["definition"].get(field)
            new = next(t for t in message["result"]["tools"] if t["name"] == name).get(field)
            print(f"    차이 {name}.{field}: {explain_change(field, old, new)}")


def model_asks(name, arguments):
    """기록해 둔 모델의 도구 요청 하나. 보낼지는 호스트가 정한다."""
    global asked
    asked += 1
    if name in state["callable"]:
        sent.append(name)
        outcome = "보냄"
    elif name in state.get("held", {}):
        outcome = "보류: 승인 대기 중이라 보내지 않음"
    else:
        outcome = "거부: 지금 목록에 없는 도구"
    print(f"[도구 요청 {asked}] {name} {json.dumps(arguments, ensure_ascii=False)} → {outcome}")


take_listing("목록 A: 시작할 때 받은 tools/list", RECORDED["A"])
model_asks("search_books", {"query": "달빛"})

print(f"[알림] {RECORDED['notification']['method']} → 목록을 다시 받음")
take_listing("목록 B: 알림 뒤에 받은 tools/list", RECORDED["B"])
model_asks("search_books", {"query": "달빛"})
model_asks("export_members", {})
model_asks("list_events", {})
model_asks("reserve_book", {"book_id": "B17", "member_id": "회원-001", "member_phone": "010-0000-0000"})

print(f"[알림] {RECORDED['notification']['method']} → 목록을 다시 받음")
take_listing("목록 C: 추가 사례", RECORDED["C"])
model_asks("list_events", {})
model_asks("search_books", {"query": "달빛"})
model_asks("reserve_book", {"book_id": "B22", "member_id": "회원-001"})

print(f"서버로 보낸 도구 요청 {len(sent)}건: {', '.join(sent)}")
print("사람을 기다리는 도구: " + ", ".join(
    f"{name}({r['status']})" for name, r in sorted(state.get("held", {}).items())))
assert same_for_order, "키 순서만 다른 같은 정의가 다른 지문을 받았습니다"
assert differs_for_dot, "설명이 바뀌었는데 지문이 그대로입니다"
assert sent == ["search_books"], "승인한 정의와 다른 도구가 서버로 갔습니다"
print("검사 통과: 사람이 승인한 정의와 똑같은 도구만 불렀습니다")
