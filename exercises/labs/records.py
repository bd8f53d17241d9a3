"""The seal that makes a run record checkable by someone who did not see it run.

A run is sealed twice. When it is requested, a *request seal* covers what the
worker will run (``REQUEST_FIELDS``: who, which lab and step, the code, the
input, the fixture versions, the limits, when); the worker verifies it before
running and refuses a row that no longer matches. When it finishes, the *final
seal* covers every field. Both fail closed: once keyed seals began
(``SealEpoch``), a run with no seal, a seal under a key id the site does not
know, a final seal on a run whose status says queued or running, or a request
seal on a finished run reads "altered", never "pending" or "unsealed".

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

from .models import LabRun, SealEpoch

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
# What a run is asked to do, sealed when it is requested: the worker runs only a row that still matches.
REQUEST_FIELDS = (
    "user_id", "lab_id", "lab_version", "step", "purpose", "code", "code_digest", "prediction", "stdin",
    "fixture_versions", "limits", "created_at",
)


def field_digests(run: LabRun, names: Any = SEALED_FIELDS) -> dict[str, str]:
    return {name: hashlib.sha256(canonical(getattr(run, name))).hexdigest() for name in names}


def _seal_message(run_id: int, key_id: str, digests: dict[str, str]) -> bytes:
    return canonical({"format": SEAL_FORMAT, "run": run_id, "key": key_id, "fields": digests})


def _request_message(run_id: int, key_id: str, digests: dict[str, str]) -> bytes:
    # "stage" keeps a request seal from ever standing for a final one (and the field sets differ too).
    return canonical({"format": SEAL_FORMAT, "stage": "request", "run": run_id, "key": key_id, "fields": digests})


def seal(run: LabRun) -> None:
    """Set the seal fields of a finished run with the current key (the caller saves)."""
    key = keys.current_key()
    run.seal_digests = field_digests(run)
    run.seal_key_id = key.key_id
    run.seal = key.mac(_seal_message(run.pk, key.key_id, run.seal_digests))


def seal_request(run: LabRun) -> None:
    """Seal what a just-created run asks the worker to do (the caller saves the three seal fields)."""
    key = keys.current_key()
    run.seal_digests = field_digests(run, REQUEST_FIELDS)
    run.seal_key_id = key.key_id
    run.seal = key.mac(_request_message(run.pk, key.key_id, run.seal_digests))


def _epoch_message(last_unkeyed_run_id: int, key_id: str) -> bytes:
    return canonical({"format": SEAL_FORMAT, "stage": "epoch", "last_unkeyed_run": last_unkeyed_run_id,
                      "key": key_id})


def epoch_seal(last_unkeyed_run_id: int, key: keys.SealKey) -> str:
    """The HMAC that keeps the start of keyed seals from being moved by a database edit (migrations use it)."""
    return key.mac(_epoch_message(last_unkeyed_run_id, key.key_id))


def last_unkeyed_run_id() -> int:
    """The highest run id recorded before keyed seals began; 0 when the marker is missing or altered.

    Fail closed: a deleted or edited marker makes every unsealed run read "altered", never "unsealed".
    """
    epoch = SealEpoch.objects.filter(pk=1).first()
    if epoch is None:
        return 0
    key = keys.key_for(epoch.key_id)
    if key is None or not hmac.compare_digest(epoch_seal(epoch.last_unkeyed_run_id, key), epoch.seal):
        return 0
    return epoch.last_unkeyed_run_id


def reseal_epoch() -> bool:
    """Re-seal the marker with the current key if it verifies under an older one (``verify_records --reseal``)."""
    epoch = SealEpoch.objects.filter(pk=1).first()
    current = keys.current_key()
    if epoch is None or epoch.key_id == current.key_id or last_unkeyed_run_id() != epoch.last_unkeyed_run_id:
        return False
    SealEpoch.objects.filter(pk=1).update(key_id=current.key_id, seal=epoch_seal(epoch.last_unkeyed_run_id, current))
    return True


@dataclass
class SealCheck:
    """Whether a run record still is what was sealed, and the reason in words."""

    state: str  # verified | changed | forged | altered | unsealed | pending
    key_id: str = ""
    changed: list[str] = field(default_factory=list)
    why: str = ""  # for "altered": which rule the row broke

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
        if self.state == "altered":
            why = str(ALTERED_REASONS.get(self.why, self.why))
            if self.why == "unknown_key":
                why = f"{why}: {self.key_id}"
            return _("봉인과 맞지 않음: 기록이 바뀌었습니다 (%(why)s).") % {"why": why}
        if self.state == "unsealed":
            return _("확인할 수 없음: 끝났지만 봉인되지 않은 기록입니다 (키 봉인 이전 형식).")
        return _("아직 실행 중이라 봉인 전입니다. 끝나면 봉인합니다.")


ALTERED_REASONS: dict[str, Any] = {
    "missing": gettext_lazy("키 봉인을 시작한 뒤의 기록인데 봉인이 없음"),
    "unknown_key": gettext_lazy("이 사이트가 모르는 키 id로 봉인됨"),
    "reopened": gettext_lazy("끝난 뒤 봉인한 기록의 상태가 대기나 실행 중으로 되돌려짐"),
    "unfinished": gettext_lazy("끝난 기록인데 요청 때의 봉인만 있음"),
}


def _altered(run: LabRun, why: str) -> SealCheck:
    return SealCheck("altered", run.seal_key_id, why=why)


def _compare(run: LabRun, key: keys.SealKey, names: Any, message: Any) -> SealCheck | None:
    """None when the stored digests are this stage's, made with ``key``, and every field still matches."""
    stored = run.seal_digests
    now = field_digests(run, names)
    changed = [name for name in names if stored.get(name) != now[name]]
    expected = key.mac(message(run.pk, run.seal_key_id, stored))
    if set(stored) != set(names) or not hmac.compare_digest(expected, run.seal):
        return SealCheck("forged", run.seal_key_id, changed)
    if changed:
        return SealCheck("changed", run.seal_key_id, changed)
    return None


def check_seal(run: LabRun) -> SealCheck:
    """Recompute every field digest and the HMAC; say which part no longer matches.

    A finished run must carry a final seal; a queued or running one its request
    seal. Only runs recorded before keyed seals began may carry none.
    """
    if not run.seal or not run.seal_key_id or not isinstance(run.seal_digests, dict) or not run.seal_digests:
        if run.pk is not None and run.pk <= last_unkeyed_run_id():
            return SealCheck("unsealed" if run.is_finished else "pending", run.seal_key_id)
        return _altered(run, "missing")
    key = keys.key_for(run.seal_key_id)
    if key is None:
        return _altered(run, "unknown_key")
    final = set(run.seal_digests) == set(SEALED_FIELDS)
    if not run.is_finished:
        if final:
            return _altered(run, "reopened")
        return _compare(run, key, REQUEST_FIELDS, _request_message) or SealCheck("pending", run.seal_key_id)
    if not final and set(run.seal_digests) == set(REQUEST_FIELDS):
        return _altered(run, "unfinished")
    return _compare(run, key, SEALED_FIELDS, _seal_message) or SealCheck("verified", run.seal_key_id)


def digest_verifies(run: LabRun) -> bool:
    """The yes/no of ``check_seal``, for places that show only a badge beside a link to the record."""
    return check_seal(run).verified
