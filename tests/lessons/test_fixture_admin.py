"""Fixture admins edit fictional fixtures in the admin: every edit is a version with a diff and an audit entry,
and text that looks like real personal data is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lessons.fixture_checks import personal_data_findings
from lessons.models import Fixture, FixtureVersion, Lesson
from lessons.services import create_fixture_version
from tests.conftest import signed_in
from tutor.errors import Refused
from tutor.models import AuditEntry


@pytest.fixture
def admin_client(fixture_admin: User) -> Client:
    fixture_admin.is_staff = True
    fixture_admin.save()
    return signed_in(fixture_admin)


def change_url(fixture: Fixture) -> str:
    return f"/admin/lessons/fixture/{fixture.pk}/change/"


@pytest.mark.parametrize("text", [
    "문의: 010-1234-5678", "문의 02-555-1234", "연락처 01012345678", "메일 hong@example.com", "주민번호 900101-1234567",
])
def test_personal_data_patterns_are_found(text: str) -> None:
    assert personal_data_findings(f"첫 줄\n{text}") == [personal_data_findings(text)[0].replace("1번", "2번")]


@pytest.mark.parametrize("text", ["영업시간 11~18시", "대관료 12,000원", "R101 B17 수량 3", "2026-11-30 화요일"])
def test_ordinary_fictional_lines_pass(text: str) -> None:
    assert personal_data_findings(text) == []


def test_fixture_admin_edit_makes_a_version_with_diff_and_audit(admin_client: Client, fixture_admin: User,
                                                               course: list[Lesson]) -> None:
    fixture = Fixture.objects.get(slug="bookshop-notice")
    old = fixture.current_version
    text = old.text.replace("18시", "19시")
    response = admin_client.post(change_url(fixture), {
        "title": fixture.title, "text": text, "reason": "영업시간 연장 (가상)", "confirm_changed_lines": "on",
        "versions-TOTAL_FORMS": "0", "versions-INITIAL_FORMS": "0",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    fixture.refresh_from_db()
    new = fixture.current_version
    assert new.number == old.number + 1 and new.origin == FixtureVersion.Origin.ADMIN and new.created_by == fixture_admin
    assert "-" in new.diff_from_previous and "19시" in new.diff_from_previous
    entry = AuditEntry.objects.about(fixture).filter(action="fixture.version").first()
    assert entry.actor == fixture_admin and entry.reason == "영업시간 연장 (가상)"
    assert entry.before_digest and entry.after_digest and entry.before_digest != entry.after_digest


def test_admin_refuses_personal_data_and_keeps_the_fixture(admin_client: Client, course: list[Lesson]) -> None:
    fixture = Fixture.objects.get(slug="bookshop-notice")
    before = fixture.current_version_id
    response = admin_client.post(change_url(fixture), {
        "title": fixture.title, "text": "문의 010-9876-5432", "reason": "연락처 추가",
        "versions-TOTAL_FORMS": "0", "versions-INITIAL_FORMS": "0",
    })
    assert response.status_code == 200
    assert "개인정보처럼 보이는" in response.content.decode()
    fixture.refresh_from_db()
    assert fixture.current_version_id == before


def test_service_refuses_personal_data_too(course: list[Lesson]) -> None:
    fixture = Fixture.objects.get(slug="bookshop-notice")
    with pytest.raises(Refused, match="이메일"):
        create_fixture_version(fixture=fixture, text="담당 kim@example.org", origin="admin", actor=None, reason="x")


def test_fixture_admin_sees_fixtures_but_not_learner_records(admin_client: Client, course: list[Lesson]) -> None:
    assert admin_client.get("/admin/lessons/fixture/").status_code == 200
    for url in ("/admin/labs/labrun/", "/admin/grounding/attempt/", "/admin/tutor/auditentry/", "/admin/auth/user/"):
        assert admin_client.get(url).status_code == 403, url
