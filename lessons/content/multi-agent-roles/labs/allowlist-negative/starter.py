"""에이전트별 허용 목록과 부정 시험: 금지된 호출은 반드시 실패하고 DENY 기록을 남긴다 (시작 코드).

실효 권한 = 역할의 능력 ∧ 토픽 ACL ∧ 실행 주체의 범위 ∧ 테넌트·객체 정책 ∧ 남은 예산 ∧ 필요한 승인.
역할의 허용 목록은 상한이고, 이번 Run의 작업 허가(task grant)와의 교집합만 실제로 쓸 수 있다.
에이전트, 도구, 컬렉션, 사용자, 테넌트는 모두 지어낸 연습용 이름이다.
"""

ROLE_MAX = {   # 역할마다 쓸 수 있는 최대 범위: MCP 서버별 도구, RAG 컬렉션, 위임 대상, 발행 토픽
    "orchestrator": {"tools": {}, "collections": set(),
                     "delegate": {"researcher", "writer", "source-verifier", "external-fact-verifier"},
                     "topics": {"task.delegation.request"}},
    "researcher": {"tools": {"meeting-knowledge": {"search_meeting_kb", "get_source_by_id"},
                             "web-knowledge": {"search_web_kb"}},
                   "collections": {"meeting-kb", "web-kb"}, "delegate": set(),
                   "topics": {"tool.call.request", "task.delegation.result"}},
    "writer": {"tools": {"draft-tools": {"create_draft", "revise_draft", "publish_draft"}}, "collections": set(),
               "delegate": set(), "topics": {"tool.call.request", "task.delegation.result"}},
    "source-verifier": {"tools": {"meeting-knowledge": {"get_source_by_id"}}, "collections": {"meeting-kb"},
                        "delegate": set(), "topics": {"tool.call.request", "task.delegation.result"}},
    "external-fact-verifier": {"tools": {"web-knowledge": {"search_web_kb"}}, "collections": {"web-kb"},
                               "delegate": set(), "topics": {"tool.call.request", "task.delegation.result"}},
}
# MCP 서버에 실제로 있는 도구 (허용 목록이 서버 단위라면 이것이 모두 열린다)
SERVERS = {"meeting-knowledge": {"search_meeting_kb", "get_source_by_id", "delete_minutes"},
           "web-knowledge": {"search_web_kb"}, "draft-tools": {"create_draft", "revise_draft", "publish_draft"}}
RISK = {"search_meeting_kb": "READ_ONLY", "get_source_by_id": "READ_ONLY", "search_web_kb": "READ_ONLY",
        "create_draft": "LOW_RISK", "revise_draft": "LOW_RISK", "publish_draft": "DESTRUCTIVE",
        "delete_minutes": "DESTRUCTIVE"}


class Denied(Exception):
    pass


class Policy:
    def __init__(self, task_grant, principal, budget):
        self.task_grant = task_grant      # 이번 Run에 실제로 필요한 도구만
        self.principal = principal        # 요청을 낸 사용자와 그 테넌트
        self.budget = budget
        self.audit = []                   # (결과, 에이전트, 대상, 사유)
        self.approvals = set()            # 사람이 승인한 (에이전트, 도구)

    def deny(self, agent, target, reason):
        """금지된 호출 하나를 멈춘다.

        약속: 호출은 언제나 Denied로 멈추고, 멈추기 전에 그 호출의 감사 기록이 한 줄 남는다.
        기록은 ALLOW 기록과 같은 모양(결과, 에이전트, 대상, 사유)이라 한 목록에서 함께 셀 수 있다.
        """
        # TODO(실습): 지금은 막기만 하고 기록을 남기지 않는다. 막은 호출도 감사 기록의 일부다.
        #   무엇을 어떤 모양으로, 언제 남겨야 하는지는 ALLOW 기록, expect_denied, main의 집계를 읽고 정하세요.
        raise Denied(f"{agent} → {target}: {reason}")

    def call_tool(self, agent, server, tool, obj_tenant):
        """도구 호출 하나를 실효 권한의 논리곱으로 판정한다. 하나라도 거짓이면 DENY."""
        role = ROLE_MAX[agent]
        target = f"{server}/{tool}"
        if tool not in role["tools"].get(server, set()):
            self.deny(agent, target, "역할의 허용 목록에 없는 도구")
        if "tool.call.request" not in role["topics"]:
            self.deny(agent, target, "토픽 ACL: tool.call.request에 발행할 수 없음")
        if tool not in self.task_grant.get(agent, set()):
            self.deny(agent, target, "이번 작업 허가(task grant)에 없는 도구")
        if obj_tenant != self.principal["tenant"]:
            self.deny(agent, target, "요청한 사용자의 테넌트 밖 객체")
        if self.budget <= 0:
            self.deny(agent, target, "Run 예산 소진")
        if RISK[tool] == "DESTRUCTIVE" and (agent, tool) not in self.approvals:
            self.deny(agent, target, "되돌릴 수 없는 작업인데 사람 승인이 없음")
        self.budget -= 1
        self.audit.append(("ALLOW", agent, target, RISK[tool]))
        return f"{tool} 실행"

    def read_collection(self, agent, collection):
        if collection not in ROLE_MAX[agent]["collections"]:
            self.deny(agent, f"rag/{collection}", "이 역할이 읽을 수 없는 컬렉션")
        self.audit.append(("ALLOW", agent, f"rag/{collection}", "READ_ONLY"))

    def delegate(self, agent, to_agent):
        if to_agent not in ROLE_MAX[agent]["delegate"]:
            self.deny(agent, f"delegate/{to_agent}", "위임 매트릭스에 없는 대상")
        self.audit.append(("ALLOW", agent, f"delegate/{to_agent}", "-"))


