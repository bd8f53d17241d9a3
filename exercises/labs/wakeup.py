"""Wake idle task workers the moment a run is queued, instead of polling fast all the time.

On PostgreSQL a ``NOTIFY`` reaches every listening worker on every host. On
SQLite (one host by nature) each worker binds a Unix datagram socket in
``var/run/workers/`` and the web process sends one byte to each. Either way the
signal is only a hint: a worker that misses it still finds the task at its next
poll, and the queue itself (``select_for_update(skip_locked=True)``) decides who
takes a task, so a wake-up can never make a run happen twice.
"""

from __future__ import annotations

import logging
import os
import select
import socket
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)

CHANNEL = "tutor_lab_runs"


class Waiter(Protocol):
    def wait(self, timeout: float) -> bool:
        """Block until woken or ``timeout`` seconds pass; say whether something woke us."""

    def close(self) -> None: ...


def socket_dir() -> Path:
    return Path(settings.VAR_DIR) / "run" / "workers"


def notify_workers() -> None:
    """Tell idle workers a task is waiting. Never fails the request that queued it."""
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, '')", [CHANNEL])
        else:
            _poke_sockets()
    except (OSError, DatabaseError):
        logger.warning("could not wake the task workers; they will find the run at their next poll",
                       exc_info=True)


def _poke_sockets() -> None:
    send_datagrams(socket_dir(), b"!")


def send_datagrams(directory: Path, payload: bytes) -> None:
    """Send ``payload`` to every process socket in ``directory`` (one host; SQLite's wake-ups). A socket whose
    process went away is removed; a full buffer is skipped: the signal is only a hint, never the record."""
    if not directory.is_dir():
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in directory.glob("*.sock"):
            try:
                sender.sendto(payload, str(path))
            except (ConnectionRefusedError, FileNotFoundError):
                path.unlink(missing_ok=True)  # a process that died without removing its socket
            except OSError:
                pass  # its buffer is full of signals already, or the path is unusable


class SocketWaiter:
    """A datagram socket this worker process listens on (SQLite, one host)."""

    def __init__(self) -> None:
        directory = socket_dir()
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / f"worker-{os.getpid()}.sock"
        self.path.unlink(missing_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.setblocking(False)

    def wait(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.sock], [], [], timeout)
        woken = False
        while ready:
            try:
                self.sock.recv(64)
                woken = True
            except BlockingIOError:
                break
        return woken

    def close(self) -> None:
        self.sock.close()
        self.path.unlink(missing_ok=True)


class ListenWaiter:
    """A separate PostgreSQL connection that ``LISTEN``s on the channel (any number of hosts)."""

    def __init__(self) -> None:

        connection.ensure_connection()
        params: dict[str, Any] = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        self.params = params
        self.conn = self._listen()

    def _listen(self) -> Any:
        import psycopg

        conn = psycopg.connect(**self.params, autocommit=True)
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def wait(self, timeout: float) -> bool:
        import psycopg

        try:
            return any(True for _ in self.conn.notifies(timeout=timeout, stop_after=1))
        except psycopg.Error:
            logger.warning("lost the LISTEN connection; polling until it is back", exc_info=True)
            select.select([], [], [], timeout)
            try:
                self.conn = self._listen()
            except psycopg.Error:
                pass
            return False

    def close(self) -> None:
        self.conn.close()


class SleepWaiter:
    """No wake-ups at all (an unusable socket path): plain sleeping between polls."""

    def wait(self, timeout: float) -> bool:
        select.select([], [], [], timeout)
        return False

    def close(self) -> None:
        pass


def open_waiter() -> Waiter:
    """The best wake-up channel for this database; falls back to polling alone."""
    try:
        return ListenWaiter() if connection.vendor == "postgresql" else SocketWaiter()
    except Exception:  # any failure here only costs latency, never a run
        logger.warning("no wake-up channel for the worker; it polls only", exc_info=True)
        return SleepWaiter()
