"""The seal keys: HMAC-SHA256 keys, each with an id, kept apart from ``SECRET_KEY``.

Lab run records and the audit chain are sealed with the *current* key (the
first one); older keys stay listed so that what they sealed still verifies
after a rotation. Plain Python, no Django imports: settings load it.

Format, in the ``SEAL_KEYS`` environment variable or in ``var/seal_keys``
(one per line there): ``<key id>:<secret>``, comma separated in the variable.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

KEY_ID = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
MIN_SECRET_LENGTH = 32


class SealKeyError(ValueError):
    """The configured seal keys cannot be used (bad id, short secret, duplicate id)."""


@dataclass(frozen=True)
class SealKey:
    key_id: str
    secret: str

    def mac(self, message: bytes) -> str:
        return hmac.new(self.secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def canonical(value: Any) -> bytes:
    """One byte form per value, whatever the database hands back (key order, time zone, tuples)."""

    def default(item: Any) -> str:
        if isinstance(item, datetime):
            return item.astimezone(UTC).isoformat()
        raise TypeError(f"cannot seal {type(item).__name__}")

    if isinstance(value, datetime):
        value = default(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=default).encode()


def parse_seal_keys(text: str) -> tuple[SealKey, ...]:
    """Read ``id:secret`` entries (comma or newline separated); the first is the current key."""
    keys: list[SealKey] = []
    for item in re.split(r"[,\n]", text):
        item = item.strip()
        if not item or item.startswith("#"):
            continue
        key_id, sep, secret = item.partition(":")
        if not sep or not KEY_ID.match(key_id):
            raise SealKeyError(f"봉인 키 항목은 '키id:비밀값' 형식이어야 합니다 (키 id: {key_id[:32]!r}).")
        if len(secret) < MIN_SECRET_LENGTH:
            raise SealKeyError(f"봉인 키 {key_id}의 비밀값이 {MIN_SECRET_LENGTH}자보다 짧습니다.")
        if any(key.key_id == key_id for key in keys):
            raise SealKeyError(f"봉인 키 id {key_id}가 두 번 나옵니다.")
        keys.append(SealKey(key_id, secret))
    if not keys:
        raise SealKeyError("봉인 키가 하나도 없습니다.")
    return tuple(keys)


def new_seal_key(*, taken: tuple[SealKey, ...] = ()) -> SealKey:
    """Make a fresh key whose id says when it was made (``s20261201-ab12``)."""
    while True:
        key_id = f"s{datetime.now(UTC):%Y%m%d}-{secrets.token_hex(2)}"
        if all(key.key_id != key_id for key in taken):
            return SealKey(key_id, secrets.token_urlsafe(48))


def format_seal_keys(keys: tuple[SealKey, ...]) -> str:
    return "".join(f"{key.key_id}:{key.secret}\n" for key in keys)


def write_seal_key_file(path: Path, keys: tuple[SealKey, ...]) -> None:
    """Replace the key file atomically, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(format_seal_keys(keys))
    os.replace(temporary, path)


def load_or_create_seal_keys(path: Path) -> tuple[SealKey, ...]:
    """Return the keys from ``SEAL_KEYS``, or from a file made once (mode 600) on first start."""
    if text := os.environ.get("SEAL_KEYS"):
        return parse_seal_keys(text)
    try:
        return parse_seal_keys(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        keys = (new_seal_key(),)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return parse_seal_keys(path.read_text(encoding="utf-8"))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(format_seal_keys(keys))
        return keys


def current_key() -> SealKey:
    from django.conf import settings

    return settings.SEAL_KEYS[0]


def key_for(key_id: str) -> SealKey | None:
    """The key with this id, or ``None`` once it is no longer configured."""
    from django.conf import settings

    return next((key for key in settings.SEAL_KEYS if key.key_id == key_id), None)
