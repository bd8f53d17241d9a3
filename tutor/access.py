"""The access policy: who may see or do what, decided in one place.

A person's role is per cohort (``tutor.models.Membership``, roles in
``tutor.roles.CohortRole``). ``GRANTS`` says which cohort roles hold each
permission; from that one table come both rules:

- the list rule, ``cohorts_where(user, perm)``: the cohorts where ``user`` may
  do ``perm`` (a queryset, for selectors that list things);
- the object rule, ``may(user, perm, obj)``: may ``user`` do ``perm`` to a
  cohort, or to a person (true when ``user`` holds ``perm`` in a cohort where
  that person is an active learner).

A user's memberships are read once per request (cached on the user object)
and a person's cohorts once per asker, so a page asking many times costs one
or two queries. Superusers hold every permission everywhere (site staff keep
their admin powers). Selectors in every app call these predicates with the
asking user; views and the API never filter by hand. Anything a user may not
see is reported as ``NotFound`` (404), never as "forbidden".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from .errors import SignInRequired
from .models import Cohort, Membership
from .roles import CohortRole, Role

AnyUser = User | AnonymousUser


class Perm(StrEnum):
    """What a person may do in a cohort."""

    ATTEND = "attend"  # take part as a learner: submit, be handed peers' work of classmates
    REVIEW = "review"  # write the instructor review of a learner's work; see reviewers' names and unreleased reviews
    RELEASE = "release"  # release reviews
    RESOLVE = "resolve"  # resolve flags and disagreements
    JUDGE = "judge"  # judge a group of similar claims across the cohort's learners (grounding)
    ASSIGN = "assign"  # hand a learner's submission to another learner
    READ_PROGRESS = "read_progress"  # see the cohort's progress and each learner's records
    EXPORT = "export"  # download the cohort's CSV exports
    AUDIT = "audit"  # read what the cohort's people did
    CHANGE_SETTINGS = "change_settings"  # the cohort's task settings
    ENROL = "enrol"  # roster, invitations, join code, remove or move a learner
    MANAGE_ROLES = "manage_roles"  # add co-instructors and assistants, change a member's role


TEACHING = frozenset({CohortRole.INSTRUCTOR, CohortRole.ASSISTANT})

# The role table: which cohort roles hold each permission.
GRANTS: dict[Perm, frozenset[str]] = {
    Perm.ATTEND: frozenset({CohortRole.LEARNER}),
    Perm.REVIEW: TEACHING,
    Perm.RELEASE: TEACHING,
    Perm.RESOLVE: TEACHING,
    Perm.JUDGE: TEACHING,
    Perm.ASSIGN: frozenset({CohortRole.INSTRUCTOR}),
    Perm.READ_PROGRESS: TEACHING,
    Perm.EXPORT: frozenset({CohortRole.INSTRUCTOR}),
    Perm.AUDIT: frozenset({CohortRole.INSTRUCTOR}),
    Perm.CHANGE_SETTINGS: frozenset({CohortRole.INSTRUCTOR}),
    Perm.ENROL: frozenset({CohortRole.INSTRUCTOR}),
    Perm.MANAGE_ROLES: frozenset({CohortRole.INSTRUCTOR}),
}
# Roles that see the cohort from the teaching side (listed by GET /api/cohorts, shown the review queue).
STAFF_ROLES = frozenset(role for perm in (Perm.REVIEW, Perm.ENROL) for role in GRANTS[perm])


@dataclass
class _Cache:
    """What one request learned about one asking user."""

    roles: dict[int, str]  # cohort id -> role, active memberships only
    groups: frozenset[str]
    cohorts_of: dict[int, frozenset[int]] = field(default_factory=dict)  # person id -> cohorts they learn in


def _cache(user: User) -> _Cache:
    cache = getattr(user, "_tutor_access", None)
    if cache is None:
        cache = _Cache(roles=dict(Membership.objects.active().filter(user=user).values_list("cohort_id", "role")),
                       groups=frozenset(user.groups.values_list("name", flat=True)))
        user._tutor_access = cache  # type: ignore[attr-defined]  # a per-request cache on the object
    return cache


def forget(user: AnyUser) -> None:
    """Drop what was cached about ``user`` (after their memberships changed in this request)."""
    if hasattr(user, "_tutor_access"):
        del user._tutor_access


def _signed_in(user: AnyUser) -> bool:
    return bool(user.is_authenticated and user.is_active)


def role_in(user: AnyUser, cohort: Cohort | int) -> str | None:
    """The role ``user`` actively holds in ``cohort``, or ``None``."""
    if not _signed_in(user):
        return None
    assert isinstance(user, User)
    return _cache(user).roles.get(cohort if isinstance(cohort, int) else cohort.pk)


def _cohort_ids(user: User, perm: Perm) -> set[int]:
    return {cohort for cohort, role in _cache(user).roles.items() if role in GRANTS[perm]}


def cohorts_where(user: AnyUser, perm: Perm) -> QuerySet[Cohort]:
    """The list rule: every cohort where ``user`` may do ``perm`` (all of them for a superuser)."""
    if not _signed_in(user):
        return Cohort.objects.none()
    if user.is_superuser:
        return Cohort.objects.all()
    assert isinstance(user, User)
    return Cohort.objects.filter(pk__in=sorted(_cohort_ids(user, perm)))


def _learns_in(asker: User, person: User) -> frozenset[int]:
    cache = _cache(asker)
    if person.pk not in cache.cohorts_of:
        cache.cohorts_of[person.pk] = frozenset(
            Membership.objects.active().filter(user=person, role=CohortRole.LEARNER).values_list("cohort_id", flat=True))
    return cache.cohorts_of[person.pk]


def may(user: AnyUser, perm: Perm, obj: Cohort | User) -> bool:
    """The object rule: may ``user`` do ``perm`` to a cohort, or to a person of a cohort where they hold it?"""
    if not _signed_in(user):
        return False
    if user.is_superuser:
        return True
    assert isinstance(user, User)
    if isinstance(obj, Cohort):
        return _cache(user).roles.get(obj.pk) in GRANTS[perm]
    return bool(_cohort_ids(user, perm) & _learns_in(user, obj))


def has_role(user: AnyUser, role: Role) -> bool:
    """Say whether a signed-in, active user is in a site-wide group (superusers are in every one)."""
    if not _signed_in(user):
        return False
    if user.is_superuser:
        return True
    assert isinstance(user, User)
    return role.value in _cache(user).groups


def may_create_cohort(user: AnyUser) -> bool:
    """Instructor accounts (the site-wide group, or an instructor of some cohort) and superusers."""
    return has_role(user, Role.INSTRUCTOR) or bool(_signed_in(user) and CohortRole.INSTRUCTOR in _cache(user).roles.values())  # type: ignore[arg-type]


def is_instructor(user: AnyUser) -> bool:
    """Someone on the teaching side: an instructor account, or an instructor or assistant of some cohort."""
    if may_create_cohort(user):
        return True
    return _signed_in(user) and any(role in STAFF_ROLES for role in _cache(user).roles.values())  # type: ignore[arg-type]


def is_fixture_admin(user: AnyUser) -> bool:
    return has_role(user, Role.FIXTURE_ADMIN)


def may_see_unpublished(user: AnyUser) -> bool:
    """The teaching side and fixture admins preview unpublished lessons; learners and visitors never do."""
    return is_instructor(user) or is_fixture_admin(user)


def instructs(instructor: AnyUser, learner: User) -> bool:
    """Say whether ``instructor`` reviews for a cohort that ``learner`` belongs to."""
    return may(instructor, Perm.REVIEW, learner)


def may_see_records_of(viewer: AnyUser, owner: User) -> bool:
    """A person's records are theirs and their cohorts' teaching staff's to see, nobody else's."""
    if not viewer.is_authenticated:
        return False
    return viewer.pk == owner.pk or may(viewer, Perm.READ_PROGRESS, owner)


def require_sign_in(user: AnyUser) -> User:
    """Return the user if signed in; otherwise refuse with "로그인이 필요합니다"."""
    if not user.is_authenticated:
        raise SignInRequired("이 내용은 로그인한 뒤에 볼 수 있습니다.")
    assert isinstance(user, User)
    return user


# Capabilities of review work. Each names one decision about evidence and its
# reviews; the evidence services check them before they write, and views, the
# API and templates only read the answers the selectors computed from them.

SELF_REVIEW, PEER_REVIEW, INSTRUCTOR_REVIEW = "self", "peer", "instructor"


def review_kind_for(user: AnyUser, *, author: User, allocated: bool) -> str | None:
    """Which review ``user`` writes of ``author``'s work: the author a self-review, whoever reviews for the
    author's cohort an instructor review, a learner holding a lease a peer review; anyone else none."""
    if not user.is_authenticated:
        return None
    if user.pk == author.pk:
        return SELF_REVIEW
    if may(user, Perm.REVIEW, author):
        return INSTRUCTOR_REVIEW
    return PEER_REVIEW if allocated else None


