"""The audit log is append-only and records refused access."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lessons.models import Lesson
from lessons.services import set_lesson_published
from tests.conftest import signed_in
from tutor import audit
from tutor.models import AuditEntry


def test_entries_cannot_be_changed_or_deleted(lesson: Lesson, learner: User) -> None:
    entry = audit.record(actor=learner, action="test.action", target=lesson, before={"a": 1}, after={"a": 2})
    assert entry.before_digest != entry.after_digest and len(entry.after_digest) == 64
    entry.reason = "고침"
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="x")
    with pytest.raises(TypeError):
        AuditEntry.objects.all().delete()


def test_publication_changes_are_audited_with_actor_and_reason(lesson: Lesson, instructor: User) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=instructor, reason="고칠 곳이 있어 내림")
    entry = AuditEntry.objects.about(lesson).get(action="lesson.unpublish")
    assert entry.actor == instructor and entry.reason == "고칠 곳이 있어 내림"


def test_refused_access_to_an_unpublished_lesson_is_audited(lesson: Lesson, learner: User) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    assert signed_in(learner).get(f"/lessons/{lesson.slug}/").status_code == 404
    assert AuditEntry.objects.about(lesson).filter(action="access.deny", actor=learner).count() == 1


def test_audit_entries_are_read_only_in_the_admin(lesson: Lesson) -> None:
    admin = User.objects.create_superuser("root", password="x-very-long-password")
    entry = audit.record(actor=admin, action="test.action", target=lesson)
    client = Client()
    client.force_login(admin)
    assert client.get(f"/admin/tutor/auditentry/{entry.pk}/delete/").status_code in (403, 302)
    client.post(f"/admin/tutor/auditentry/{entry.pk}/change/", {"reason": "x"})
    entry.refresh_from_db()
    assert entry.reason == ""
