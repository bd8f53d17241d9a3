"""가상 공지 서버: 학습용으로 아주 작게 만든 MCP stdio 서버.

- 표준 입력에서 JSON-RPC 2.0 메시지를 한 줄에 하나씩 읽고,
  응답을 표준 출력에 한 줄에 하나씩 쓴다.
- 표준 출력에는 프로토콜 메시지 말고는 아무것도 쓰지 않는다.
  사람이 읽을 진단은 표준 오류(stderr)로 보낸다.
- 도구는 읽기 전용 read_notice 하나뿐이다.
- 진짜 파일은 열지 않는다. VIRTUAL_DISK가 가상의 디스크 역할을 한다.

공식 SDK가 아니며 사양의 일부만 흉내 낸 교육용 모형이다. 인증도, 네트워크도 없다.
이 파일은 실습에서 읽기 전용이다.

두 시대의 형식을 모두 받는다(사양의 말로 dual-era 서버).
- 2026-07-28 판(현재): 악수가 없다. server/discover로 지원하는 판과 기능을 알리고,
  모든 요청은 params._meta에 자기 판과 클라이언트 기능을 싣는다. 서버는 요청마다
  따로 판단하고, 요청 사이에 아무것도 기억하지 않는다.
- 2025-06-18 판(예전 형식): initialize 요청과 notifications/initialized 알림으로
  먼저 악수한다. 이 프로세스가 initialize를 받으면 그때부터 예전 형식으로 답한다.
"""

import json
import posixpath
import sys

CURRENT_VERSION = "2026-07-28"
LEGACY_VERSION = "2025-06-18"
SUPPORTED = [CURRENT_VERSION, LEGACY_VERSION]
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
SERVER_INFO = {"name": "library-notices", "version": "0.1"}

# 이 서버가 읽어도 되는 유일한 폴더
NOTICE_DIR = "/srv/library/notices"

# 가상의 디스크. 모든 내용은 지어낸 것이다.
VIRTUAL_DISK = {
    "/srv/library/notices/closing-day.txt": (
        "달빛마을도서관(가상) 5월 휴관 안내\n"
        "5월 12일(화)은 서가 정리 때문에 문을 닫습니다.\n"
        "무인 반납함은 그날도 평소처럼 열려 있습니다."
    ),
    "/srv/library/notices/reading-club.txt": (
        "달빛마을도서관(가상) 독서 모임\n"
        "매월 둘째 주 토요일 오후 2시, 2층 세미나실.\n"
        "참가 신청은 사서가 확인한 뒤에 확정됩니다."
    ),
    # 허용 폴더 바로 바깥에 있는 파일. 경로 검사가 없으면 "../secret.txt"로 읽힌다.
    "/srv/library/secret.txt": "(가상) 직원 전용: 보존서고 출입 코드 4821",
}

READ_NOTICE = {
    "name": "read_notice",
    "title": "공지 읽기",
    "description": (
        "notices 폴더 안의 공지 파일 하나를 읽어 본문을 돌려준다. "
        "아무것도 만들거나 고치거나 지우지 않는다."
    ),
    "inputSchema": {
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "notices 폴더 기준의 상대 경로. 예: closing-day.txt",
            }
        },
        "required": ["path"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}


