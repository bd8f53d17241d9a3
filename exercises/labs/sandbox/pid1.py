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
  ``__main__``, as ``python3 main.py`` would, and ends as the interpreter
  would (threads joined, atexit functions run, output flushed, the exit
  status of an uncaught SystemExit) without freeing its objects one by one.
- Warm (``job`` after the status descriptor, see ``warm.py``): the sandbox is
  made before any code exists. The child then waits on its standard input,
  the job pipe, for one job (the program, its files and its input), writes
  them into ``/sandbox`` (mode 0444) and runs the program as above. Nothing
  of any learner is in the interpreter before the job arrives, and the
  sandbox takes exactly one job: a pipe closed without one ends it.
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
warm = sys.argv[2:3] == ["job"]
for limit in sys.argv[3 if warm else 2:]:  # "resource=value": the run's rlimits, inherited by the program
    which, value = limit.split("=")
    resource.setrlimit(int(which), (int(value), int(value)))
# Objects made so far are never collected: the child then touches (and copies) fewer shared pages.
gc.freeze()
program = os.fork()
if program == 0:
    if warm:
        # The first compile of a process is slow (~1 ms): done before the job. Then one byte "r" on the
        # status channel says the sandbox is ready (the pool offers it only then); the program never has it.
        compile(b"pass", "<warm>", "exec")
        os.write(status_fd, b"r")
    os.close(status_fd)
    if warm:
        # The job: lines "<kind> <length> <name>\n" each followed by that many bytes; kinds f (a file,
        # main.py among them) and i (standard input). Read to the end of the pipe, which the runner closes.
        job = b"".join(iter(lambda: os.read(0, 1 << 16), b""))
        if not job:
            os._exit(0)
        stdin_fd = -1
        at = 0
        while at < len(job):
            end = job.index(b"\n", at)
            kind, size, name = job[at:end].split(b" ", 2)
            at, data = end + 1 + int(size), job[end + 1:end + 1 + int(size)]
            if kind == b"i":  # the input: a file with no name in the run's tmpfs, like a cold run's memfd
                fd = stdin_fd = os.open(b"/sandbox", os.O_TMPFILE | os.O_RDWR, 0o400)
            else:
                fd = os.open(b"/sandbox/" + name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if fd != stdin_fd:
                os.close(fd)
        if stdin_fd < 0:
            stdin_fd = os.open(b"/dev/null", os.O_RDONLY)
        os.lseek(stdin_fd, 0, os.SEEK_SET)
        os.dup2(stdin_fd, 0)
        os.close(stdin_fd)
        del job, data, view
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
        status = 1
    else:
        try:
            exec(code, main.__dict__)  # noqa: S102 - running the learner's program is this file's job
            status = 0
        except SystemExit as exc:  # as the interpreter ends on an uncaught SystemExit
            if exc.code is None or isinstance(exc.code, int):
                status = (exc.code or 0) & 0xFF
            else:
                print(exc.code, file=sys.stderr)
                status = 1
        except BaseException as exc:  # noqa: BLE001 - the traceback starts at main.py, not here
            exc.__traceback__ = exc.__traceback__.tb_next if exc.__traceback__ else None
            sys.excepthook(type(exc), exc, exc.__traceback__)
            status = 1
    # What the interpreter's own ending does that a program can see, in its order: wait for the threads
    # it started, run its atexit functions, flush standard output and error (a failed flush of standard
    # output ends with 120). Then the process ends at once: freeing every object of a sandbox that is
    # about to vanish costs about 1.4 ms on this project's machine, and a program cannot tell, except
    # that objects still alive at exit are not finalised (which Python never promises).
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - e.g. a closed or broken standard output
            status = 120
    os._exit(status)
else:
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(0)
        if pid == program:
            os.write(status_fd, b"%d\n" % status)
            os._exit(0)
