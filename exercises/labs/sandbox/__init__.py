"""The lab sandbox: run untrusted Python in bubblewrap with seccomp and rlimits.

This package knows nothing about Django models: it takes code, files and
limits and returns a ``RunResult``. ``runner.run_python`` is the single entry
point used by the task worker, ``manage.py lab_run`` and the self-test alike.
"""

from .limits import Limits, SandboxConfig
from .runner import RunResult, run_python

__all__ = ["Limits", "RunResult", "SandboxConfig", "run_python"]