def expect_denied(policy, label, action, *args):
    """부정 시험 하나: 호출이 Denied로 실패하고, 그 호출에 대한 DENY 기록이 새로 하나 생겨야 한다."""
    before = len(policy.audit)
    try:
        action(*args)
    except Denied as why:
        new = policy.audit[before:]
        assert len(new) == 1 and new[0][0] == "DENY" and new[0][1] == args[0], f"{label}: DENY 기록이 없음 {new}"
        print(f"[거부 확인] {label}: {why}")
        return
    raise AssertionError(f"{label}: 금지된 호출이 성공했습니다")


def main():
    grant = {"researcher": {"search_meeting_kb", "get_source_by_id"}, "writer": {"create_draft", "revise_draft", "publish_draft"},
             "source-verifier": {"get_source_by_id"}, "external-fact-verifier": {"search_web_kb"}}
    policy = Policy(task_grant=grant, principal={"user": "user-01", "tenant": "tenant-a"}, budget=10)

    opened = sorted(ROLE_MAX["researcher"]["tools"]["meeting-knowledge"])
    print(f"meeting-knowledge 서버의 도구 {sorted(SERVERS['meeting-knowledge'])} 가운데 리서처에게 열린 것: {opened}")
    print("== 허용되어야 하는 호출 ==")
    print("[허용] " + policy.call_tool("researcher", "meeting-knowledge", "search_meeting_kb", "tenant-a"))
    print("[허용] " + policy.call_tool("writer", "draft-tools", "create_draft", "tenant-a"))
    policy.delegate("orchestrator", "researcher")
    print("[허용] orchestrator → researcher 위임")

    print("== 금지되어야 하는 호출 (부정 시험) ==")
    tests = [
        ("리서처가 같은 서버의 삭제 도구", policy.call_tool, "researcher", "meeting-knowledge", "delete_minutes", "tenant-a"),
        ("작성자가 회의 KB 검색", policy.call_tool, "writer", "meeting-knowledge", "search_meeting_kb", "tenant-a"),
        ("작성자가 승인 없이 초안 게시", policy.call_tool, "writer", "draft-tools", "publish_draft", "tenant-a"),
        ("출처 검증자가 초안 작성", policy.call_tool, "source-verifier", "draft-tools", "create_draft", "tenant-a"),
        ("외부 사실 검증자가 회의 KB 읽기", policy.read_collection, "external-fact-verifier", "meeting-kb"),
        ("리서처가 이번 작업에 허가되지 않은 웹 검색", policy.call_tool, "researcher", "web-knowledge", "search_web_kb", "tenant-a"),
        ("리서처가 다른 테넌트의 회의록 검색", policy.call_tool, "researcher", "meeting-knowledge", "search_meeting_kb", "tenant-b"),
        ("작성자가 리서처에게 직접 위임", policy.delegate, "writer", "researcher"),
    ]
    for label, action, *args in tests:
        expect_denied(policy, label, action, *args)

    policy.approvals.add(("writer", "publish_draft"))       # 사람이 이 게시를 승인했다
    print("[승인 뒤 허용] " + policy.call_tool("writer", "draft-tools", "publish_draft", "tenant-a"))

    allows = sum(entry[0] == "ALLOW" for entry in policy.audit)
    denies = sum(entry[0] == "DENY" for entry in policy.audit)
    print(f"감사 기록: ALLOW {allows}, DENY {denies}")
    for entry in policy.audit:
        if entry[0] == "DENY":
            print("  DENY", entry[1], entry[2], f"({entry[3]})")
    assert (allows, denies) == (4, 8), f"감사 기록이 ALLOW 4, DENY 8이어야 하는데 {allows}, {denies}"
    print("부정 시험 8개 통과: 금지된 호출은 모두 실패했고 DENY 기록을 남겼음")


if __name__ == "__main__":
    main()