class RpcError(Exception):
    """JSON-RPC 오류 응답으로 바꿔 보낼 문제."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.data = data


def log(text):
    print(f"[server] {text}", file=sys.stderr, flush=True)


def resolve_in_notice_dir(path):
    """허용 폴더 안을 가리키면 정규화한 절대 경로를, 아니면 None을 돌려준다."""
    if not isinstance(path, str) or not path.strip():
        return None
    if path.startswith("/") or "\\" in path or "\x00" in path:
        return None
    full = posixpath.normpath(posixpath.join(NOTICE_DIR, path))
    if posixpath.commonpath([full, NOTICE_DIR]) != NOTICE_DIR or full == NOTICE_DIR:
        return None
    return full


def tools_call(params):
    name = params.get("name")
    arguments = params.get("arguments")
    if name != READ_NOTICE["name"]:
        log(f"모르는 도구 요청을 거절: {name!r}")
        raise RpcError(-32602, f"알 수 없는 도구: {name}")
    if not isinstance(arguments, dict) or set(arguments) != {"path"}:
        raise RpcError(-32602, "인자가 잘못되었습니다: path 하나만 받습니다")
    full = resolve_in_notice_dir(arguments["path"])
    if full is None:
        log(f"허용 폴더 밖 경로를 거절: {arguments['path']!r}")
        raise RpcError(-32602, "허용된 폴더 밖의 경로입니다")
    text = VIRTUAL_DISK.get(full)
    if text is None:
        # 폴더 안이지만 파일이 없음: 도구 실행 결과로 알린다(isError).
        return {"content": [{"type": "text", "text": f"그런 공지가 없습니다: {arguments['path']}"}],
                "isError": True}
    return {"content": [{"type": "text", "text": text}], "isError": False}


# 이 프로세스가 initialize를 받았는가. 예전 형식(2025)에서만 생기는 상태다.
legacy = {"initialized": False}


def check_modern_meta(params):
    """2026-07-28 형식: 요청마다 _meta에 판과 클라이언트 기능이 있어야 한다."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or META_VERSION not in meta:
        raise RpcError(-32602, "_meta에 프로토콜 판이 없습니다 (2025 형식이라면 initialize부터 하세요)")
    if meta[META_VERSION] != CURRENT_VERSION:
        # 사양의 UnsupportedProtocolVersionError: 지원하는 판을 알려 주고, 고르는 것은 클라이언트다.
        raise RpcError(-32022, "Unsupported protocol version",
                       {"supported": SUPPORTED, "requested": meta[META_VERSION]})
    if not isinstance(meta.get(META_CAPABILITIES), dict):
        raise RpcError(-32602, f"_meta에 {META_CAPABILITIES}가 없습니다")


def answer(message):
    """요청 하나에 대한 응답 딕셔너리. 알림(id 없음)이면 None."""
    if "id" not in message:
        if message.get("method") == "notifications/initialized":
            log("2025 형식: 악수를 마쳤다는 알림을 받음")
        return None
    method = message.get("method")
    params = message.get("params") or {}
    try:
        if method == "initialize":
            # 2025 형식의 악수. 이 프로세스는 이제 예전 형식으로 답한다.
            if params.get("protocolVersion") != LEGACY_VERSION:
                raise RpcError(-32602, f"initialize는 {LEGACY_VERSION} 형식에만 있습니다", {"supported": SUPPORTED})
            legacy["initialized"] = True
            log("2025 형식: initialize를 받아 예전 형식으로 답합니다")
            result = {
                "protocolVersion": LEGACY_VERSION,
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": SERVER_INFO,
            }
            return {"jsonrpc": "2.0", "id": message["id"], "result": result}
        modern = not legacy["initialized"]
        if method == "server/discover":
            result = {"supportedVersions": SUPPORTED, "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO}
        else:
            if modern:
                check_modern_meta(params)
            if method == "tools/list":
                result = {"tools": [READ_NOTICE]}
                if modern:
                    result |= {"ttlMs": 60000, "cacheScope": "private"}
            elif method == "tools/call":
                result = tools_call(params)
            else:
                raise RpcError(-32601, f"없는 메서드: {method}")
        if modern:
            # 2026-07-28: 모든 결과에 resultType, 결과의 _meta에 서버 신원.
            result = {"resultType": "complete", **result, "_meta": {META_SERVER_INFO: SERVER_INFO}}
    except RpcError as problem:
        error = {"code": problem.code, "message": str(problem)}
        if problem.data is not None:
            error["data"] = problem.data
        return {"jsonrpc": "2.0", "id": message["id"], "error": error}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main():
    log("시작, 표준 입력을 기다립니다")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        else:
            if not isinstance(message, dict):
                reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
            else:
                reply = answer(message)
        if reply is not None:
            # json.dumps는 줄바꿈 없는 한 줄을 만든다(본문 속 줄바꿈은 \n으로 이스케이프).
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    log("표준 입력이 닫혀 끝냅니다")


if __name__ == "__main__":
    main()
