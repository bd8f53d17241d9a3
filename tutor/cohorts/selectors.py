"""Reads about cohorts and their people that depend on who asks (``tutor.access`` decides)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tutor import access
from tutor.access import AnyUser, Perm
from tutor.errors import NotFound
from tutor.models import Cohort, Membership
from tutor.roles import CohortRole


def access_cohort(user: AnyUser, cohort_id: int, perm: Perm) -> Cohort:
    """The cohort if ``user`` may do ``perm`` there; the same 404 for a missing cohort and a forbidden one."""
    access.require_sign_in(user)
    cohort = Cohort.objects.filter(pk=cohort_id).first()
    if cohort is None or not access.may(user, perm, cohort):
        raise NotFound(_("그런 기수는 없습니다."), target=cohort, reason=f"기수 권한 없음: {perm}")
    return cohort


@dataclass
class StaffCohort:
    cohort: Cohort
    role: str

    @property
    def label(self) -> str:
        return str(CohortRole(self.role).label) if self.role in CohortRole.values else _("관리자")

    @property
    def may_enrol(self) -> bool:
        return self.role in access.GRANTS[Perm.ENROL] or self.role == "admin"


def teaching_cohorts(user: AnyUser) -> list[StaffCohort]:
    """The cohorts the person teaches or assists, with their role (superusers: every cohort)."""
    if not user.is_authenticated:
        return []
    roles = dict(Membership.objects.active().filter(user=user).values_list("cohort_id", "role"))
    if user.is_superuser:
        return [StaffCohort(c, roles.get(c.pk, "admin")) for c in Cohort.objects.order_by("name")]
    return [StaffCohort(c, roles[c.pk]) for c in Cohort.objects.filter(pk__in=roles).order_by("name")
            if roles[c.pk] in access.STAFF_ROLES]


def members_of(user: AnyUser, cohort: Cohort) -> list[Membership]:
    """Every membership of the cohort (invited, active, removed), for those who may read its progress."""
    if not access.may(user, Perm.READ_PROGRESS, cohort):
        raise NotFound(_("그런 기수는 없습니다."), target=cohort, reason="구성원 목록")
    return list(Membership.objects.filter(cohort=cohort).select_related("user")
                .order_by("status", "role", "user__first_name", "user__username"))


def access_member(user: AnyUser, cohort: Cohort, username: str) -> User:
    """A person with a membership (of any status) in a cohort the asker may manage; 404 otherwise."""
    membership = Membership.objects.select_related("user").filter(cohort=cohort, user__username=username).first()
    if membership is None:
        raise NotFound(_("이 기수에 그런 사람은 없습니다."))
    return membership.user


def enrol_targets(user: AnyUser, cohort: Cohort) -> list[Cohort]:
    """Other cohorts the person may move a learner into."""
    return list(access.cohorts_where(user, Perm.ENROL).exclude(pk=cohort.pk).order_by("name"))
