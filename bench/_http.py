"""The server `make serve` starts, on a scratch database, and a small keep-alive HTTP client.

``Site`` prepares a database (migrate, load_course, collectstatic: what `make
serve` does) in a temporary ``TUTOR_VAR_DIR`` (or the PostgreSQL database named
by ``--database-url``, which should be a scratch one), creates bench learners
with API tokens and sessions, then runs ``manage.py serve`` under the same
settings as `make serve` and waits until ``/healthz`` says the sandbox passed.
Everything goes through HTTP on 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import ROOT

PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    def __init__(self, *, database_url: str | None, task_workers: int, learners: int = 30,
                 env: dict[str, str] | None = None) -> None:
        self.var = tempfile.mkdtemp(prefix="tutor-http-bench-")
        self.port = free_port()
        self.env = {**os.environ, "TUTOR_VAR_DIR": self.var, "DJANGO_SETTINGS_MODULE": "tutor.settings.serve",
                    "REQUEST_LOG_LEVEL": "INFO", "LOG_LEVEL": "WARNING"}
        self.env.pop("DATABASE_URL", None)
        self.env.update(env or {})
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.task_workers = task_workers
        self.learners = learners
        self.process: subprocess.Popen[bytes] | None = None
        self.tokens: list[str] = []
        self.sessions: list[str] = []

    @property
    def vendor(self) -> str:
        return "postgresql" if "DATABASE_URL" in self.env else "sqlite"

    def manage(self, *args: str) -> None:
        subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def prepare(self) -> None:
        self.manage("migrate", "--no-input", "--verbosity", "0")
        self.manage("load_course", "--verbosity", "0")
        self.manage("collectstatic", "--no-input", "--verbosity", "0")
        script = Path(__file__).with_name("_bench_people.py")
        out = subprocess.run([PYTHON, str(script), str(self.learners)], cwd=ROOT, env=self.env, check=True,
                             capture_output=True, text=True).stdout
        people = json.loads(out)
        self.tokens, self.sessions = people["tokens"], people["sessions"]

    def start(self) -> None:
        log = open(Path(self.var) / "serve.log", "wb")  # noqa: SIM115 (kept open for the child)
        self.process = subprocess.Popen(
            [PYTHON, "manage.py", "serve", "--port", str(self.port), "--workers", str(self.task_workers)],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                status, body = get(self.port, "/healthz")
                checks = json.loads(body)["checks"]
                if status == 200 and checks["sandbox"]["ok"]:
                    time.sleep(0.5 * self.task_workers)  # let every worker finish its self-test
                    if self.workers_ready():
                        return
            except (OSError, ValueError, KeyError, http.client.HTTPException):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"server did not become healthy; see {self.var}/serve.log")

    def workers_ready(self) -> bool:
        text = (Path(self.var) / "serve.log").read_text(errors="replace")
        return text.count("샌드박스 점검 통과") >= self.task_workers

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self) -> Site:
        # A bench stopped with SIGTERM still stops the server it started.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
        self.prepare()
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def get(port: int, path: str, *, headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Client:
    """One keep-alive connection, as one browser tab would hold; reconnects when the server closes."""

    def __init__(self, port: int, *, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.headers = headers or {}
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        data = json.dumps(body).encode() if body is not None else None
        merged = {**self.headers, **(headers or {})}
        if data is not None:
            merged["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=data, headers=merged)
                response = self.conn.getresponse()
                payload = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, payload
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # The server closed an idle keep-alive connection: what a browser retries too.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
