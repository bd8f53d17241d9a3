"""Database triggers that make the audit table append-only for every SQL path, not only the ORM.

UPDATE and DELETE are refused by the database itself (TRUNCATE too on
PostgreSQL). The single exception is a gathered refusal (``hour`` set) whose
``repeats`` grows while every other column stays as it was; the chain does not
cover those two columns. Someone who owns the database can still drop a
trigger: ``verify_audit`` then says the triggers are missing, and the HMAC
chain still shows what was changed.

The checkpoints ``verify_audit`` keeps (``IntegrityCheck``) are append-only
too, with no exception. A gathered refusal's count may only grow by one and
its last time never moves back.

On SQLite a migration that rebuilds the table drops its triggers; such a
migration must call ``install`` again (``verify_audit`` notices if it did not).
Every SQLite connection turns on ``recursive_triggers`` (settings), or
``INSERT OR REPLACE`` would delete a row without firing the DELETE trigger.
"""

from __future__ import annotations

from typing import Any

TABLE = "tutor_auditentry"
CHECK_TABLE = "tutor_integritycheck"
TRIGGERS = ("tutor_auditentry_no_update", "tutor_auditentry_no_delete", "tutor_auditentry_no_truncate")
CHECK_TRIGGERS = ("tutor_integritycheck_no_update", "tutor_integritycheck_no_delete",
                  "tutor_integritycheck_no_truncate")
# Every column but the two counters of a gathered refusal. A test checks this list against the model.
FROZEN_COLUMNS = (
    "id", "at", "actor_id", "action", "target_type", "target_id", "target_label", "reason",
    "before_digest", "after_digest", "before", "after", "detail", "hour", "seq", "key_id", "chain",
)
GROWING_COLUMNS = ("repeats", "last_at")

# A gathered refusal's count grows by exactly one per statement, and its last time never moves back.
_SQLITE_GROWS = ("OLD.hour IS NOT NULL AND NEW.repeats = OLD.repeats + 1 AND NEW.last_at IS NOT NULL "
                 "AND NEW.last_at >= COALESCE(OLD.last_at, OLD.at)")

_SQLITE = [
    f"""CREATE TRIGGER IF NOT EXISTS tutor_auditentry_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: DELETE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS tutor_auditentry_no_update BEFORE UPDATE ON {TABLE}
        WHEN NOT ({_SQLITE_GROWS} AND
                  {" AND ".join(f'NEW."{c}" IS OLD."{c}"' for c in FROZEN_COLUMNS)})
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: UPDATE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS tutor_integritycheck_no_delete BEFORE DELETE ON {CHECK_TABLE}
        BEGIN SELECT RAISE(ABORT, 'integrity checks are append-only: DELETE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS tutor_integritycheck_no_update BEFORE UPDATE ON {CHECK_TABLE}
        BEGIN SELECT RAISE(ABORT, 'integrity checks are append-only: UPDATE refused'); END""",
]

_POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION tutor_auditentry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'UPDATE' THEN
            IF OLD.hour IS NOT NULL AND NEW.repeats = OLD.repeats + 1
               AND NEW.last_at IS NOT NULL AND NEW.last_at >= COALESCE(OLD.last_at, OLD.at)
               AND (to_jsonb(NEW) - 'repeats' - 'last_at') = (to_jsonb(OLD) - 'repeats' - 'last_at') THEN
              RETURN NEW;
            END IF;
          END IF;
          RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP;
        END $$""",
    f"""CREATE OR REPLACE TRIGGER tutor_auditentry_no_update BEFORE UPDATE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION tutor_auditentry_append_only()""",
    f"""CREATE OR REPLACE TRIGGER tutor_auditentry_no_delete BEFORE DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION tutor_auditentry_append_only()""",
    f"""CREATE OR REPLACE TRIGGER tutor_auditentry_no_truncate BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION tutor_auditentry_append_only()""",
    """CREATE OR REPLACE FUNCTION tutor_integritycheck_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'integrity checks are append-only: % refused', TG_OP;
        END $$""",
    f"""CREATE OR REPLACE TRIGGER tutor_integritycheck_no_update BEFORE UPDATE ON {CHECK_TABLE}
        FOR EACH ROW EXECUTE FUNCTION tutor_integritycheck_append_only()""",
    f"""CREATE OR REPLACE TRIGGER tutor_integritycheck_no_delete BEFORE DELETE ON {CHECK_TABLE}
        FOR EACH ROW EXECUTE FUNCTION tutor_integritycheck_append_only()""",
    f"""CREATE OR REPLACE TRIGGER tutor_integritycheck_no_truncate BEFORE TRUNCATE ON {CHECK_TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION tutor_integritycheck_append_only()""",
]


def install(connection: Any) -> None:
    """Create the triggers (idempotent) on SQLite or PostgreSQL; other databases are refused loudly."""
    statements = {"sqlite": _SQLITE, "postgresql": _POSTGRESQL}.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"append-only audit triggers are not written for {connection.vendor}")
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def remove(connection: Any) -> None:
    """Drop the triggers: for migrations that rebuild the table, and the test suite's flush."""
    with connection.cursor() as cursor:
        for table, names in ((TABLE, TRIGGERS), (CHECK_TABLE, CHECK_TRIGGERS)):
            for name in names:
                if connection.vendor == "postgresql":
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
                else:
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}")


