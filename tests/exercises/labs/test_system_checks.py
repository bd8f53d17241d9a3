"""System checks of the labs app that guard settings which only fail under a class's load."""

from __future__ import annotations

from typing import Any

from exercises.labs.checks import check_holds_leave_threads


def test_holds_must_stay_below_the_web_servers_threads(settings: Any) -> None:
    """The defaults (12 holds of 20 threads) pass; as many holds as threads, or more, warn with labs.W004."""
    assert check_holds_leave_threads(None) == []
    settings.LAB_RUN_HOLD_MAX, settings.GUNICORN_THREADS = 20, 20
    assert [message.id for message in check_holds_leave_threads(None)] == ["labs.W004"]
    settings.LAB_RUN_HOLD_MAX, settings.GUNICORN_THREADS = 4, 8
    assert check_holds_leave_threads(None) == []
