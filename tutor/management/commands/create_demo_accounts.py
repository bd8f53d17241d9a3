"""Create a demo cohort with generated passwords, printed once and kept in ``var/demo-accounts.txt``."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from tutor.models import Cohort, Membership
from tutor.roles import CohortRole, Role

ACCOUNTS = [
    ("instructor", "김강사", Role.INSTRUCTOR),
    ("learner1", "이학습", Role.LEARNER),
    ("learner2", "박학습", Role.LEARNER),
    ("fixture_admin", "최자료", Role.FIXTURE_ADMIN),
]
COHORT = "2026 겨울 1기 (데모)"


class Command(BaseCommand):
    help = "데모 기수와 계정(강사 1, 학습자 2, 자료 관리자 1)을 만듭니다. 비밀번호는 새로 생성해 한 번만 보여 줍니다."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-absent", action="store_true", help="이미 있으면 아무것도 하지 않습니다.")

    def handle(self, *args: Any, if_absent: bool, **options: Any) -> None:
        if not settings.DEMO_ACCOUNTS_ALLOWED:
            raise CommandError("이 설정(운영)에서는 데모 계정을 만들 수 없습니다.")
        path = settings.VAR_DIR / "demo-accounts.txt"
        if User.objects.filter(username__in=[name for name, _, _ in ACCOUNTS]).exists():
            if if_absent:
                self.stdout.write(f"데모 계정이 이미 있습니다. 아이디와 비밀번호: {path}")
                return
            raise CommandError(f"데모 계정이 이미 있습니다 ({path}).")
        lines = self._create()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("# 데모 계정 (개발용, 생성된 비밀번호)\n" + "\n".join(lines) + "\n")
        self.stdout.write("데모 계정을 만들었습니다 (이 비밀번호는 다시 출력되지 않습니다):")
        for line in lines:
            self.stdout.write(f"  {line}")
        self.stdout.write(f"같은 내용을 {path} 에 저장했습니다.")

    @transaction.atomic
    def _create(self) -> list[str]:
        cohort, _ = Cohort.objects.get_or_create(name=COHORT)
        lines = []
        now = timezone.now()
        for username, full_name, role in ACCOUNTS:
            password = secrets.token_urlsafe(12)
            user = User.objects.create_user(username=username, password=password, first_name=full_name)
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
            if role is Role.INSTRUCTOR:
                Membership.objects.create(cohort=cohort, user=user, role=CohortRole.INSTRUCTOR, joined_at=now)
            elif role is Role.LEARNER:
                Membership.objects.create(cohort=cohort, user=user, role=CohortRole.LEARNER, joined_at=now)
            else:
                user.is_staff = True  # the fixture admin works in the Django admin
                user.save(update_fields=["is_staff"])
            lines.append(f"{role.value:14} {username:14} {password}")
        return lines
