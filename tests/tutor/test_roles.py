"""Roles as data: one permission table answers the list rule and the object rule alike, per cohort, and an
assistant reviews and releases for their own cohort but never changes its settings."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from exercises.evidence import services
from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import levels, submitted
from tests.exercises.evidence.test_release import author_sees
from tutor import access
from tutor.access import GRANTS, Perm
from tutor.models import Cohort, Membership
from tutor.roles import CohortRole, Role


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    return EvidenceTask.objects.get(slug="afs-practice")


@pytest.fixture
def assistant(make_user: Callable[..., User]) -> User:
    return make_user("helper", None, cohort_role="assistant")


def test_the_list_rule_and_the_object_rule_agree_for_every_role_and_permission(
        make_user: Callable[..., User], cohort: Cohort, learner: User, instructor: User) -> None:
    """For each person and permission, ``cohorts_where`` lists exactly the cohorts ``may`` allows."""
    other = Cohort.objects.create(name="다른 기수")
    people = [learner, instructor, make_user("outsider", Role.INSTRUCTOR, in_cohort=False)]
    for n, role in enumerate(CohortRole.values):
        person = make_user(f"role{n}", None, in_cohort=False)
        join(other, person, role)
        people.append(person)
    for person in people:
        for perm in Perm:
            listed = set(access.cohorts_where(User.objects.get(pk=person.pk), perm))
            allowed = {c for c in (cohort, other) if access.may(User.objects.get(pk=person.pk), perm, c)}
            assert listed == allowed, (person.username, perm)


def test_a_removed_or_invited_member_holds_nothing(cohort: Cohort, instructor: User, learner: User) -> None:
    """Only an active membership grants: an invited or removed instructor may not review the cohort's learners."""
    for status in (Membership.Status.INVITED, Membership.Status.REMOVED):
        Membership.objects.filter(user=instructor).update(status=status)
        fresh = User.objects.get(pk=instructor.pk)
        assert not access.instructs(fresh, learner) and not access.may(fresh, Perm.CHANGE_SETTINGS, cohort)


def test_the_policy_reads_memberships_once_per_request(instructor: User, learner: User, other_learner: User,
                                                       cohort: Cohort) -> None:
    """Asking many times about the same people costs the membership reads once, not a query per question."""
    asker = User.objects.get(pk=instructor.pk)
    access.instructs(asker, learner)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(20):
            assert access.instructs(asker, learner) and access.may_release(asker, author=learner, cohort=cohort)
            assert access.sees_names(asker, author=learner) and access.may_resolve(asker, author=learner)
    assert len(queries) == 0


def test_an_assistant_reviews_and_releases_for_their_cohort(assistant: User, learner: User, task: EvidenceTask,
                                                             cohort: Cohort) -> None:
    """The assistant writes the instructor-side review, releases it from the page, and reads the cohort's
    progress and the learner's records."""
    mine = submitted(learner, task)
    assert access.review_kind_for(assistant, author=learner, allocated=False) == access.INSTRUCTOR_REVIEW
    services.record_review(reviewer=assistant, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="조교 의견")
    client = signed_in(assistant)
    assert client.post(reverse("evidence:release", args=[mine.pk])).status_code == 302
    assert "조교 의견" in author_sees(learner, mine)
    assert client.get(reverse("evidence:cohort-progress", args=[cohort.pk])).status_code == 200
    assert client.get(reverse("evidence:cohort-learner", args=[cohort.pk, learner.username])).status_code == 200
    assert access.may_resolve(assistant, author=learner)


def test_an_assistant_never_changes_settings_enrolment_or_roles(assistant: User, cohort: Cohort,
                                                                 task: EvidenceTask) -> None:
    """Settings answer 404 to the assistant, and the table grants them no enrolment or role changes."""
    response = signed_in(assistant).post(reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug]),
                                         {"minimum": "0", "reason": "조교가 바꾸려 함"})
    assert response.status_code == 404
    assert not access.may_change_cohort_setting(assistant, cohort)
    for perm in (Perm.CHANGE_SETTINGS, Perm.ENROL, Perm.MANAGE_ROLES):
        assert CohortRole.ASSISTANT not in GRANTS[perm] and not access.may(assistant, perm, cohort)


def test_another_cohorts_assistant_may_not_release_or_read(make_user: Callable[..., User], learner: User,
                                                           instructor: User, task: EvidenceTask,
                                                           cohort: Cohort) -> None:
    """An assistant of another cohort gets 404 at this cohort's submission, release and progress."""
    stranger = make_user("far-helper", None, in_cohort=False)
    join(Cohort.objects.create(name="남의 기수"), stranger, CohortRole.ASSISTANT)
    mine = submitted(learner, task)
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="강사 의견")
    client = signed_in(stranger)
    assert client.get(reverse("evidence:submission", args=[mine.pk])).status_code == 404
    assert client.post(reverse("evidence:release", args=[mine.pk])).status_code == 404
    assert client.get(reverse("evidence:cohort-progress", args=[cohort.pk])).status_code == 404
    assert "강사 의견" not in author_sees(learner, mine)


def test_the_queue_offers_an_assistant_only_what_they_may_do(assistant: User, learner: User, task: EvidenceTask,
                                                              cohort: Cohort) -> None:
    """The assistant's queue lists the cohort's waiting work but no settings button and no export links."""
    submitted(learner, task)
    page = signed_in(assistant).get(reverse("evidence:queue")).content.decode()
    assert learner.username in page
    assert reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug]) not in page
    assert reverse("evidence:export") not in page
