"""The audit log against someone with SQL access but no seal key (the second red team's cases).

Deleting the newest entries and moving the checkpoint back is found; the
checkpoints themselves are sealed, chained and append-only; on PostgreSQL a
site role that does not own the table cannot disable the triggers, and an owner
that does is named by verify_audit through ``tgenabled``; on SQLite
``INSERT OR REPLACE`` cannot rewrite an entry; a gathered count only grows;
every refusal a signed-in person meets is kept, one entry per person, kind and hour.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import peer
from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask, PeerAllocation
from lessons.models import Lesson
from lessons.services import set_lesson_published
from tests.conftest import signed_in
from tests.tutor.test_audit_chain import raw, verify
from tutor import append_only, audit
from tutor.models import AuditEntry, IntegrityCheck

TABLE = AuditEntry._meta.db_table
CHECKS = IntegrityCheck._meta.db_table


@pytest.fixture
def entries(lesson: Lesson, learner: User) -> list[AuditEntry]:
    return [audit.record(actor=learner, action=f"test.{n}", target=lesson, reason=f"기록 {n}") for n in range(4)]


def delete_newest_and_move_checkpoint(newest: list[AuditEntry], keep: AuditEntry, *, drop_checks: bool) -> None:
    """The attack: triggers off, newest entries gone, the last checkpoint pointed at what is left."""
    append_only.remove(connection)
    try:
        for entry in newest:
            raw(f"DELETE FROM {TABLE} WHERE id = %s", [entry.pk])
        if drop_checks:
            raw(f"DELETE FROM {CHECKS} WHERE seq = (SELECT MAX(seq) FROM {CHECKS})")
        else:
            raw(f"UPDATE {CHECKS} SET head_seq = %s, head_chain = %s WHERE seq = (SELECT MAX(seq) FROM {CHECKS})",
                [keep.seq, keep.chain])
    finally:
        append_only.install(connection)


def test_deleting_the_newest_entries_and_moving_the_checkpoint_is_found(entries: list[AuditEntry]) -> None:
    """Before: the checkpoint was an ordinary row, so pointing it at the new last entry hid the removal."""
    assert verify()[0]
    delete_newest_and_move_checkpoint(entries[2:], entries[1], drop_checks=False)
    ok, output = verify()
    assert not ok and "봉인이 맞지 않음" in output and "기준점이 옮겨짐" in output


def test_deleting_the_newest_entries_and_the_newest_checkpoint_is_found_from_outside(
    entries: list[AuditEntry], settings, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:
    """The newest check is also kept beside the seal keys: deleting it with the entries still shows."""
    settings.AUDIT_CHECKPOINT_FILE = str(tmp_path / "audit_checkpoint")
    with django_capture_on_commit_callbacks(execute=True):
        assert verify()[0]
    assert Path(settings.AUDIT_CHECKPOINT_FILE).exists()
    delete_newest_and_move_checkpoint(entries[2:], entries[1], drop_checks=True)
    ok, output = verify()
    assert not ok and "데이터베이스 밖에 둔 마지막 점검" in output


def test_checkpoints_refuse_update_and_delete(entries: list[AuditEntry]) -> None:
    assert verify()[0]
    check = IntegrityCheck.objects.get()
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f"UPDATE {CHECKS} SET head_seq = 1 WHERE id = %s", [check.pk])
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f"DELETE FROM {CHECKS} WHERE id = %s", [check.pk])


def test_a_forged_checkpoint_inserted_by_sql_is_named(entries: list[AuditEntry]) -> None:
    assert verify()[0]
    raw(f"INSERT INTO {CHECKS} (kind, checked_at, ok, checked, problems, head_seq, head_chain, seq, key_id, seal) "
        "VALUES ('audit', %s, true, 1, '[]', %s, %s, 2, %s, %s)",
        [timezone.now(), entries[1].seq, entries[1].chain, entries[1].key_id, "0" * 64])
    ok, output = verify()
    assert not ok and "점검 기록 seq 2" in output


def test_insert_or_replace_cannot_rewrite_an_entry_on_sqlite(entries: list[AuditEntry]) -> None:
    """REPLACE deletes the old row first; with recursive_triggers on, the DELETE trigger refuses it."""
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA recursive_triggers")
        assert cursor.fetchone()[0] == 1, "every connection turns it on"
    entry = entries[1]
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f"INSERT OR REPLACE INTO {TABLE} (id, at, action, target_type, target_id, target_label, reason, "
            "before_digest, after_digest, detail, repeats, seq, key_id, chain) "
            "SELECT id, at, action, target_type, target_id, target_label, '고쳐 쓴 이유', before_digest, "
            f"after_digest, detail, repeats, seq, key_id, chain FROM {TABLE} WHERE id = %s", [entry.pk])
    assert AuditEntry.objects.get(pk=entry.pk).reason == entry.reason
    assert verify()[0]


def test_a_gathered_count_only_grows_by_one_and_its_time_never_moves_back(lesson: Lesson, learner: User) -> None:
    gathered = audit.refusal(actor=learner, action="access.deny", target=lesson, reason="시험")
    for sql in (f"UPDATE {TABLE} SET repeats = 0 WHERE id = %s",
                f"UPDATE {TABLE} SET repeats = repeats + 1000 WHERE id = %s",
                f"UPDATE {TABLE} SET repeats = repeats + 1, last_at = %s WHERE id = %s"):
        params = [gathered.pk] if "last_at" not in sql else [gathered.at - timedelta(days=1), gathered.pk]
        with pytest.raises(DatabaseError, match="append-only"):
            raw(sql, params)
    audit.refusal(actor=learner, action="access.deny", target=lesson, reason="시험")
    assert AuditEntry.objects.get(pk=gathered.pk).repeats == 2


def test_verify_audit_names_a_role_that_can_get_past_the_triggers(db: None) -> None:
    """The test database's role owns the tables (or is a superuser) on PostgreSQL: verify_audit says so."""
    ok, output = verify()
    if connection.vendor == "postgresql":
        assert "WARN" in output and "트리거를 끌 수 있음" in output
    else:
        assert "WARN" not in output
    assert ok, "a warning, not a break"


