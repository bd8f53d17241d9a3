"""Self-reports count against the self-check version they answered; after a revision the progress
page and API say 기준 변경됨 instead of counting old reports against new self-checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from lessons.models import Lesson, SelfCheck
from lessons.services import load_course, report_understood
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db


def test_reports_on_an_older_version_are_not_counted_against_the_new_one(tmp_path: Path, learner: User) -> None:
    content = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, content)
    load_course(content_dir=content)
    lesson = Lesson.objects.with_current().get(slug="tool-calls")
    checks = list(SelfCheck.objects.filter(version=lesson.current_version))
    for check in checks:
        report_understood(user=learner, self_check=check)
    client = signed_in(learner)
    [before] = [e for e in client.get("/api/me/progress").json()["lessons"] if e["lesson"] == "tool-calls"]
    assert before["self_report"]["understood"] == len(checks) and not before["self_report"]["standard_changed"]

    lesson_md = content / "tool-calls" / "lesson.md"
    lesson_md.write_text(lesson_md.read_text(encoding="utf-8") + "\n고친 문장.\n", encoding="utf-8")
    load_course(content_dir=content)
    [after] = [e for e in client.get("/api/me/progress").json()["lessons"] if e["lesson"] == "tool-calls"]
    track = after["self_report"]
    assert track["understood"] == 0 and track["self_checks"] == len(checks) and track["version"] == 2
    assert track["standard_changed"] is True
    assert track["earlier_versions"] == [{"version": 1, "understood": len(checks)}]
    page = client.get("/me/progress/").content.decode()
    assert "기준 변경됨" in page and f'"이해했어요": 0 / {len(checks)}' in page.replace("&quot;", '"')

    lesson_page = client.get(f"/lessons/{lesson.slug}/").content.decode()
    assert "기준 변경됨" in lesson_page and f"{len(checks)}개 남겼습니다" in lesson_page

    new_check = SelfCheck.objects.filter(version__lesson=lesson).order_by("-version__number", "order").first()
    report_understood(user=learner, self_check=new_check)
    [again] = [e for e in client.get("/api/me/progress").json()["lessons"] if e["lesson"] == "tool-calls"]
    assert again["self_report"]["understood"] == 1 and again["self_report"]["reports"][0]["version"] == 2
