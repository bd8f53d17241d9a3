"""The three roles of the site, as Django groups."""

from enum import StrEnum


class Role(StrEnum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"
    FIXTURE_ADMIN = "fixture_admin"


ROLE_LABELS: dict[Role, str] = {
    Role.LEARNER: "학습자",
    Role.INSTRUCTOR: "강사",
    Role.FIXTURE_ADMIN: "자료 관리자",
}
