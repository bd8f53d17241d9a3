"""Small helpers shared by the benchmarks (not tests: they print figures)."""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(settings_module: str = "tutor.settings.dev") -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module)
    import django

    django.setup()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary(name: str, values: list[float]) -> str:
    return (f"{name}: n={len(values)} median={statistics.median(values):.2f} ms "
            f"p95={percentile(values, 95):.2f} ms min={min(values):.2f} ms")
