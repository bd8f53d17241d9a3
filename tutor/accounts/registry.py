"""What the site holds about a person, kind by kind: for their download and for deleting their account.

Every app says, in a ``personal_data.py`` module of its own (found like ``admin.py``),
which of its records are about a person (``register``) and which links to a user are
not (``not_personal``, with the reason). A test fails when a model links to a user
and no app said which it is, so a new app cannot be forgotten silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.utils.module_loading import autodiscover_modules

Row = Mapping[str, Any]


@dataclass(frozen=True)
class RecordKind:
    """One kind of record about a person: a CSV in their download, and what deleting the account does to it.

    ``links`` names the user links it covers, as ``"app_label.Model.field"``.
    ``erase`` removes the person's own records and returns how many; ``None`` means
    the records stay (what they wrote for others, kept under "탈퇴한 학습자", or an
    append-only record), and ``kept_because`` says why. Erasers run by ``order``,
    lowest first, so records that point at others go before those.
    """

    name: str
    title: str
    rows: Callable[[User], Sequence[Row]]
    links: tuple[str, ...] = ()
    erase: Callable[[User], int] | None = None
    kept_because: str = ""
    order: int = 100


@dataclass
class _Registry:
    kinds: dict[str, RecordKind] = field(default_factory=dict)
    not_personal: dict[str, str] = field(default_factory=dict)
    discovered: bool = False


_registry = _Registry()


def register(kind: RecordKind) -> None:
    if kind.name in _registry.kinds and _registry.kinds[kind.name] != kind:
        raise ValueError(f"personal data kind {kind.name!r} registered twice")
    if kind.erase is None and not kind.kept_because:
        raise ValueError(f"{kind.name}: a kind that deletion keeps must say why (kept_because)")
    _registry.kinds[kind.name] = kind


def not_personal(link: str, reason: str) -> None:
    """Declare that a user link (``"app_label.Model.field"``) holds nothing about that person to export."""
    _registry.not_personal[link] = reason


def _discover() -> None:
    if not _registry.discovered:
        autodiscover_modules("personal_data")
        _registry.discovered = True


def kinds() -> list[RecordKind]:
    """Every registered kind, in erasing order."""
    _discover()
    return sorted(_registry.kinds.values(), key=lambda kind: (kind.order, kind.name))


def declared_links() -> dict[str, str]:
    """Every user link some app accounted for: covered by a kind, or declared not personal (with why)."""
    _discover()
    links = {link: f"kind {kind.name}" for kind in _registry.kinds.values() for link in kind.links}
    return {**links, **_registry.not_personal}


def delete_rows(queryset: Any) -> int:
    """Delete a queryset and return how many rows of its own model went (not the cascaded ones)."""
    deleted: dict[str, int] = queryset.delete()[1]
    return deleted.get(queryset.model._meta.label, 0)
