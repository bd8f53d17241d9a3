"""Small helpers shared by the benchmarks (not tests: they print figures)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
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


# Repeats with spread. A figure from one pass on a shared machine says little: each bench runs its
# measurement ``--repeats`` times, and every figure is printed as the median of the repeats with
# their min–max and p25–p75, beside the 1-minute load average seen during those repeats.


def add_repeats_flag(parser: argparse.ArgumentParser, default: int = 5) -> None:
    parser.add_argument("--repeats", type=int, default=default,
                        help=f"repeat the whole measurement this many times (default {default}); "
                             "each figure is printed as the median with min–max and p25–p75")


def load1() -> float:
    """The host's 1-minute load average (how busy the cores were while we measured)."""
    return os.getloadavg()[0]


@dataclass
class Repeated:
    """Figures collected over repeats: name -> one value per repeat, and the load beside them."""

    figures: dict[str, list[float]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)

    def median(self, name: str) -> float:
        return statistics.median(self.figures[name])

    def line(self, name: str, digits: int = 2) -> str:
        """``name: median unit (min–max a–b, p25–p75 c–d, N=n; load1 x–y)``."""
        values, unit = self.figures[name], self.units.get(name, "")
        f = f".{digits}f"
        return (f"{name}: {statistics.median(values):{f}}{unit} (min–max {min(values):{f}}–{max(values):{f}}, "
                f"p25–p75 {percentile(values, 25):{f}}–{percentile(values, 75):{f}}, N={len(values)}; "
                f"load1 {min(self.loads):.2f}–{max(self.loads):.2f})")

    def short(self, name: str, digits: int = 2) -> str:
        """``median [min–max]``, for tables."""
        values, f = self.figures[name], f".{digits}f"
        return f"{statistics.median(values):{f}} [{min(values):{f}}–{max(values):{f}}]"

    def print(self, digits: int = 2) -> None:
        for name in self.figures:
            print(self.line(name, digits))


def repeat(measure: Callable[[], dict[str, tuple[float, str]]], repeats: int) -> Repeated:
    """Call ``measure`` ``repeats`` times; it returns ``{name: (value, unit)}`` for one pass.

    The 1-minute load average is read before every pass and after the last one.
    """
    result = Repeated()
    for _ in range(max(1, repeats)):
        result.loads.append(load1())
        for name, (value, unit) in measure().items():
            result.figures.setdefault(name, []).append(value)
            result.units[name] = unit
    result.loads.append(load1())
    return result
