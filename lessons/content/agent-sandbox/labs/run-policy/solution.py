"""가람책방 정리 도우미의 실행 관문: 요청은 실행 전에 거르고, 끝난 실행은 사이트의 이름으로 부른다.

이 프로그램은 아무것도 실행하지 않는다. 정리 도우미(에이전트)가 남긴 실행 요청과 실행 결과는
가상 자료 두 개(/sandbox/run-requests.txt, /sandbox/run-results.txt)에 기록되어 있고, 여기서는
그 기록을 읽기만 한다. 한도 숫자는 이 사이트의 실습 샌드박스 설정값(기본값)을 옮겨 적은 것이다.
"""

import posixpath
import signal

# 이 사이트의 실습 샌드박스 한도 (설정 LAB_* 의 기본값)
CPU_SECONDS = 2            # CPU 시간: 실행 전체(자식 프로세스 포함)에서 이만큼 쓰면 멈춘다
WALL_SECONDS = 5           # 벽시계: 실행기의 시계로 이만큼 지나면 멈춘다
MEMORY_MIB = 256           # 메모리: 실행 전체
OUTPUT_BYTES = 64 * 1024   # 출력: 표준 출력과 오류 출력을 합쳐서
TMPFS_MIB = 8              # 쓸 수 있는 곳은 /sandbox 하나, 크기 8MiB
PROCESSES = 16
WRITABLE = "/sandbox"
CPU_REACHED = 0.9          # CPU 신호로 끝난 실행은 CPU를 한도의 90% 넘게 썼을 때만 CPU 한도로 본다

SANDBOX, APPROVAL, REFUSE = "샌드박스 실행", "승인 필요", "거부"
SITE_STATUSES = ("ok", "error", "timeout", "memory", "output_limit", "killed")


def number(text):
    """'종료 코드 139', '신호 없음', 'CPU 412ms' 같은 칸에서 숫자를 꺼낸다. 없으면 None."""
    digits = "".join(ch for ch in text if ch.isdigit() or ch == ".")
    if not digits:
        return None
    return float(digits) if "." in digits else int(digits)


def read_requests(path):
    """실행 요청 기록을 읽는다. 첫 줄은 제목이다."""
    requests = []
    with open(path, encoding="utf-8") as handle:
        for line in handle.read().splitlines()[1:]:
            fields = line.split(" | ")
            network = fields[3].removeprefix("네트워크 ")
            writes = fields[4].removeprefix("쓰기 ")
            requests.append({
                "id": fields[0],
                "title": fields[1],
                "program": fields[2].removeprefix("프로그램 "),
                "network": None if network == "없음" else network,
                "writes": [] if writes == "없음" else writes.split(", "),
                "cpu_s": number(fields[5]),
                "memory_mib": number(fields[6]),
                "read_only": fields[7] == "읽기 전용",
            })
    return requests


def read_results(path):
    """실행 결과 기록을 읽는다. 종료 코드와 신호는 커널이 PID 1에게 준 그대로다."""
    results = []
    with open(path, encoding="utf-8") as handle:
        for line in handle.read().splitlines()[1:]:
            fields = line.split(" | ")
            exit_code, sig = number(fields[1]), number(fields[2])
            results.append({
                "id": fields[0],
                "exit_code": exit_code,
                "signal": sig,
                "cpu_ms": number(fields[3]),
                "wall_ms": number(fields[4]),
                "stdout_bytes": number(fields[5]),
                "stderr_bytes": number(fields[6]),
                "oom_kills": number(fields[7]),
            })
    return results


# ---------------------------------------------------------------------------
# 실습: 아래 두 함수(그리고 필요하면 도우미 함수)를 설계한다.
# ---------------------------------------------------------------------------

def inside_sandbox(path):
    """쓰려는 경로가 /sandbox 안인가. 상대 경로는 작업 폴더(/sandbox) 기준이고, '..'은 풀어서 본다."""
    full = posixpath.normpath(posixpath.join(WRITABLE, path))
    return full == WRITABLE or full.startswith(WRITABLE + "/")


