"""Roles as data.

``Role`` names the site-wide groups (an instructor account may create cohorts;
a fixture admin edits fixtures in the admin). ``CohortRole`` is the role a
person holds in one cohort, stored on their membership; what each cohort role
may do is the permission table in ``tutor.access``.
"""

from enum import StrEnum

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(StrEnum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"
    FIXTURE_ADMIN = "fixture_admin"


ROLE_LABELS: dict[Role, str] = {
    Role.LEARNER: "학습자",
    Role.INSTRUCTOR: "강사",
    Role.FIXTURE_ADMIN: "자료 관리자",
}


class CohortRole(models.TextChoices):
    """A person's role in one cohort (the role table)."""

    LEARNER = "learner", _("학습자")
    ASSISTANT = "assistant", _("조교")
    INSTRUCTOR = "instructor", _("강사")
