from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Courses, lessons, self-checks, fictional fixtures, content loading and completion."""

    name = "lessons"
    verbose_name = "레슨"
    default_auto_field = "django.db.models.BigAutoField"

    def fixture_uses(self, fixture: Any) -> list[Any]:
        """Called by ``lessons.fixture_refs.uses_of``: current lesson texts and files that point at or copy its lines."""
        from .fixture_refs import lines_referred, use
        from .models import Lesson

        lines = fixture.current_version.text.splitlines() if fixture.current_version else []

        def copied(text: str) -> set[int]:
            # A line long enough to be recognised, found word for word: a copy the reference would have avoided.
            return {n for n, line in enumerate(lines, start=1) if len(line.strip()) >= 8 and line.strip() in text}

        uses = []
        for lesson in Lesson.objects.with_current().filter(current_version__isnull=False).prefetch_related(
                "current_version__files"):
            version = lesson.current_version
            assert version is not None
            text = "".join(part["html"] for part in version.parts)
            if f"[[{fixture.slug}" in text:
                uses.append(use("레슨 본문", f"{lesson.order}. {version.title}", lines_referred(text, fixture.slug)))
            if copied(text):
                uses.append(use("레슨 본문 (줄을 그대로 옮김)", f"{lesson.order}. {version.title}", copied(text)))
            for file in version.files.all():
                if copied(file.content):
                    uses.append(use("레슨 파일 (줄을 그대로 옮김)", f"{version.title} · {file.name}", copied(file.content)))
        return uses
