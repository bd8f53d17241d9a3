"""A real SMTP server (aiosmtpd) for the tests, on a free local port, with Django's EMAIL_* pointed at it.

Use the ``smtp_server`` fixture (imported in ``tests/conftest.py``): every message
the site sends over SMTP during the test arrives in ``smtp_server.messages``.
"""

from __future__ import annotations

import email
import email.policy
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest


@dataclass
class SmtpServer:
    host: str
    port: int
    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_for(self, count: int, *, timeout: float = 10.0) -> list[EmailMessage]:
        """Wait until at least ``count`` messages arrived; return them all."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.02)
        raise AssertionError(f"expected {count} message(s) over SMTP, got {len(self.messages)}")

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address.lower() in str(m["To"]).lower()]


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.server.lock:
            self.server.messages.append(message)  # type: ignore[arg-type]
            self.server.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def body_of(message: EmailMessage) -> str:
    """The plain-text body, decoded."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[SmtpServer]:
    """Start aiosmtpd on a free port and send the site's mail there over SMTP (not the in-memory outbox)."""
    from aiosmtpd.controller import Controller

    server = SmtpServer(host="127.0.0.1", port=_free_port())
    controller = Controller(_Handler(server), hostname=server.host, port=server.port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = server.host
    settings.EMAIL_PORT = server.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.DEFAULT_FROM_EMAIL = "근거 튜터 <no-reply@tutor.test>"
    try:
        yield server
    finally:
        controller.stop()
