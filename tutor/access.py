"""The access policy: who may see or do what, decided in one place.

Selectors in every app call these predicates with the asking user; views and
the API never filter by hand. Anything a user may not see is reported as
``NotFound`` (404), never as "forbidden", so its existence does not leak.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from .errors import SignInRequired
from .models import Cohort
from .roles import Role

AnyUser = User | AnonymousUser


def has_role(user: AnyUser, role: Role) -> bool:
    """Say whether a signed-in, active user holds ``role`` (superusers hold every role)."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    cache = getattr(user, "_tutor_roles", None)
    if cache is None:
        cache = frozenset(user.groups.values_list("name", flat=True))
        user._tutor_roles = cache  # type: ignore[attr-defined]  # a per-request cache on the object
    return role.value in cache


def is_instructor(user: AnyUser) -> bool:
    return has_role(user, Role.INSTRUCTOR)


def is_fixture_admin(user: AnyUser) -> bool:
    return has_role(user, Role.FIXTURE_ADMIN)


def may_see_unpublished(user: AnyUser) -> bool:
    """Instructors and fixture admins preview unpublished lessons; learners and visitors never do."""
    return is_instructor(user) or is_fixture_admin(user)


def instructs(instructor: AnyUser, learner: User) -> bool:
    """Say whether ``instructor`` teaches a cohort that ``learner`` belongs to."""
    if not is_instructor(instructor):
        return False
    if instructor.is_superuser:
        return True
    return Cohort.objects.taught_by(instructor).filter(learners=learner).exists()


def may_see_records_of(viewer: AnyUser, owner: User) -> bool:
    """A person's records are theirs and their instructors' to see, nobody else's."""
    if not viewer.is_authenticated:
        return False
    return viewer.pk == owner.pk or instructs(viewer, owner)


def require_sign_in(user: AnyUser) -> User:
    """Return the user if signed in; otherwise refuse with "로그인이 필요합니다"."""
    if not user.is_authenticated:
        raise SignInRequired("이 내용은 로그인한 뒤에 볼 수 있습니다.")
    assert isinstance(user, User)
    return user


# Capabilities of review work. Each names one decision about evidence and its
# reviews; the evidence services check them before they write, and views, the
# API and templates only read the answers the selectors computed from them.
# Adding a role changes these functions, not the pages.

SELF_REVIEW, PEER_REVIEW, INSTRUCTOR_REVIEW = "self", "peer", "instructor"


def review_kind_for(user: AnyUser, *, author: User, allocated: bool) -> str | None:
    """Which review ``user`` writes of ``author``'s work: the author a self-review, the author's
    instructor an instructor review, a learner holding a lease a peer review; anyone else none."""
    if not user.is_authenticated:
        return None
    if user.pk == author.pk:
        return SELF_REVIEW
    if instructs(user, author):
        return INSTRUCTOR_REVIEW
    return PEER_REVIEW if allocated else None


def may_release(user: AnyUser, *, author: User, cohort: Cohort | None) -> bool:
    """A review is released by an instructor of the cohort it was written in (any instructor of the
    author when it has none); another cohort's instructor may not, even if they teach the author too."""
    if not instructs(user, author):
        return False
    if cohort is None or user.is_superuser:
        return True
    return Cohort.objects.taught_by(user).filter(pk=cohort.pk).exists()


def sees_names(viewer: AnyUser, *, author: User) -> bool:
    """The author's instructors see both the author's and the peer reviewers' names; peers see neither."""
    return instructs(viewer, author)


def sees_unreleased(viewer: AnyUser, *, author: User) -> bool:
    """Unreleased reviews and instructors' notes are for the author's instructors only."""
    return instructs(viewer, author)


def may_flag(user: AnyUser, *, author: User, review_kind: str, released: bool) -> bool:
    """The author disputes a released review by someone else; nobody flags a self-review or an unseen one."""
    return user.is_authenticated and user.pk == author.pk and review_kind != SELF_REVIEW and released


def may_resolve(user: AnyUser, *, author: User) -> bool:
    """Disagreements and flags are resolved by the author's instructors."""
    return instructs(user, author)


def may_assign_reviewer(user: AnyUser, *, author: User, reviewer: User) -> bool:
    """An instructor hands a submission to a learner of any cohort they teach, never to its author."""
    return reviewer.pk != author.pk and instructs(user, author) and instructs(user, reviewer)


def may_change_cohort_setting(user: AnyUser, cohort: Cohort) -> bool:
    """A cohort's task settings are changed by that cohort's instructors only."""
    if not is_instructor(user):
        return False
    return user.is_superuser or Cohort.objects.taught_by(user).filter(pk=cohort.pk).exists()
