"""Helpers shared by the lab tests."""

from __future__ import annotations

from pathlib import Path

from exercises.labs.sandbox import cgroups


def groups_left(backend: cgroups.Backend | None, names: list[str]) -> list[Path]:
    """Which of ``names`` still has a folder in any hierarchy of ``backend``."""
    folders = backend.folders.values() if backend is not None else ()
    return [folder / name for folder in folders for name in names if (folder / name).exists()]
