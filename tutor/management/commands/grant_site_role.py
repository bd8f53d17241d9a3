"""PostgreSQL: give the site's own database role what the site needs, and nothing over the audit tables.

Run as the owner of the tables (the role migrations run as), after every
``migrate`` and ``createcachetable``. The site role may read and write the
ordinary tables, but on the audit log it may only read, append and grow a
gathered refusal's count (``repeats``, ``last_at``), and on the integrity
checks only read and append. Not owning the tables, it cannot ``DISABLE
TRIGGER``, drop a trigger, or TRUNCATE them (README "Two database roles").
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from tutor import append_only


def site_role_grants(role: str) -> list[str]:
    """The statements, in order, that grant ``role`` the site's privileges (identifiers quoted)."""
    name = connection.ops.quote_name(role)
    audit, checks = append_only.TABLE, append_only.CHECK_TABLE
    return [
        f"GRANT CONNECT ON DATABASE {connection.ops.quote_name(connection.settings_dict['NAME'])} TO {name}",
        f"GRANT USAGE ON SCHEMA public TO {name}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {name}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {name}",
        f"REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES ON {audit}, {checks} FROM {name}",
        f"GRANT UPDATE (repeats, last_at) ON {audit} TO {name}",
    ]


class Command(BaseCommand):
    help = "PostgreSQL: 사이트 역할에 필요한 권한만 줍니다 (감사 표는 읽기·추가·반복 횟수만). 표 주인 역할로 실행하세요."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="사이트가 접속하는 데이터베이스 역할 (DATABASE_URL의 사용자)")

    def handle(self, *args: Any, role: str, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("PostgreSQL에서만 씁니다. SQLite는 역할이 없습니다.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = %s::regclass",
                           [append_only.TABLE])
            owner = cursor.fetchone()[0]
            if owner == role:
                raise CommandError(f"{role}는 감사 표의 주인입니다. 사이트는 주인이 아닌 다른 역할로 접속해야 합니다.")
            for statement in site_role_grants(role):
                cursor.execute(statement)
        self.stdout.write(f"{role}: 일반 표 읽기·쓰기, 감사 표 읽기·추가·반복 횟수만 (주인: {owner})")