def decide(request):
    """요청 하나를 (결정, 이유)로. 승인으로도 바꿀 수 없는 것(프로그램, 한도, 어긋난 요청)을 먼저 거른다."""
    if request["program"] != "python3":
        return REFUSE, f"{request['program']}: 샌드박스 안에는 python3만 있다"
    if request["cpu_s"] >= CPU_SECONDS:
        return REFUSE, f"CPU {request['cpu_s']}초: 한도 {CPU_SECONDS}초에 닿는 순간 멈춘다"
    if request["memory_mib"] > MEMORY_MIB:
        return REFUSE, f"메모리 {request['memory_mib']}MiB: 한도 {MEMORY_MIB}MiB를 넘는다"
    outside = [path for path in request["writes"] if not inside_sandbox(path)]
    if request["read_only"] and outside:
        return REFUSE, f"읽기 전용이라면서 바깥 파일({outside[0]})을 쓰려 한다: 요청이 스스로 어긋난다"
    if request["network"]:
        return APPROVAL, f"네트워크({request['network']}): 샌드박스는 열지 않는다, 사람이 정할 일"
    if outside:
        return APPROVAL, f"바깥 파일({outside[0]})을 바꾼다: 사람이 정할 일"
    return SANDBOX, "한도 안, 네트워크 없음, /sandbox 안에만 쓴다"


def classify(result):
    """끝난 실행 하나를 (상태 이름, 무엇이 정했나)로. 실행기와 커널이 본 것만 쓰고, 사이트와 같은 순서로 본다."""
    written = result["stdout_bytes"] + result["stderr_bytes"]
    if written > OUTPUT_BYTES:
        return "output_limit", f"출력 {written}바이트가 {OUTPUT_BYTES}바이트를 넘음"
    if result["wall_ms"] >= WALL_SECONDS * 1000:
        return "timeout", f"실행기 시계로 {WALL_SECONDS}초"
    if result["cpu_ms"] >= CPU_SECONDS * 1000:
        return "timeout", f"실행 전체의 CPU {result['cpu_ms']}ms가 한도에 이름"
    if result["oom_kills"]:
        return "memory", f"메모리 한도에서 커널이 {result['oom_kills']}개를 종료"
    sig, code = result["signal"], result["exit_code"]
    if sig is None and code is None:
        return "killed", "PID 1이 종료 상태를 보고하지 못함"
    if sig in (signal.SIGXCPU, signal.SIGKILL) and result["cpu_ms"] >= CPU_SECONDS * 1000 * CPU_REACHED:
        return "timeout", f"CPU 신호 {signal.Signals(sig).name}, CPU {result['cpu_ms']}ms"
    if sig is not None:
        return "killed", f"종료 신호 {signal.Signals(sig).name}"
    if code == 0:
        return "ok", "종료 코드 0"
    return "error", f"종료 코드 {code}"


# ---------------------------------------------------------------------------
# 여기부터는 주어진 코드: 표를 출력하고 기본 점검을 한다.
# ---------------------------------------------------------------------------

def main():
    print(f"사이트 한도: CPU {CPU_SECONDS}초 · 벽시계 {WALL_SECONDS}초 · 메모리 {MEMORY_MIB}MiB · "
          f"출력 {OUTPUT_BYTES // 1024}KiB · 쓰기 {WRITABLE} {TMPFS_MIB}MiB · 프로세스 {PROCESSES} · 네트워크 없음")
    print("[실행 전: 요청 거르기]")
    decided = []
    for request in read_requests("run-requests.txt"):
        decision, reason = decide(request)
        decided.append((request, decision))
        print(f"{request['id']} | {decision} | {request['title']}: {reason}")
    print("[실행 뒤: 결과 이름 붙이기]")
    named = []
    for result in read_results("run-results.txt"):
        status, basis = classify(result)
        named.append(status)
        print(f"{result['id']} | {status} | {basis}")
    print("결정: " + " · ".join(f"{d} {sum(x == d for _, x in decided)}" for d in (SANDBOX, APPROVAL, REFUSE)))
    print("결과: " + " · ".join(f"{s} {named.count(s)}" for s in SITE_STATUSES))

    assert all(decision in (SANDBOX, APPROVAL, REFUSE) for _, decision in decided), "모르는 결정이 있습니다"
    assert not [r["id"] for r, decision in decided if decision == SANDBOX and r["network"]], \
        "네트워크가 필요한 요청을 샌드박스 실행으로 보냈습니다: 이 샌드박스는 네트워크를 열지 않습니다"
    assert all(status in SITE_STATUSES for status in named), "사이트가 쓰지 않는 상태 이름이 있습니다"
    print("기본 점검 통과 (줄마다 맞는지는 실습의 확인 항목이 봅니다)")


main()
