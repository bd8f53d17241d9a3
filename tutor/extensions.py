"""Declared extension points between an app and the apps built on it.

An app lower in the stack (``lessons``, ``labs``, ``tutor.notices``) names what
it asks of the apps above it as a ``typing.Protocol`` (an *extension point*).
An app that answers registers itself for that point in its ``AppConfig.ready()``
and the lower app asks ``providers(point)``. So the lower app never imports
the higher one, the contract is written down in one place with its types,
and a provider that lacks a method fails at start-up, not when a learner
first reaches the code that calls it.

Providers are kept in registration order (the order of ``INSTALLED_APPS``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import ImproperlyConfigured

P = TypeVar("P")

_providers: dict[Any, list[Any]] = {}


def members(point: Any) -> list[str]:
    """The methods a provider of ``point`` must have: the Protocol's own public functions."""
    return sorted(name for name, value in vars(point).items()
                  if not name.startswith("_") and inspect.isfunction(value))


def register(point: Any, provider: object) -> None:
    """Add ``provider`` to ``point`` once; refuse one that lacks a method of the point's Protocol."""
    missing = [name for name in members(point) if not callable(getattr(provider, name, None))]
    if missing:
        raise ImproperlyConfigured(
            f"{provider!r} registers for {getattr(point, '__qualname__', point)} without {', '.join(missing)}")
    registered = _providers.setdefault(point, [])
    if provider not in registered:
        registered.append(provider)


def providers(point: Callable[..., P]) -> list[P]:
    """Everything registered for ``point``, in registration order."""
    return list(_providers.get(point, []))


def registered_points() -> dict[Any, list[Any]]:
    """Every point with its providers (for the system check and the tests)."""
    return {point: list(found) for point, found in _providers.items()}
