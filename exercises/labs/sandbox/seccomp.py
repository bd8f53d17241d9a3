"""The seccomp filter applied inside the sandbox: an allow-list, compiled once to BPF with libseccomp.

Every syscall not named below is refused with ENOSYS, so a syscall newer
than this list (open_tree_attr, listmount, statmount, mseal, landlock_*,
cachestat, …) never reaches the kernel, and the C library falls back as it
would on an older kernel. The list starts from Docker's default profile
(moby/profiles, seccomp/default.json: the calls it allows without a
capability) and was reviewed against what CPython and its standard library
use; what was taken out is named in ``NOT_ALLOWED`` with the reason.

Some calls are refused with EPERM on purpose, so the program gets an ordinary
error it can report: new namespaces, mounts, tracing, keyrings, BPF,
io_uring, perf, userfaultfd, every socket family but AF_UNIX (the MCP lab
talks to its child over pipes and Unix sockets), and inotify (through it one
run would see the files that other runs and the host open in the shared
read-only folders).

Some calls are allowed only with certain arguments: ``fadvise64`` without
POSIX_FADV_DONTNEED, ``preadv2``/``pwritev2`` without RWF_NOWAIT (refused
with EPERM; together they would let a run evict the host's page cache and
learn which pages of a shared file others read), and ``ioctl`` only for the
requests CPython uses (``IOCTL_ALLOWED``). ``statfs``/``fstatfs`` are refused:
they give the host disk's size and free space through any bound folder.

Without cgroups (``accounted=False``) nothing counts memory that is not
mapped, so memfd and SysV IPC are refused as well.
"""

from __future__ import annotations

import errno
import functools
import os
import socket
import tempfile

# Docker's unconditional allow-list, reviewed for CPython (x86_64 and aarch64 names;
# names the running architecture lacks are skipped).
ALLOWED_SYSCALLS = (
    # files and descriptors
    "access", "faccessat", "faccessat2", "chdir", "fchdir", "chmod", "fchmod", "fchmodat", "fchmodat2",
    "chown", "fchown", "fchownat", "lchown", "close", "close_range", "creat", "dup", "dup2", "dup3",
    "fcntl", "flock", "fsync", "fdatasync", "ftruncate", "truncate", "getcwd", "getdents", "getdents64",
    "link", "linkat", "lseek", "mkdir", "mkdirat", "mknod", "mknodat", "open", "openat", "openat2",
    "pread64", "preadv", "pwrite64", "pwritev", "read", "readv", "write", "writev",
    "readlink", "readlinkat", "rename", "renameat", "renameat2", "rmdir", "symlink", "symlinkat",
    "unlink", "unlinkat", "umask", "stat", "fstat", "lstat", "newfstatat", "statx",
    "utime", "utimes", "utimensat", "futimesat", "fallocate", "readahead",
    "copy_file_range", "sendfile", "splice", "tee", "vmsplice", "sync_file_range",
    "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "pipe", "pipe2", "eventfd", "eventfd2", "signalfd", "signalfd4",
    "timerfd_create", "timerfd_gettime", "timerfd_settime",
    "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
    "poll", "ppoll", "select", "pselect6",
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mincore", "msync",
    "mlock", "mlock2", "mlockall", "munlock", "munlockall", "membarrier",
    # processes, threads and signals (clone is narrowed below)
    "clone", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid",
    "kill", "tkill", "tgkill", "pidfd_open", "pidfd_send_signal",
    "rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn",
    "rt_sigsuspend", "rt_sigtimedwait", "rt_tgsigqueueinfo", "sigaltstack", "pause", "restart_syscall",
    "futex", "set_robust_list", "get_robust_list", "set_tid_address", "rseq", "arch_prctl", "prctl",
    "seccomp", "capget", "capset",
    "getpid", "getppid", "gettid", "getpgid", "setpgid", "getpgrp", "getsid", "setsid",
    "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups",
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "setfsuid", "setfsgid",
    "getrlimit", "setrlimit", "prlimit64", "getrusage", "getpriority", "setpriority",
    "ioprio_get", "ioprio_set", "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getattr",
    "sched_setattr", "sched_getparam", "sched_setparam", "sched_getscheduler", "sched_setscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval", "getcpu",
    # time
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "times",
    "alarm", "getitimer", "setitimer", "timer_create", "timer_delete", "timer_getoverrun",
    "timer_gettime", "timer_settime",
    # sockets (the family is checked for socket and socketpair below)
    "accept", "accept4", "bind", "connect", "listen", "getpeername", "getsockname", "getsockopt",
    "setsockopt", "recvfrom", "recvmsg", "recvmmsg", "sendto", "sendmsg", "sendmmsg", "shutdown",
    # the rest
    "uname", "getrandom",
)
# Counted only by a cgroup's memory limit: allowed only when the run has one.
ACCOUNTED_ONLY = ("memfd_create", "shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv",
                  "msgctl", "semget", "semop", "semtimedop", "semctl")
