"""Tell the run's page the moment its run ends: a status request held open until then (long polling).

The page asks ``GET /labs/runs/<id>/?wait=1`` as soon as it shows a queued run.
The web process holds that request until the run has ended or
``LAB_RUN_HOLD_SECONDS`` pass, then answers the fragment; an unfinished answer
asks again at once. The wait is woken by the worker that finished the run:

- on PostgreSQL by ``NOTIFY tutor_lab_run_done, '<id>'``, which every web
  process on every host hears on one ``LISTEN`` connection of its own;
- on SQLite (one host) by a datagram with the run's id sent to each web
  process's socket in ``var/run/web/``.

The signal is only a hint, as the workers' wake-up is (``wakeup``): the held
request re-reads the run from the database when woken and every
``RECHECK_SECONDS`` anyway, so a lost signal costs latency, never a result.
Holding costs a gunicorn thread, so each process holds at most
``LAB_RUN_HOLD_MAX`` requests; past that the request is answered at once and
the page polls after 250 ms, as it always did (the fallback without JavaScript
is the run page's own refresh).
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection

from .wakeup import send_datagrams

logger = logging.getLogger(__name__)

CHANNEL = "tutor_lab_run_done"
#: A held request re-reads its run this often even without a signal.
RECHECK_SECONDS = 1.0


def web_socket_dir() -> Path:
    return Path(settings.VAR_DIR) / "run" / "web"


def notify_run_finished(run_id: int) -> None:
    """Wake every web process holding a request for this run. Never fails the caller (the worker)."""
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(run_id)])
        else:
            send_datagrams(web_socket_dir(), str(run_id).encode())
    except (OSError, DatabaseError):
        logger.warning("could not tell the web processes that run %s ended; their held requests re-check",
                       run_id, exc_info=True)


class _Board:
    """This process's held requests by run id, and the one listener thread that wakes them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[int, list[threading.Event]] = defaultdict(list)
        self.held = 0
        self.pid = 0
        self.listener: threading.Thread | None = None

    @contextmanager
    def slot(self) -> Iterator[bool]:
        """Take one of this process's hold slots; yield False when all are taken (answer at once)."""
        with self.lock:
            free = self.held < settings.LAB_RUN_HOLD_MAX
            if free:
                self.held += 1
        try:
            yield free
        finally:
            if free:
                with self.lock:
                    self.held -= 1

    @contextmanager
    def watch(self, run_id: int) -> Iterator[threading.Event]:
        event = threading.Event()
        with self.lock:
            self._ensure_listener()
            self.waiting[run_id].append(event)
        try:
            yield event
        finally:
            with self.lock:
                events = self.waiting.get(run_id, [])
                if event in events:
                    events.remove(event)
                if not events:
                    self.waiting.pop(run_id, None)

    def wake(self, run_id: int) -> None:
        with self.lock:
            events = list(self.waiting.get(run_id, []))
        for event in events:
            event.set()

    def _ensure_listener(self) -> None:
        # A forked process (gunicorn's workers) starts its own listener: threads do not survive a fork.
        if self.listener is not None and self.pid == os.getpid() and self.listener.is_alive():
            return
        self.pid = os.getpid()
        listen = _listen_postgresql if connection.vendor == "postgresql" else _listen_socket
        params = connection.get_connection_params() if connection.vendor == "postgresql" else {}
        self.listener = threading.Thread(target=_run_listener, args=(listen, params), daemon=True,
                                         name="lab-run-push")
        self.listener.start()


BOARD = _Board()
_STOP = threading.Event()


def stop_listening(timeout: float = 5.0) -> None:
    """End this process's listener (its database connection closes); a later held request starts it again.
    For a process about to close its database, such as a test session on PostgreSQL dropping its database."""
    listener = BOARD.listener
    _STOP.set()
    if listener is not None:
        listener.join(timeout)
    BOARD.listener = None
    _STOP.clear()


def _run_listener(listen: Any, params: dict[str, Any]) -> None:
    while not _STOP.is_set():
        try:
            listen(params)
        except Exception:  # never let the thread die: held requests fall back to re-checking meanwhile
            logger.warning("lab run push listener stopped; starting again", exc_info=True)
        time.sleep(1.0)


def _listen_postgresql(params: dict[str, Any]) -> None:
    import psycopg

    params = {key: value for key, value in params.items() if key not in ("cursor_factory", "context")}
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        while not _STOP.is_set():
            for notice in conn.notifies(timeout=1.0):
                if notice.payload.isdigit():
                    BOARD.wake(int(notice.payload))


def _listen_socket(_params: dict[str, Any]) -> None:
    directory = web_socket_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"web-{os.getpid()}.sock"
    path.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        try:
            while not _STOP.is_set():
                ready, _, _ = select.select([sock], [], [], 1.0)
                if not ready:
                    continue
                payload = sock.recv(64)
                if payload.isdigit():
                    BOARD.wake(int(payload))
        finally:
            path.unlink(missing_ok=True)


def hold_until_finished(run_id: int, is_finished: Any, *, timeout: float | None = None) -> bool:
    """Wait until ``is_finished()`` (a fresh database read) is true or ``timeout`` passes; say whether this
    request was held at all (False when every hold slot of the process is taken or holding is off)."""
    timeout = settings.LAB_RUN_HOLD_SECONDS if timeout is None else timeout
    if timeout <= 0:
        return False
    with BOARD.slot() as held:
        if not held:
            return False
        deadline = time.monotonic() + timeout
        with BOARD.watch(run_id) as woken:
            while not is_finished():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                woken.wait(min(remaining, RECHECK_SECONDS))
                woken.clear()
        return True
