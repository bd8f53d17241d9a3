"""Sandbox limits and host configuration, read from settings in one place."""

from __future__ import annotations

from django.conf import settings

from .sandbox import Limits, SandboxConfig
from .sandbox.limits import KIB, MIB


def limits() -> Limits:
    return Limits(
        cpu_seconds=settings.LAB_CPU_SECONDS,
        wall_seconds=settings.LAB_WALL_SECONDS,
        memory_bytes=settings.LAB_MEMORY_MB * MIB,
        output_bytes=settings.LAB_OUTPUT_KB * KIB,
        tmpfs_bytes=settings.LAB_TMPFS_MB * MIB,
        processes=settings.LAB_PROCESSES,
        open_files=settings.LAB_OPEN_FILES,
    )


def sandbox_config() -> SandboxConfig:
    return SandboxConfig(
        bwrap=settings.LAB_SANDBOX_BWRAP,
        python=settings.LAB_SANDBOX_PYTHON,
        state_dir=settings.LAB_SANDBOX_STATE_DIR,
        slots=settings.LAB_SANDBOX_SLOTS,
        slot_uid_base=settings.LAB_SANDBOX_UID_BASE,
        use_cgroups=settings.LAB_SANDBOX_CGROUPS,
    )