# Refused with EPERM (kept from the deny-list this filter replaced, plus inotify).
DENIED_SYSCALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise",
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup",
    "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "fanotify_init", "fanotify_mark",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "personality",
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    # sysinfo reports the host's memory, load and uptime (the /proc files are masked too).
    "sysinfo",
    # statfs of a read-only folder bound from the host gives the host disk's size and free space (a
    # counter of what the host writes), of the sandbox's root or /dev half the host's memory.
    "statfs", "fstatfs",
)
# Narrowed by argument below (fadvise64, preadv2, pwritev2, ioctl); anything else of theirs answers ENOSYS.
# POSIX_FADV_DONTNEED drops a file's pages from the cache every run and the host share: with it a run
# could evict the host's cache, and, with a read that fails rather than wait for the disk
# (RWF_NOWAIT), learn which pages of a shared file another run or the host read meanwhile.
FADVISE_ALLOWED = (0, 1, 2, 3, 5)  # NORMAL RANDOM SEQUENTIAL WILLNEED NOREUSE (DONTNEED = 4 is refused)
RWF_NOWAIT = 0x00000008
# The ioctl requests CPython and the labs use (strace of a typical run: isatty, the terminal size,
# non-blocking and close-on-exec descriptors, bytes waiting on a pipe or socket); every other request
# (file-system UUID and label, extents, FS_IOC_*, terminals' TIOCSTI, …) answers ENOSYS.
IOCTL_ALLOWED = {
    "TCGETS": 0x5401, "TIOCGWINSZ": 0x5413, "FIONREAD": 0x541B, "FIONBIO": 0x5421,
    "FIONCLEX": 0x5450, "FIOCLEX": 0x5451,
}
ARG32 = 0xFFFFFFFF  # the kernel reads these arguments as 32-bit ints, so only the low half is compared
# In Docker's list but left out here (so refused with ENOSYS), and why.
NOT_ALLOWED = {
    "io_setup io_submit io_getevents io_pgetevents io_cancel io_destroy": "legacy AIO, unused by CPython",
    "mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify mq_getsetattr": "POSIX queues, unused",
    "memfd_secret": "secret memory is locked and hidden from accounting",
    "modify_ldt": "32-bit segment tables, unused by CPython",
    "remap_file_pages pkey_alloc pkey_free pkey_mprotect map_shadow_stack": "unused by CPython",
    "process_mrelease": "acts on other processes' memory",
    "sync syncfs": "would flush every file system of the host",
    "cachestat listmount statmount mseal landlock_create_ruleset landlock_add_rule "
    "landlock_restrict_self futex_waitv futex_wake futex_wait futex_requeue uretprobe "
    "getxattrat setxattrat listxattrat removexattrat": "newer than this review; unused by CPython",
}
# clone() with any of these flags would make a new namespace:
# NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME.
CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080


@functools.cache
def filter_bpf(accounted: bool = True) -> bytes:
    """Return the compiled filter; raise ``RuntimeError`` if libseccomp is unusable (labs then refuse)."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as exc:  # pyseccomp loads libseccomp.so.2 with ctypes
        raise RuntimeError(f"libseccomp를 불러올 수 없습니다: {exc}") from exc

    rules = seccomp.SyscallFilter(seccomp.ERRNO(errno.ENOSYS))
    allowed = ALLOWED_SYSCALLS + (ACCOUNTED_ONLY if accounted else ())
    denied = DENIED_SYSCALLS + (() if accounted else ACCOUNTED_ONLY)
    for names, action in ((allowed, seccomp.ALLOW), (denied, seccomp.ERRNO(errno.EPERM))):
        for name in names:
            if name == "clone":
                continue
            try:
                rules.add_rule(action, name)
            except (ValueError, RuntimeError, OSError):
                continue  # not a syscall on this architecture
    for advice in FADVISE_ALLOWED:
        rules.add_rule(seccomp.ALLOW, "fadvise64", seccomp.Arg(3, seccomp.MASKED_EQ, ARG32, advice))
    for call in ("preadv2", "pwritev2"):
        rules.add_rule(seccomp.ALLOW, call, seccomp.Arg(5, seccomp.MASKED_EQ, RWF_NOWAIT, 0))
        rules.add_rule(seccomp.ERRNO(errno.EPERM), call, seccomp.Arg(5, seccomp.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    for request in IOCTL_ALLOWED.values():
        rules.add_rule(seccomp.ALLOW, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, ARG32, request))
    for call in ("socket", "socketpair"):
        rules.add_rule(seccomp.ALLOW, call, seccomp.Arg(0, seccomp.EQ, socket.AF_UNIX))
        rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    # clone() is allowed only without namespace flags (the flags are its first argument on x86_64).
    rules.add_rule(seccomp.ALLOW, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NAMESPACE_FLAGS, 0))
    for flag in _single_flags(CLONE_NAMESPACE_FLAGS):
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory that seccomp cannot read. It is left to
    # the default action, ENOSYS, so the C library falls back to clone(),
    # which the rules above can see (libseccomp refuses a rule that repeats the default).
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def _single_flags(mask: int) -> list[int]:
    return [1 << bit for bit in range(32) if mask & (1 << bit)]


def filter_fd(accounted: bool = True) -> int:
    """Return a fresh readable descriptor holding the BPF program, for ``bwrap --seccomp``."""
    fd = os.memfd_create("tutor-seccomp", os.MFD_CLOEXEC)
    os.write(fd, filter_bpf(accounted))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
