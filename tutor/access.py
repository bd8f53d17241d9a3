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