# -- PostgreSQL: the site's role and DISABLE TRIGGER -------------------------------------------------------------


@pytest.fixture
def site_role(transactional_db: None) -> Iterator[str]:
    """A role that does not own the tables, given the site's privileges by grant_site_role (committed)."""
    if connection.vendor != "postgresql":
        pytest.skip("database roles are PostgreSQL's")
    role = f"tutor_site_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} LOGIN")
    try:
        call_command("grant_site_role", role, stdout=StringIO())
        yield role
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP OWNED BY {role}")
            cursor.execute(f"DROP ROLE {role}")


def connect_as(role: str):
    import psycopg

    params = django_settings.DATABASES["default"]
    return psycopg.connect(host=params["HOST"], port=params["PORT"] or 5432, dbname=connection.settings_dict["NAME"],
                           user=role, autocommit=True)


def test_the_site_role_cannot_disable_the_triggers_or_delete(site_role: str, lesson: Lesson) -> None:
    import psycopg

    audit.record(actor=None, action="test.committed", target=lesson)
    with connect_as(site_role) as site:
        for statement in (f"ALTER TABLE {TABLE} DISABLE TRIGGER USER", f"ALTER TABLE {CHECKS} DISABLE TRIGGER USER",
                          f"DELETE FROM {TABLE}", f"UPDATE {TABLE} SET reason = 'x'", f"TRUNCATE {TABLE}",
                          f"DROP TRIGGER tutor_auditentry_no_update ON {TABLE}"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                site.execute(statement)
        # What the site does need still works: read, append, grow a gathered count.
        assert site.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0] >= 1
    assert AuditEntry.objects.filter(action="test.committed").exists()
    assert all(append_only.trigger_states(connection).values())


def test_triggers_disabled_by_the_owner_are_a_break(transactional_db: None, lesson: Lesson) -> None:
    """Before: verify_audit listed the triggers by name and did not read tgenabled."""
    if connection.vendor != "postgresql":
        pytest.skip("DISABLE TRIGGER is PostgreSQL's")
    audit.record(actor=None, action="test.committed", target=lesson)
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER USER")
    try:
        ok, output = verify()
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {TABLE} ENABLE TRIGGER USER")
    assert not ok and "tgenabled" in output and "tutor_auditentry_no_update" in output


class AsRole:
    """Just enough of a Django connection for ``append_only.role_problems``, over a psycopg connection."""

    vendor = "postgresql"

    def __init__(self, raw_connection) -> None:
        self.raw = raw_connection

    def cursor(self):
        return self.raw.cursor()


