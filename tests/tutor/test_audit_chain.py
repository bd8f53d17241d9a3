"""The audit log is append-only by construction: the database refuses UPDATE and DELETE from any
SQL path, each entry is chained by HMAC, and verify_audit names what was inserted, changed or removed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, models, transaction

from lessons.models import Lesson
from tests.conftest import signed_in
from tutor import append_only, audit, keys
from tutor.models import AuditEntry, IntegrityCheck

TABLE = AuditEntry._meta.db_table


def raw(sql: str, params: list | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:  # a savepoint, so PostgreSQL carries on after
        cursor.execute(sql, params or [])


def verify() -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("verify_audit", stdout=out)
    except CommandError as error:
        return False, out.getvalue() + str(error)
    return True, out.getvalue()


@pytest.fixture
def entry(lesson: Lesson, learner: User) -> AuditEntry:
    audit.record(actor=learner, action="test.first", target=lesson, reason="처음")
    return audit.record(actor=learner, action="test.action", target=lesson, reason="원래 이유",
                        before={"a": 1}, after={"a": 2})


def test_the_trigger_guards_every_column_but_the_two_counters(db: None) -> None:
    columns = {field.column for field in AuditEntry._meta.concrete_fields}
    assert columns == set(append_only.FROZEN_COLUMNS) | set(append_only.GROWING_COLUMNS)
    assert append_only.installed(connection) == append_only.expected(connection)


@pytest.mark.parametrize("column", [c for c in append_only.FROZEN_COLUMNS if c != "id"])
def test_raw_sql_update_of_any_column_is_refused_by_the_database(entry: AuditEntry, column: str) -> None:
    value = {"actor_id": None, "seq": 999, "at": "2020-01-01 00:00:00", "hour": "2020-01-01 00:00:00",
             "detail": "{}", "before": "{}", "after": "{}"}.get(column, "바꿈")
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f'UPDATE {TABLE} SET "{column}" = %s WHERE id = %s', [value, entry.pk])
    assert AuditEntry.objects.get(pk=entry.pk).reason == "원래 이유"


def test_raw_sql_delete_and_every_orm_bypass_are_refused(entry: AuditEntry) -> None:
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f"DELETE FROM {TABLE} WHERE id = %s", [entry.pk])
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEntry._base_manager.filter(pk=entry.pk).update(reason="base manager")
    with pytest.raises(DatabaseError), transaction.atomic():
        models.QuerySet.update(AuditEntry.objects.filter(pk=entry.pk), reason="plain QuerySet")
    with pytest.raises(DatabaseError), transaction.atomic():
        models.QuerySet.delete(AuditEntry.objects.all())
    assert AuditEntry.objects.get(pk=entry.pk).reason == "원래 이유"


@pytest.mark.django_db(transaction=True)
def test_truncate_is_refused_on_postgresql(lesson: Lesson) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no TRUNCATE; its DELETE trigger covers an unqualified DELETE")
    audit.record(actor=None, action="test.committed", target=lesson)
    with pytest.raises(DatabaseError, match="append-only"):
        raw(f"TRUNCATE {TABLE} CASCADE")
    assert AuditEntry.objects.filter(action="test.committed").exists()


def test_only_a_gathered_refusals_count_may_grow(entry: AuditEntry, lesson: Lesson, learner: User) -> None:
    with pytest.raises(DatabaseError):
        raw(f"UPDATE {TABLE} SET repeats = repeats + 1 WHERE id = %s", [entry.pk])  # not a gathered entry
    gathered = audit.refusal(actor=learner, action="access.deny", target=lesson, reason="시험")
    raw(f"UPDATE {TABLE} SET repeats = repeats + 1 WHERE id = %s", [gathered.pk])
    with pytest.raises(DatabaseError):
        raw(f"UPDATE {TABLE} SET repeats = 1 WHERE id = %s", [gathered.pk])
    with pytest.raises(DatabaseError):
        raw(f"UPDATE {TABLE} SET repeats = repeats + 1, reason = 'x' WHERE id = %s", [gathered.pk])
    assert AuditEntry.objects.get(pk=gathered.pk).repeats == 2


def test_an_untouched_chain_verifies_and_the_check_is_kept_for_the_admin(entry: AuditEntry) -> None:
    ok, output = verify()
    assert ok, output
    check = IntegrityCheck.objects.get()
    assert check.ok and check.head_seq == entry.seq and check.checked == AuditEntry.objects.count()
    admin = User.objects.create_superuser("root", password="x-very-long-password")
    page = signed_in(admin).get("/admin/tutor/auditentry/").content.decode()
    assert "마지막 무결성 점검" in page and "이상 없음" in page


def test_a_forged_insert_is_named_by_verify_audit(entry: AuditEntry) -> None:
    raw(f"INSERT INTO {TABLE} (at, action, target_type, target_id, target_label, reason, before_digest, "
        "after_digest, detail, repeats, seq, key_id, chain) VALUES (%s, 'lesson.publish', 'lessons.lesson', '1', "
        "'', '위조', '', '', '{}', 1, %s, %s, %s)",
        [entry.at, entry.seq + 1, entry.key_id, "0" * 64])
    forged_id = AuditEntry.objects.get(seq=entry.seq + 1).pk
    ok, output = verify()
    assert not ok
    assert f"seq {entry.seq + 1} (id {forged_id}, lesson.publish lessons.lesson#1)" in output
    assert f"seq {entry.seq} " not in output, "the genuine entries are not blamed"
    assert not IntegrityCheck.objects.get().ok


def test_an_insert_chained_with_a_key_the_site_does_not_hold_is_named(entry: AuditEntry) -> None:
    stranger = keys.SealKey(entry.key_id, "x" * 48)
    values = {name: getattr(entry, name) for name in audit.CHAINED_FIELDS} | {"seq": entry.seq + 1, "action": "x.y"}
    raw(f"INSERT INTO {TABLE} (at, action, target_type, target_id, target_label, reason, before_digest, "
        "after_digest, detail, repeats, seq, key_id, chain) VALUES (%s, 'x.y', %s, %s, %s, %s, %s, %s, %s, 1, %s, %s, %s)",
        [entry.at, entry.target_type, entry.target_id, entry.target_label, entry.reason, entry.before_digest,
         entry.after_digest, '{"a": 1}', entry.seq + 1, entry.key_id, audit.entry_chain(values, entry.chain, stranger)])
    ok, output = verify()
    assert not ok and f"seq {entry.seq + 1} " in output and "사슬 값이 맞지 않음" in output


def test_an_insert_outside_the_chain_is_named(entry: AuditEntry) -> None:
    raw(f"INSERT INTO {TABLE} (at, action, target_type, target_id, target_label, reason, before_digest, "
        "after_digest, detail, repeats, key_id, chain) VALUES (%s, 'sneaked.in', 't', '1', '', '', '', '', '{}', 1, '', '')",
        [entry.at])
    ok, output = verify()
    assert not ok and "sneaked.in" in output and "seq)가 없음" in output


def test_with_the_triggers_dropped_changes_and_removals_are_still_found(entry: AuditEntry, lesson: Lesson) -> None:
    first = AuditEntry.objects.get(seq=entry.seq - 1)
    audit.record(actor=None, action="test.last", target=lesson)
    append_only.remove(connection)
    try:
        raw(f"UPDATE {TABLE} SET reason = '고친 이유' WHERE id = %s", [entry.pk])
        raw(f"DELETE FROM {TABLE} WHERE id = %s", [first.pk])
        ok, output = verify()
    finally:
        append_only.install(connection)
    assert not ok
    assert "트리거 없음" in output
    assert f"seq {entry.seq} (id {entry.pk}, test.action" in output and "고친 기록" in output
    assert f"seq {first.seq}–{first.seq}이 없음" in output


def test_removing_the_newest_entries_is_found_against_the_last_check(entry: AuditEntry, lesson: Lesson) -> None:
    assert verify()[0]
    append_only.remove(connection)
    try:
        raw(f"DELETE FROM {TABLE} WHERE id = %s", [entry.pk])
    finally:
        append_only.install(connection)
    ok, output = verify()
    assert not ok and f"seq {entry.seq}가 없거나 바뀜" in output
