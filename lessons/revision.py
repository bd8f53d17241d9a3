"""The content revision: a number the database itself raises whenever what lesson pages show changes.

Triggers on the content tables raise ``lessons_contentrevision.number`` on
every INSERT, UPDATE and DELETE, whoever writes: ``load_course``, the admin, a
script or raw SQL. A page kept under a revision (``lessons.page_cache``) is so
never older than the data it shows, and checking costs one small query.

The number rises inside the writer's transaction, so a rolled-back write takes
it back with the content; since a visitor's request reads only committed data,
one number never stands for two contents. (Tests, whose requests share the
test's transaction, empty the page cache between tests for that reason.)

On SQLite a migration that rebuilds a watched table drops its triggers; such a
migration must call ``install`` again (a test checks every watched table has
them).
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, connection

TABLE = "lessons_contentrevision"
# Everything a visitor's lesson page or catalogue is made of.
WATCHED = (
    "lessons_course", "lessons_lesson", "lessons_lessonversion", "lessons_lessonfile", "lessons_lessondiagram",
    "lessons_selfcheck", "lessons_fixture", "lessons_fixtureversion",
    "labs_lab", "grounding_exercise", "evidence_evidencetask",
)
_RAISE = f"UPDATE {TABLE} SET number = number + 1 WHERE id = 1"


def current() -> int | None:
    """The revision now, or None when its row is missing (a flushed test database): then nothing is kept."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT number FROM {TABLE} WHERE id = 1")
            row = cursor.fetchone()
    except DatabaseError:
        return None
    return int(row[0]) if row else None


def trigger_names(table: str) -> list[str]:
    return [f"{table}_revision_{op}" for op in ("insert", "update", "delete")]


def install(conn: Any) -> None:
    """Create the revision row if missing and the triggers on every watched table (idempotent)."""
    with conn.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLE} (id, number) SELECT 1, 0 WHERE NOT EXISTS "
                       f"(SELECT 1 FROM {TABLE} WHERE id = 1)")
        if conn.vendor == "postgresql":
            cursor.execute(f"""CREATE OR REPLACE FUNCTION lessons_raise_content_revision() RETURNS trigger
                LANGUAGE plpgsql AS $$ BEGIN {_RAISE}; RETURN NULL; END $$""")
            for table in WATCHED:
                cursor.execute(f"""CREATE OR REPLACE TRIGGER {table}_revision AFTER INSERT OR UPDATE OR DELETE
                    ON {table} FOR EACH STATEMENT EXECUTE FUNCTION lessons_raise_content_revision()""")
        elif conn.vendor == "sqlite":
            for table in WATCHED:
                for name, op in zip(trigger_names(table), ("INSERT", "UPDATE", "DELETE"), strict=True):
                    cursor.execute(f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {op} ON {table} "
                                   f"BEGIN {_RAISE}; END")
        else:
            raise NotImplementedError(f"content revision triggers are not written for {conn.vendor}")


def remove(conn: Any) -> None:
    with conn.cursor() as cursor:
        for table in WATCHED:
            if conn.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_revision ON {table}")
            else:
                for name in trigger_names(table):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}")


def watched_without_triggers(conn: Any) -> list[str]:
    """Watched tables missing their triggers (a rebuild on SQLite drops them)."""
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
            names = {row[0] for row in cursor.fetchall()}
            return [t for t in WATCHED if f"{t}_revision" not in names]
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        names = {row[0] for row in cursor.fetchall()}
        return [t for t in WATCHED if not set(trigger_names(t)) <= names]
