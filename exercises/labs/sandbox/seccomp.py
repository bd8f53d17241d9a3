"""The seccomp filter applied inside the sandbox, compiled once to BPF with libseccomp.

Namespaces already take the network and the host's view away; the filter
closes the kernel interfaces a hostile program could use to get them back or
to attack the kernel: new namespaces, mounts, tracing, keyrings, BPF,
io_uring, perf, userfaultfd, and every socket family but AF_UNIX (the MCP lab
talks to its child over pipes and Unix sockets).
"""

from __future__ import annotations

import errno
import functools
import os
import socket
import tempfile

# Refused with EPERM: the program gets an ordinary error it can report.
DENIED_SYSCALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
    "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup",
    "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "fanotify_init",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "personality",
)
# clone() with any of these flags would make a new namespace:
# NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME.
CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080


@functools.cache
def filter_bpf() -> bytes:
    """Return the compiled filter; raise ``RuntimeError`` if libseccomp is unusable (labs then refuse)."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as exc:  # pyseccomp loads libseccomp.so.2 with ctypes
        raise RuntimeError(f"libseccomp를 불러올 수 없습니다: {exc}") from exc

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (ValueError, RuntimeError, OSError):
            continue  # not a syscall on this architecture
    rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socketpair", seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    for flag in _single_flags(CLONE_NAMESPACE_FLAGS):
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory that seccomp cannot read: answer ENOSYS
    # so the C library falls back to clone(), which the rules above can see.
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def _single_flags(mask: int) -> list[int]:
    return [1 << bit for bit in range(32) if mask & (1 << bit)]


def filter_fd() -> int:
    """Return a fresh readable descriptor holding the BPF program, for ``bwrap --seccomp``."""
    fd = os.memfd_create("tutor-seccomp", os.MFD_CLOEXEC)
    os.write(fd, filter_bpf())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
