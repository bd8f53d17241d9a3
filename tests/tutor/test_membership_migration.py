"""The move to memberships keeps who is in each cohort: listed instructors and learners become active memberships
with their roles, and someone on both lists stays an instructor."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tutor", "0005_merge_audit_chain_and_throttle")]
AFTER = [("tutor", "0007_membership_role_assistant")]


@pytest.mark.django_db(transaction=True)
def test_cohort_lists_become_memberships() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user_model = old.get_model("auth", "User")
    teacher = user_model.objects.create(username="m-teacher")
    learner = user_model.objects.create(username="m-learner")
    both = user_model.objects.create(username="m-both")
    cohort = old.get_model("tutor", "Cohort").objects.create(name="옛 기수")
    cohort.instructors.add(teacher, both)
    cohort.learners.add(learner, both)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    memberships = new.get_model("tutor", "Membership").objects.filter(cohort_id=cohort.pk)
    assert {(m.user_id, m.role, m.status) for m in memberships} == {
        (teacher.pk, "instructor", "active"), (learner.pk, "learner", "active"), (both.pk, "instructor", "active")}
    assert all(m.joined_at is not None for m in memberships)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