def test_verify_audit_warns_about_the_owner_but_not_about_the_site_role(site_role: str, lesson: Lesson) -> None:
    """The role check says when the site's role and the owner are one, and is quiet for a separate site role."""
    import psycopg

    assert append_only.role_problems(connection), "the test database's own role owns the tables"
    entry = audit.record(actor=None, action="test.committed", target=lesson)
    with connect_as(site_role) as site:
        assert append_only.role_problems(AsRole(site)) == []
        # The column grant lets the count through to the trigger, which still refuses a non-gathered entry.
        with pytest.raises(psycopg.errors.RaiseException):
            site.execute(f"UPDATE {TABLE} SET repeats = repeats + 1 WHERE id = %s", [entry.pk])
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            site.execute(f"UPDATE {TABLE} SET reason = 'x' WHERE id = %s", [entry.pk])


# -- Refusals a signed-in person meets ------------------------------------------------------------------------------


def refusals(user: User) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(actor=user, hour__isnull=False).order_by("seq"))


def test_probing_ids_that_exist_is_one_entry_per_person_kind_and_hour(
    learner: User, other_learner: User, course: list[Lesson]
) -> None:
    """Before: each existing object refused made its own entry, so probing ids grew the log per object."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    others = [User.objects.create_user(f"someone{n}", password="x-long-password-1") for n in range(6)]
    submissions = []
    for person in others:
        evidence_services.save_draft(author=person, task=task, text=f"{person.username}의 긴 증거 글입니다. " * 3,
                                     run_ids=[], lines=[])
        submissions.append(evidence_services.submit(author=person, task=task, submit_key=f"k{person.pk}"))
    client = signed_in(learner)
    for submission in submissions:
        assert client.get(reverse("evidence:submission", args=[submission.pk])).status_code == 404
        assert client.get(f"/api/evidence/submissions/{submission.pk}").status_code == 404
    [entry] = [e for e in refusals(learner) if e.target_type == "evidence.submission"]
    assert entry.repeats == 12 and entry.action == "access.deny"


def test_probing_addresses_that_match_no_route_is_one_entry(learner: User, course: list[Lesson]) -> None:
    client = signed_in(learner)
    for n in range(30):
        assert client.get(f"/no-such-page-{n}/").status_code == 404
    [entry] = refusals(learner)
    assert entry.action == "access.deny" and entry.repeats == 30 and "no-such-page" not in entry.target_id


def test_a_csrf_failure_is_audited_for_a_signed_in_person(learner: User, course: list[Lesson]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    for _ in range(3):
        assert client.post(reverse("evidence:draft", args=["afs-practice"]), {"text": "x"}).status_code == 403
    [entry] = [e for e in refusals(learner) if e.action == "access.csrf"]
    assert entry.repeats == 3


def test_peer_work_asked_for_before_submitting_is_audited(learner: User, course: list[Lesson]) -> None:
    response = signed_in(learner).post(reverse("evidence:peer", args=["afs-practice"]))
    assert response.status_code == 409
    assert [e.action for e in refusals(learner)] == ["access.conflict"]


def test_a_review_after_the_lease_expired_is_audited(learner: User, other_learner: User,
                                                     course: list[Lesson]) -> None:
    task = EvidenceTask.objects.get(slug="afs-practice")
    for person in (learner, other_learner):
        evidence_services.save_draft(author=person, task=task, text="2번 줄에 따라 17시 방문은 근거입니다. " * 2,
                                     run_ids=[], lines=[])
        evidence_services.submit(author=person, task=task, submit_key=f"k{person.pk}")
    allocation = peer.allocate_peer_work(reviewer=other_learner, task=task)
    PeerAllocation.objects.filter(pk=allocation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    judgements = {c["key"]: c["levels"][0]["key"] for c in allocation.submission.rubric_version.criteria}
    response = signed_in(other_learner).post(f"/api/evidence/submissions/{allocation.submission_id}/reviews",
                                             {"judgements": judgements}, content_type="application/json")
    assert response.status_code in (404, 409)
    assert refusals(other_learner), "the refused review left an entry"


def test_a_403_is_audited(learner: User, lesson: Lesson) -> None:
    """Django's own PermissionDenied (the handler403 page) is kept too."""
    from django.core.exceptions import PermissionDenied
    from django.test import RequestFactory

    from tutor import views

    request = RequestFactory().get("/somewhere/")
    request.user = learner
    assert views.permission_denied(request, PermissionDenied()).status_code == 403
    assert [e.action for e in refusals(learner)] == ["access.forbidden"]


def test_a_refusal_met_by_a_visitor_is_not_kept(lesson: Lesson) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    before = AuditEntry.objects.count()
    assert Client().get(f"/lessons/{lesson.slug}/").status_code == 404
    assert Client().post(reverse("evidence:peer", args=["afs-practice"])).status_code in (302, 403, 404)
    assert AuditEntry.objects.count() == before
