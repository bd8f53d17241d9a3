"""System checks: the sandbox limits make sense, and labs say what is missing on this host."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from . import conf
from .sandbox.runner import sandbox_problem


@checks.register()
def check_lab_limits(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    limits = conf.limits()
    errors: list[checks.CheckMessage] = []
    if min(limits.cpu_seconds, limits.wall_seconds, limits.memory_bytes, limits.output_bytes,
           limits.tmpfs_bytes, limits.processes, limits.open_files) <= 0:
        errors.append(checks.Error("Every LAB_* limit must be positive.", id="labs.E001"))
    if limits.wall_seconds < limits.cpu_seconds:
        errors.append(checks.Warning("LAB_WALL_SECONDS is below LAB_CPU_SECONDS.", id="labs.W002"))
    return errors


@checks.register()
def check_slots_fit_the_workers(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warm sandboxes wait in slots: the workers' runs and their warm sandboxes should fit in the host's slots.

    Filling a pool never waits for a slot, so too few slots cost no run, but
    a cold run may then wait for a slot a warm sandbox of another worker holds.
    """
    warm = min(settings.LAB_WARM_SANDBOXES, settings.LAB_WORKER_THREADS)
    wanted = settings.TASK_WORKERS * (settings.LAB_WORKER_THREADS + warm)
    if warm > 0 and wanted > settings.LAB_SANDBOX_SLOTS:
        return [checks.Warning(
            f"TASK_WORKERS × (LAB_WORKER_THREADS + LAB_WARM_SANDBOXES) = {wanted} is more than "
            f"LAB_SANDBOX_SLOTS = {settings.LAB_SANDBOX_SLOTS}.",
            hint="Raise LAB_SANDBOX_SLOTS or lower LAB_WARM_SANDBOXES.", id="labs.W003")]
    return []


@checks.register()
def check_holds_leave_threads(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """A held run page keeps a gunicorn thread until its run ends: with as many holds as threads, a class clicking
    at once would leave no thread to answer any other page of that process."""
    if settings.LAB_RUN_HOLD_MAX >= settings.GUNICORN_THREADS:
        return [checks.Warning(
            f"LAB_RUN_HOLD_MAX = {settings.LAB_RUN_HOLD_MAX} is not below GUNICORN_THREADS = "
            f"{settings.GUNICORN_THREADS}: held run pages could take every thread of a web process.",
            hint="Keep LAB_RUN_HOLD_MAX below GUNICORN_THREADS (the defaults are 12 and 20).", id="labs.W004")]
    return []


@checks.register()
def check_sandbox_available(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Name what to install when the sandbox cannot isolate; labs are refused meanwhile."""
    problem = sandbox_problem(conf.sandbox_config())
    if problem:
        return [checks.Warning(f"Labs are refused on this host: {problem}", id="labs.W001")]
    return []