def may_release(user: AnyUser, *, author: User, cohort: Cohort | None) -> bool:
    """A review is released by someone who may release in the cohort it was written in (in any cohort of
    the author when it has none); another cohort's instructor may not, even if they teach the author too."""
    if not may(user, Perm.RELEASE, author):
        return False
    return cohort is None or may(user, Perm.RELEASE, cohort)


def sees_names(viewer: AnyUser, *, author: User) -> bool:
    """The author's reviewing staff see both the author's and the peer reviewers' names; peers see neither."""
    return may(viewer, Perm.REVIEW, author)


def sees_unreleased(viewer: AnyUser, *, author: User) -> bool:
    """Unreleased reviews and instructors' notes are for the author's reviewing staff only."""
    return may(viewer, Perm.REVIEW, author)


def may_flag(user: AnyUser, *, author: User, review_kind: str, released: bool) -> bool:
    """The author disputes a released review by someone else; nobody flags a self-review or an unseen one."""
    return user.is_authenticated and user.pk == author.pk and review_kind != SELF_REVIEW and released


def may_resolve(user: AnyUser, *, author: User) -> bool:
    """Disagreements and flags are resolved by those who may resolve in the author's cohort."""
    return may(user, Perm.RESOLVE, author)


def may_assign_reviewer(user: AnyUser, *, author: User, reviewer: User) -> bool:
    """Peer work is handed to a learner of a cohort where the asker may assign, never to its author."""
    return reviewer.pk != author.pk and may(user, Perm.ASSIGN, author) and may(user, Perm.ASSIGN, reviewer)


def may_change_cohort_setting(user: AnyUser, cohort: Cohort) -> bool:
    """A cohort's task settings are changed by that cohort's instructors only."""
    return may(user, Perm.CHANGE_SETTINGS, cohort)
