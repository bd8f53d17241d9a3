"""Limits of one run and where the sandbox finds its tools."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Limits:
    """What one run may use. Recorded with every run so a reviewer knows the conditions."""

    cpu_seconds: int = 2
    wall_seconds: float = 5.0
    memory_bytes: int = 256 * MIB
    output_bytes: int = 64 * KIB
    tmpfs_bytes: int = 8 * MIB
    processes: int = 16
    open_files: int = 64

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SandboxConfig:
    """Host side: the tools, the interpreter shown inside, and the per-slot users.

    ``slot_uid_base`` is used only when the runner is root: slot ``n`` runs as
    uid ``slot_uid_base + n``, so a fork bomb in one slot cannot use up the
    process budget of another (the idea of isolate's and Jobe's box users).
    The base moved from 61000 (with the old lock folder in /tmp) to 62000, so
    code still using the old scheme never shares a uid with this one.

    ``state_dir`` holds the slot locks. It is host-wide, so every worker on
    the host shares the slots: ``/run/geungeo-tutor-sandbox`` for root, and a
    folder of the user's own otherwise (see ``slots.default_state_dir``).
    """

    bwrap: str = "bwrap"
    python: str = "/usr/bin/python3"
    state_dir: Path | None = None
    slots: int = 8
    slot_uid_base: int = 62000
    use_cgroups: bool = True
