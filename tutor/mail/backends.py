"""A mail backend for a site without a mail server: one ``.eml`` file per message under ``var/mail/``.

Django's own file backend appends every message of a connection to one ``.log``
file; this one writes each message as a file any mail program opens.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class EmlFileBackend(BaseEmailBackend):
    def __init__(self, *args: Any, file_path: str | os.PathLike[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.directory = Path(file_path or getattr(settings, "EMAIL_FILE_PATH", None)
                              or Path(settings.VAR_DIR) / "mail")

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.directory.mkdir(parents=True, exist_ok=True)
        written = 0
        for message in email_messages:
            name = f"{timezone.now():%Y%m%d-%H%M%S}-{secrets.token_hex(6)}.eml"
            data = message.message().as_bytes()
            try:
                fd = os.open(self.directory / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
            except OSError:
                if not self.fail_silently:
                    raise
                continue
            written += 1
        return written