def installed(connection: Any) -> list[str]:
    """The names of the append-only triggers present (and, on PostgreSQL, enabled) on the two tables."""
    return [name for name, enabled in trigger_states(connection).items() if enabled]


def trigger_states(connection: Any) -> dict[str, bool]:
    """Each append-only trigger present: whether it fires (PostgreSQL's ``tgenabled``: 'D' is disabled)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname, tgenabled FROM pg_trigger "
                           "WHERE tgrelid IN (%s::regclass, %s::regclass) AND NOT tgisinternal",
                           [TABLE, CHECK_TABLE])
            present = {row[0]: row[1] != "D" for row in cursor.fetchall()}
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (%s, %s)",
                           [TABLE, CHECK_TABLE])
            present = {row[0]: True for row in cursor.fetchall()}
    return {name: present[name] for name in (*TRIGGERS, *CHECK_TRIGGERS) if name in present}


def expected(connection: Any) -> list[str]:
    if connection.vendor == "postgresql":
        return [*TRIGGERS, *CHECK_TRIGGERS]
    return [*TRIGGERS[:2], *CHECK_TRIGGERS[:2]]


def reinstall(connection: Any) -> None:
    """Replace the triggers with the current definitions (SQLite has no CREATE OR REPLACE TRIGGER)."""
    if connection.vendor == "sqlite":
        remove(connection)
    install(connection)


def role_problems(connection: Any) -> list[str]:
    """What the database role this site connects as could do to the audit tables past the triggers.

    PostgreSQL: the owner of a table (or a member of the owning role, or a
    superuser) may ``ALTER TABLE … DISABLE TRIGGER`` or drop the triggers, so the
    site should run as a role that owns neither audit table (README "Two database
    roles"). SQLite: ``recursive_triggers`` must be on, or ``INSERT OR REPLACE``
    deletes an entry without firing the DELETE trigger.
    """
    problems: list[str] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
            user, superuser = cursor.fetchone()
            if superuser:
                problems.append(f"사이트의 데이터베이스 역할 {user}가 superuser라 트리거를 끄거나 지울 수 있음")
            for table in (TABLE, CHECK_TABLE):
                cursor.execute("SELECT pg_get_userbyid(relowner), pg_has_role(current_user, relowner, 'USAGE') "
                               "FROM pg_class WHERE oid = %s::regclass", [table])
                owner, member = cursor.fetchone()
                if member:
                    problems.append(f"사이트의 데이터베이스 역할 {user}가 {table}의 주인({owner})이거나 그 구성원이라 "
                                    "트리거를 끌 수 있음 (DISABLE TRIGGER): 사이트와 마이그레이션 역할을 나누세요")
        else:
            cursor.execute("PRAGMA recursive_triggers")
            if not cursor.fetchone()[0]:
                problems.append("SQLite recursive_triggers가 꺼져 있어 INSERT OR REPLACE가 DELETE 트리거를 건너뜀")
    return problems
