"""The seal that makes a run record checkable by someone who did not see it run.

A finished run keeps a SHA-256 of each field a reviewer reads or a check used
(``seal_digests``) and an HMAC-SHA256 over those digests, the run id and the key
id (``seal``), made with a seal key from ``settings.SEAL_KEYS`` (never
``SECRET_KEY``). Anyone who can change the row but does not hold the key
cannot make a new seal; changing a field without touching the digests names
the field. What the seal does not prove is said in the README.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tutor import keys
from tutor.keys import canonical

from .models import LabRun

SEAL_FORMAT = 1

# Every field a reviewer reads or a check used, with the name a reviewer sees.
SEALED_FIELDS: dict[str, Any] = {
    "user_id": gettext_lazy("실행한 사람"),
    "lab_id": gettext_lazy("실습"),
    "lab_version": gettext_lazy("실습 판"),
    "step": gettext_lazy("단계"),
    "code": gettext_lazy("코드"),
    "code_digest": gettext_lazy("코드 요약값"),
    "prediction": gettext_lazy("실행 전 예측"),
    "stdin": gettext_lazy("표준 입력"),
    "files": gettext_lazy("함께 준 파일"),
    "fixture_versions": gettext_lazy("가상 자료 판"),
    "limits": gettext_lazy("제한"),
    "interpreter": gettext_lazy("인터프리터"),
    "status": gettext_lazy("상태"),
    "exit_code": gettext_lazy("종료 코드"),
    "signal": gettext_lazy("종료 신호"),
    "stdout": gettext_lazy("표준 출력"),
    "stderr": gettext_lazy("표준 오류"),
    "truncated": gettext_lazy("출력 잘림"),
    "wall_ms": gettext_lazy("걸린 시간"),
    "cpu_ms": gettext_lazy("CPU 시간"),
    "peak_memory_bytes": gettext_lazy("최대 메모리"),
    "accounting": gettext_lazy("자원을 잰 방식"),
    "outcome_basis": gettext_lazy("결과를 정한 근거"),
    "purpose": gettext_lazy("실행 목적 (연습 또는 재현)"),
    "check_results": gettext_lazy("검사 결과"),
    "failure_reason": gettext_lazy("실패 이유"),
    "attempts": gettext_lazy("시도 횟수"),
    "worker": gettext_lazy("실행한 워커"),
    "created_at": gettext_lazy("요청한 때"),
    "started_at": gettext_lazy("시작한 때"),
    "finished_at": gettext_lazy("끝난 때"),
}
NOT_SEALED = ("idempotency_key",)


def field_digests(run: LabRun) -> dict[str, str]:
    return {name: hashlib.sha256(canonical(getattr(run, name))).hexdigest() for name in SEALED_FIELDS}


def _seal_message(run_id: int, key_id: str, digests: dict[str, str]) -> bytes:
    return canonical({"format": SEAL_FORMAT, "run": run_id, "key": key_id, "fields": digests})


def seal(run: LabRun) -> None:
    """Set the seal fields of a finished run with the current key (the caller saves)."""
    key = keys.current_key()
    run.seal_digests = field_digests(run)
    run.seal_key_id = key.key_id
    run.seal = key.mac(_seal_message(run.pk, key.key_id, run.seal_digests))


@dataclass
class SealCheck:
    """Whether a run record still is what was sealed, and the reason in words."""

    state: str  # verified | changed | forged | unknown_key | unsealed | pending
    key_id: str = ""
    changed: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return self.state == "verified"

    @property
    def covered(self) -> list[str]:
        return [str(label) for label in SEALED_FIELDS.values()]

    @property
    def changed_labels(self) -> list[str]:
        return [str(SEALED_FIELDS.get(name, name)) for name in self.changed]

    @property
    def message(self) -> str:
        if self.state == "verified":
            return _("봉인 확인됨: 키 %(key)s로 봉인한 뒤 아래 모든 항목이 그대로입니다.") % {"key": self.key_id}
        if self.state == "changed":
            return _("봉인과 맞지 않음: 봉인한 뒤 바뀐 항목이 있습니다 (%(fields)s).") % {
                "fields": ", ".join(self.changed_labels)}
        if self.state == "forged":
            return _("봉인과 맞지 않음: 봉인값이나 항목별 요약값이 키로 만든 것과 다릅니다 (봉인 자체가 바뀜).")
        if self.state == "unknown_key":
            return _("확인할 수 없음: 이 기록을 봉인한 키 %(key)s가 더 이상 설정에 없습니다.") % {"key": self.key_id}
        if self.state == "unsealed":
            return _("확인할 수 없음: 끝났지만 봉인되지 않은 기록입니다 (키 봉인 이전 형식).")
        return _("아직 실행 중이라 봉인 전입니다. 끝나면 봉인합니다.")


def check_seal(run: LabRun) -> SealCheck:
    """Recompute every field digest and the HMAC; say which part no longer matches."""
    if not run.is_finished:
        return SealCheck("pending", run.seal_key_id)
    if not run.seal or not run.seal_key_id or not isinstance(run.seal_digests, dict):
        return SealCheck("unsealed", run.seal_key_id)
    key = keys.key_for(run.seal_key_id)
    if key is None:
        return SealCheck("unknown_key", run.seal_key_id)
    stored = run.seal_digests
    now = field_digests(run)
    changed = [name for name in SEALED_FIELDS if stored.get(name) != now[name]]
    expected = key.mac(_seal_message(run.pk, run.seal_key_id, stored))
    if set(stored) != set(SEALED_FIELDS) or not hmac.compare_digest(expected, run.seal):
        return SealCheck("forged", run.seal_key_id, changed)
    if changed:
        return SealCheck("changed", run.seal_key_id, changed)
    return SealCheck("verified", run.seal_key_id)


def digest_verifies(run: LabRun) -> bool:
    """The yes/no of ``check_seal``, for places that show only a badge beside a link to the record."""
    return check_seal(run).verified
