"""Database triggers that make the audit table append-only for every SQL path, not only the ORM.

UPDATE and DELETE are refused by the database itself (TRUNCATE too on
PostgreSQL). The single exception is a gathered refusal (``hour`` set) whose
``repeats`` grows while every other column stays as it was; the chain does not
cover those two columns. Someone who owns the database can still drop a
trigger: ``verify_audit`` then says the triggers are missing, and the HMAC
chain still shows what was changed.

On SQLite a migration that rebuilds the table drops its triggers; such a
migration must call ``install`` again (``verify_audit`` notices if it did not).
"""

from __future__ import annotations

from typing import Any

TABLE = "tutor_auditentry"
TRIGGERS = ("tutor_auditentry_no_update", "tutor_auditentry_no_delete", "tutor_auditentry_no_truncate")
# Every column but the two counters of a gathered refusal. A test checks this list against the model.
FROZEN_COLUMNS = (
    "id", "at", "actor_id", "action", "target_type", "target_id", "target_label", "reason",
    "before_digest", "after_digest", "before", "after", "detail", "hour", "seq", "key_id", "chain",
)
GROWING_COLUMNS = ("repeats", "last_at")

_SQLITE = [
    f"""CREATE TRIGGER IF NOT EXISTS tutor_auditentry_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: DELETE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS tutor_auditentry_no_update BEFORE UPDATE ON {TABLE}
        WHEN NOT (OLD.hour IS NOT NULL AND NEW.repeats > OLD.repeats AND
                  {" AND ".join(f'NEW."{c}" IS OLD."{c}"' for c in FROZEN_COLUMNS)})
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: UPDATE refused'); END""",
]

_POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION tutor_auditentry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'UPDATE' THEN
            IF OLD.hour IS NOT NULL AND NEW.repeats > OLD.repeats
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
        for name in TRIGGERS:
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {TABLE}")
            else:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")


def installed(connection: Any) -> list[str]:
    """The names of the append-only triggers present on the audit table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                           [TABLE])
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [TABLE])
        present = {row[0] for row in cursor.fetchall()}
    return [name for name in TRIGGERS if name in present]


def expected(connection: Any) -> list[str]:
    return list(TRIGGERS) if connection.vendor == "postgresql" else list(TRIGGERS[:2])
