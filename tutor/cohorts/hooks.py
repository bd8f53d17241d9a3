"""What cohorts ask of the apps built on them (registered with ``tutor.extensions.register``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tutor.models import Cohort


class MembershipListener(Protocol):
    """An app that holds something per member of a cohort (peer review leases) and lets go when they leave."""

    def member_left(self, *, actor: User, user: User, cohort: Cohort) -> None:
        """Called inside the removal's transaction, after the membership is marked removed."""
        ...
