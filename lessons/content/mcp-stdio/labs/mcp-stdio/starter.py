"""학습용 MCP 호스트 + 클라이언트 (Python 표준 라이브러리만).

server.py를 자식 프로세스로 띄우고 표준 입출력으로 JSON-RPC 2.0 메시지를
한 줄에 하나씩 주고받는다. 현재 판(2026-07-28)으로 말한다: 악수 없이 server/discover로
서버가 아는 판을 확인하고, 모든 요청의 params._meta에 판과 클라이언트 기능을 싣는다.
끝에 예전 형식(2025-06-18의 initialize 악수)을 따로 한 번 보여 준다. 실제 모델은 부르지 않는다. 어떤 도구를 어떤
인자로 부를지는 아래 run_session()에 미리 적어 두었다.

실습: call_tool() 안의 TODO를 채우세요. 채우기 전에는 마지막 단계에서
AssertionError가 나고 요약 줄이 나오지 않습니다.
"""

import json
import queue
import subprocess
import sys
import threading

CURRENT_VERSION = "2026-07-28"
LEGACY_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "lesson-host", "version": "0.2"}
WAIT_SECONDS = 2.0

# 호스트 정책: 사람이 미리 허락한 도구 이름. 여기에 없으면 서버로 보내지 않는다.
ALLOWED_TOOLS = frozenset({"read_notice"})


class StdioClient:
    """서버 프로세스 하나와 연결된 클라이언트."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self.lines = queue.Queue()
        self.next_id = 1
        self.sent_tools = []  # 실제로 서버에 보낸 tools/call의 도구 이름
        self.meta = None  # 2026-07-28 형식이면 요청마다 params._meta에 실을 값
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        # 서버의 표준 출력을 한 줄씩 큐에 옮긴다. 끝나면 None을 넣는다.
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params=None):
        msg_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if self.meta is not None and method != "server/discover":
            params = dict(params or {}, _meta=self.meta)
        if params is not None:
            message["params"] = params
        if method == "tools/call":
            self.sent_tools.append(params["name"])
        self._send(message)
        try:
            line = self.lines.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            raise TimeoutError(f"{method}: {WAIT_SECONDS}초 안에 응답이 없습니다") from None
        if line is None:
            raise ConnectionError(f"{method}: 서버가 응답하지 않고 출력을 닫았습니다")
        reply = json.loads(line)
        assert reply.get("jsonrpc") == "2.0" and reply.get("id") == msg_id, f"짝이 맞지 않는 응답: {reply}"
        return reply

    def notify(self, method):
        self._send({"jsonrpc": "2.0", "method": method})

    def close(self):
        """입력을 닫고 기다린다. 제때 끝나지 않으면 terminate, 그다음 kill."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait()


def call_tool(client, step, name, arguments, tally):
    """도구 하나를 부르고 결과를 분류한다: "ok", "host", "server", "tool-error"."""
    label = f"[{step}] tools/call {name} {json.dumps(arguments, ensure_ascii=False)}"
    # TODO(실습): 호스트의 허용 목록 검사가 빠져 있습니다. 사람이 허락하지 않은 도구는 서버에
    #   닿으면 안 됩니다. 어디서, 무엇과 비교해 막을지는 직접 정하세요. 막았을 때의 약속:
    #   f"{label} → 거부(호스트): 허용 목록에 없는 도구라 서버로 보내지 않음"을 출력하고,
    #   거부로 세고, "host"를 돌려줍니다.
    reply = client.request("tools/call", {"name": name, "arguments": arguments})
    if "error" in reply:
        error = reply["error"]
        print(f"{label} → 거부(서버): 오류 코드 {error['code']}, {error['message']}")
        tally["거부"] += 1
        return "server"
    result = reply["result"]
    text = "\n".join(item["text"] for item in result["content"] if item.get("type") == "text")
    if result.get("isError"):
        print(f"{label} → 도구 오류(isError): {text}")
        tally["도구 오류"] += 1
        return "tool-error"
    print(f"{label} → 성공")
    for line in text.splitlines():
        print(f"      | {line}")
    tally["성공"] += 1
    return "ok"


def run_session(client, tally):
    """현재 판(2026-07-28): 악수 없이, 요청마다 _meta를 싣고."""
    found = client.request("server/discover")["result"]
    versions = found["supportedVersions"]
    print(f"[1] server/discover → 지원하는 판 {', '.join(versions)} / 서버 {found['serverInfo']['name']}")
    assert CURRENT_VERSION in versions, "서버가 현재 판을 모릅니다"
    client.meta = {
        "io.modelcontextprotocol/protocolVersion": CURRENT_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    }

    listed = client.request("tools/list")
    assert "result" in listed, f"tools/list가 거부되었습니다: {listed.get('error')}"
    for tool in listed["result"]["tools"]:
        hint = tool.get("annotations", {}).get("readOnlyHint")
        print(f"[2] tools/list (_meta 판 {CURRENT_VERSION}) → {tool['name']} "
              f"(readOnlyHint={hint}, 필수 인자 {tool['inputSchema']['required']})")

    ok = call_tool(client, 3, "read_notice", {"path": "closing-day.txt"}, tally)
    assert ok == "ok", "허용 폴더 안의 공지를 읽지 못했습니다"

    outside = call_tool(client, 4, "read_notice", {"path": "../secret.txt"}, tally)
    assert outside == "server", "허용 폴더 밖의 경로가 거부되지 않았습니다"

    unknown = call_tool(client, 5, "delete_notice", {"path": "closing-day.txt"}, tally)
    assert unknown == "host", "허용 목록 밖의 도구가 서버까지 갔습니다"
    assert "delete_notice" not in client.sent_tools, "허용 목록 밖의 도구가 서버까지 갔습니다"


def show_2025_format():
    """예전 형식(2025-06-18)을 새 서버 프로세스 하나로 보여 준다: 먼저 악수, 그다음 _meta 없는 요청."""
    client = StdioClient([sys.executable, "server.py"])
    try:
        init = client.request("initialize", {
            "protocolVersion": LEGACY_VERSION, "capabilities": {}, "clientInfo": CLIENT_INFO,
        })["result"]
        print(f"[2025 형식] initialize → 프로토콜 {init['protocolVersion']} (이 프로세스와의 악수)")
        client.notify("notifications/initialized")
        print("[2025 형식] notifications/initialized 보냄 (알림이라 응답 없음)")
        names = [tool["name"] for tool in client.request("tools/list")["result"]["tools"]]
        print(f"[2025 형식] tools/list (_meta 없음) → {', '.join(names)}")
    finally:
        code = client.close()
    assert code == 0, "예전 형식 서버가 깨끗하게 끝나지 않았습니다"


def main():
    tally = {"성공": 0, "거부": 0, "도구 오류": 0}
    client = StdioClient([sys.executable, "server.py"])
    try:
        run_session(client, tally)
    finally:
        code = client.close()
        print(f"[정리] 서버 입력을 닫고 기다림 → 서버 종료 코드 {code}")
    assert code == 0, "서버가 깨끗하게 끝나지 않았습니다"
    show_2025_format()
    print(f"요약: 성공 {tally['성공']}, 거부 {tally['거부']} (도구 오류 {tally['도구 오류']})")


if __name__ == "__main__":
    main()
