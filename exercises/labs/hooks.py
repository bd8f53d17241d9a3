"""What labs asks of the apps built on it (registered with ``tutor.extensions.register``)."""

from __future__ import annotations

from typing import Protocol


class RunListener(Protocol):
    """An app told when a lab run has ended (evidence settles a peer's reproduction of an attached run)."""

    def lab_run_finished(self, run_id: int) -> None:
        """Called in the worker once the run's record is sealed; a fault here never undoes the record."""

    def lab_runs_catch_up(self) -> None:
        """Called when a worker starts: find runs that ended while no one was told (a worker died between)."""
