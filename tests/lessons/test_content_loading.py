"""``load_course``: idempotent upserts by digest, unpublish instead of delete, admin edits kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings

from lessons.content import ContentError, read_lesson
from lessons.models import Fixture, FixtureVersion, Lesson, LessonVersion, PartKey, SelfCheck
from lessons.services import create_fixture_version, load_course
from tutor.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, target)
    return target


def test_loading_twice_makes_no_new_versions(content: Path) -> None:
    """A second run over unchanged files creates nothing and reports no change."""
    load_course(content_dir=content)
    counts = (LessonVersion.objects.count(), SelfCheck.objects.count(), AuditEntry.objects.count())
    report = load_course(content_dir=content)
    assert not report.changed
    assert sorted(report.unchanged) == sorted(p.name for p in content.iterdir() if (p / "lesson.md").exists())
    assert (LessonVersion.objects.count(), SelfCheck.objects.count(), AuditEntry.objects.count()) == counts


def test_changed_file_makes_a_new_version_and_keeps_the_old(content: Path) -> None:
    load_course(content_dir=content)
    lesson_md = content / "tool-calls" / "lesson.md"
    lesson_md.write_text(lesson_md.read_text(encoding="utf-8") + "\n덧붙인 문장입니다.\n", encoding="utf-8")
    report = load_course(content_dir=content)
    lesson = Lesson.objects.get(slug="tool-calls")
    assert report.new_versions == ["tool-calls"]
    assert list(lesson.versions.values_list("number", flat=True)) == [2, 1]
    assert lesson.current_version.number == 2
    assert "덧붙인 문장입니다." in lesson.current_version.parts[-1]["html"]


def test_removed_lesson_is_unpublished_not_deleted(content: Path) -> None:
    load_course(content_dir=content)
    shutil.rmtree(content / "ontology-questions")
    report = load_course(content_dir=content)
    lesson = Lesson.objects.get(slug="ontology-questions")
    assert report.unpublished == ["ontology-questions"]
    assert not lesson.is_published
    assert lesson.versions.count() == 1
    assert AuditEntry.objects.about(lesson).filter(action="lesson.unpublish").exists()


def test_admin_edit_of_a_fixture_survives_reloading_a_changed_file(content: Path) -> None:
    """Loading again never silently overwrites what a fixture admin changed."""
    load_course(content_dir=content)
    fixture = Fixture.objects.get(slug="bookshop-notice")
    create_fixture_version(fixture=fixture, text="관리자가 고친 줄\n", origin=FixtureVersion.Origin.ADMIN, actor=None, reason="시험")
    notice = content / "answer-from-sources" / "fixtures" / "bookshop-notice.txt"
    notice.write_text(notice.read_text(encoding="utf-8") + "파일에 새로 붙인 줄\n", encoding="utf-8")
    report = load_course(content_dir=content)
    fixture.refresh_from_db()
    assert report.fixtures_kept == ["bookshop-notice"]
    assert fixture.current_version.text == "관리자가 고친 줄\n"
    assert fixture.versions.count() == 2


def test_every_lesson_has_the_twelve_parts_in_order() -> None:
    for folder in sorted(p for p in settings.CONTENT_DIR.iterdir() if (p / "lesson.md").is_file()):
        source = read_lesson(folder)
        assert [part.key for part in source.parts] == list(PartKey.values), folder.name
        assert source.self_checks, f"{folder.name} has no self-checks"


def test_a_missing_part_is_refused_with_the_file_named(content: Path) -> None:
    lesson_md = content / "tool-calls" / "lesson.md"
    text = lesson_md.read_text(encoding="utf-8")
    lesson_md.write_text(text.replace("{#transfer}", "{#elsewhere}"), encoding="utf-8")
    with pytest.raises(ContentError, match="lesson.md"):
        read_lesson(content / "tool-calls")


def test_raw_html_in_lesson_markdown_is_escaped(content: Path) -> None:
    lesson_md = content / "tool-calls" / "lesson.md"
    text = lesson_md.read_text(encoding="utf-8")
    lesson_md.write_text(text.replace("{#analogy}\n", "{#analogy}\n\n<script>alert(1)</script> <img src=x onerror=alert(2)>\n", 1), encoding="utf-8")
    html = read_lesson(content / "tool-calls").parts[0].rendered.html
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def test_code_is_highlighted_and_subheadings_are_numbered() -> None:
    source = read_lesson(settings.CONTENT_DIR / "tool-calls")
    all_html = "".join(part.rendered.html for part in source.parts)
    assert '<code class="highlight language-python">' in all_html
    assert '<span class="k">' in all_html  # a Pygments keyword token
    mechanism = source.parts[1]
    assert mechanism.rendered.subheadings[0].anchor == "s2-1"
    assert 'id="s2-1"' in mechanism.rendered.html
