"""The declared extension points (``tutor.extensions``) and the import layering they make possible."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Protocol

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from tutor import extensions

ROOT = Path(settings.BASE_DIR)


def test_every_provider_answers_every_method_of_its_point() -> None:
    """Each registered provider has each public method of the Protocol it registered for."""
    points = extensions.registered_points()
    assert len(points) >= 8
    for point, found in points.items():
        assert found, point
        for provider in found:
            for name in extensions.members(point):
                assert callable(getattr(provider, name, None)), (point, provider, name)


def test_no_app_answers_a_point_it_did_not_register_for() -> None:
    """An app config with a point's methods is registered for that point: nothing is found by ``hasattr`` any more,
    so a method written without registering would be silently ignored; this test says so instead."""
    points = extensions.registered_points()
    for config in apps.get_app_configs():
        for point, found in points.items():
            if all(callable(getattr(config, name, None)) for name in extensions.members(point)):
                assert config in found, f"{config.label} has the methods of {point.__qualname__} but did not register"


def test_a_provider_without_a_method_is_refused_at_registration() -> None:
    """Registering something that lacks a method fails at start-up with the missing names, not in a request."""

    class Point(Protocol):
        def first(self) -> None: ...

        def second(self) -> int: ...

    class HalfDone:
        def first(self) -> None:
            return None

    with pytest.raises(ImproperlyConfigured, match="second"):
        extensions.register(Point, HalfDone())
    assert extensions.providers(Point) == []


def imported_modules(folder: Path) -> dict[Path, set[str]]:
    """Every module each file imports, at any depth (a lazy import inside a function counts too)."""
    found: dict[Path, set[str]] = {}
    for path in folder.rglob("*.py"):
        if "migrations" in path.parts or "content" in path.parts:
            continue
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
            elif isinstance(node, ast.ImportFrom) and node.level:
                parts = path.relative_to(ROOT).parent.parts
                package = ".".join(parts[: len(parts) - node.level + 1])
                if node.module:
                    names.add(f"{package}.{node.module}")
                else:
                    names.update(f"{package}.{alias.name}" for alias in node.names)
        found[path] = names
    return found


@pytest.mark.parametrize(("layer", "above"), [
    ("tutor", ("lessons", "exercises")),
    ("lessons", ("exercises",)),
    ("exercises/labs", ("exercises.evidence", "exercises.grounding")),
    ("exercises/grounding", ("exercises.evidence",)),
])
def test_a_lower_app_imports_nothing_of_the_apps_built_on_it(layer: str, above: tuple[str, ...]) -> None:
    """``tutor`` < ``lessons`` < ``labs`` and ``grounding`` < ``evidence``: a lower app reaches a higher one only
    through a registered extension point, never by importing it (not even inside a function)."""
    for path, names in imported_modules(ROOT / layer).items():
        wrong = sorted(name for name in names if name.startswith(above))
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


def test_the_worker_side_of_a_run_imports_neither_the_request_side_nor_the_tasks() -> None:
    """``services`` enqueues ``tasks.execute_lab_run``, which calls ``execution``; ``execution`` imports neither
    (the services↔tasks circle is gone), and ``tasks`` does not import ``services``."""
    modules = imported_modules(ROOT / "exercises" / "labs")
    execution = modules[ROOT / "exercises" / "labs" / "execution.py"]
    tasks = modules[ROOT / "exercises" / "labs" / "tasks.py"]
    assert not {"exercises.labs.services", "exercises.labs.tasks"} & execution
    assert "exercises.labs.services" not in tasks and "exercises.labs.execution" in tasks
