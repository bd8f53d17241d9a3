"""PID 1 of a run: start the program, reap orphans, and report how the program ended on a channel of its own.

The runner passes this file's text to the sandbox's ``python3 -c`` with the
number of the status descriptor as its argument. It runs before any of the
learner's code, in the sandbox, under the system interpreter, so it uses
only built-in modules (and is kept cheap: it is on every run's path).

- The runner mounts an empty folder over ``/proc/1``, so the program (same
  user) can open neither ``/proc/1/fd`` (to write a status of its own) nor
  ``/proc/1/mem``; ptrace, process_vm_* and pidfd_getfd are refused by the
  seccomp filter. (Making PID 1 non-dumpable would do as well, but loading
  ctypes for prctl costs a millisecond on every run.)
- It sets the run's rlimits (given as arguments), then forks; the child
  closes the status descriptor and runs ``/sandbox/main.py`` as
  ``__main__``, as ``python3 main.py`` would.
- As PID 1 of the namespace it ignores every signal sent from inside (it
  installs no handler), reaps what the program leaves, and when the program
  ends writes the raw wait status (exit code or signal, as the kernel gave
  it) and exits, which ends every other process of the run.
"""

import _signal
import gc
import os
import resource
import sys

_signal.signal(_signal.SIGINT, _signal.SIG_DFL)
status_fd = int(sys.argv[1])
for limit in sys.argv[2:]:  # "resource=value": the run's rlimits, inherited by the program
    which, value = limit.split("=")
    resource.setrlimit(int(which), (int(value), int(value)))
# Objects made so far are never collected: the child then touches (and copies) fewer shared pages.
gc.freeze()
program = os.fork()
if program == 0:
    os.close(status_fd)
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    path = "/sandbox/main.py"
    main = type(sys)("__main__")
    main.__file__, main.__builtins__, main.__cached__ = path, __builtins__, None
    sys.modules["__main__"] = main
    sys.argv[:] = ["main.py"]
    sys.path[0] = "/sandbox"
    with open(path, "rb") as source:
        text = source.read()
    try:
        code = compile(text, path, "exec")
    except SyntaxError as exc:  # shown as python3 main.py shows it: no traceback header
        exc.__traceback__ = None
        sys.excepthook(type(exc), exc, None)
        raise SystemExit(1) from None
    try:
        exec(code, main.__dict__)  # noqa: S102 - running the learner's program is this file's job
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - the traceback starts at main.py, not here
        exc.__traceback__ = exc.__traceback__.tb_next if exc.__traceback__ else None
        sys.excepthook(type(exc), exc, exc.__traceback__)
        raise SystemExit(1) from None
else:
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(0)
        if pid == program:
            os.write(status_fd, b"%d\n" % status)
            os._exit(0)
