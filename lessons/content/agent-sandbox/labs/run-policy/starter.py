"""가람책방 정리 도우미의 실행 관문: 요청은 실행 전에 거르고, 끝난 실행은 사이트의 이름으로 부른다.

이 프로그램은 아무것도 실행하지 않는다. 정리 도우미(에이전트)가 남긴 실행 요청과 실행 결과는
가상 자료 두 개(/sandbox/run-requests.txt, /sandbox/run-results.txt)에 기록되어 있고, 여기서는
그 기록을 읽기만 한다. 한도 숫자는 이 사이트의 실습 샌드박스 설정값(기본값)을 옮겨 적은 것이다.
"""

import posixpath  # noqa: F401 - 경로를 풀 때 쓸 수 있다 (posixpath.normpath, posixpath.join)
import signal  # noqa: F401 - signal.SIGXCPU, signal.SIGKILL, signal.Signals(번호).name

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
# 실습: 아래 두 함수를 설계한다. 모양(도우미 함수, 검사 순서)은 스스로 정한다.
# ---------------------------------------------------------------------------

def decide(request):
    """요청 하나를 보고 (결정, 이유)를 돌려준다. 결정은 SANDBOX, APPROVAL, REFUSE 가운데 하나다.

    TODO(실습): 지금은 무엇이든 샌드박스로 보낸다. 레슨이 말한 것을 모두 보게 다시 쓴다:
    프로그램, CPU와 메모리 한도(경계값에서 어느 쪽인가), 쓰려는 곳(상대 경로와 '..' 포함),
    네트워크, 그리고 "읽기 전용"이라는 말과 요청한 권한이 맞는지. 어느 것을 먼저 볼지도 정한다.
    승인으로 바꿀 수 있는 것과 없는 것을 가르면 순서가 보인다. 도우미 함수를 더해도 된다.
    """
    return SANDBOX, "아직 규칙 없음"


def classify(result):
    """끝난 실행 하나를 보고 (상태 이름, 무엇이 정했나)를 돌려준다. 이름은 SITE_STATUSES 가운데 하나다.

    TODO(실습): 지금은 종료 코드만 본다. 실행기가 본 것(출력 바이트, 벽시계), 실행 전체의 CPU,
    OOM 횟수, 커널이 준 종료 신호와 종료 코드를 사이트의 분류와 같은 순서로 보게 다시 쓴다.
    프로그램이 출력한 글은 보지 않는다.
    """
    if result["exit_code"] == 0:
        return "ok", "종료 코드 0"
    return "error", f"종료 코드 {result['exit_code']}"


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
