"""The move to release per review keeps what was released: a submission released as a whole before the migration
has each of its reviews written by then released after it, and old allocations get a lease end."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("evidence", "0004_review_citations")]
AFTER = [("evidence", "0005_per_review_release_leases_calibration")]


@pytest.mark.django_db(transaction=True)
def test_released_submissions_become_released_reviews() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    course = old.get_model("lessons", "Course").objects.create(slug="m-course", title="C")
    lesson = old.get_model("lessons", "Lesson").objects.create(course=course, slug="m-lesson", order=99)
    task = old.get_model("evidence", "EvidenceTask").objects.create(lesson=lesson, slug="m-task", kind="practice",
                                                                    title="T", digest="d")
    rubric = old.get_model("evidence", "RubricVersion").objects.create(task=task, number=1, criteria=[], digest="d")
    user_model = old.get_model("auth", "User")
    author = user_model.objects.create(username="m-author")
    reviewer = user_model.objects.create(username="m-reviewer")
    now = timezone.now()
    submission = old.get_model("evidence", "Submission").objects.create(
        task=task, author=author, version=1, status="submitted", rubric_version=rubric, submitted_at=now,
        released_at=now, disagreement_resolution="메모", disagreement_resolved_at=now)
    review_model = old.get_model("evidence", "Review")
    peer = review_model.objects.create(submission=submission, reviewer=reviewer, kind="peer", rubric_version=rubric)
    review_model.objects.filter(pk=peer.pk).update(created_at=now - timezone.timedelta(minutes=1))
    own = review_model.objects.create(submission=submission, reviewer=author, kind="self", rubric_version=rubric)
    old.get_model("evidence", "PeerAllocation").objects.create(submission=submission, reviewer=reviewer)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    reviews = new.get_model("evidence", "Review").objects
    assert reviews.get(pk=peer.pk).released_at == now
    assert reviews.get(pk=own.pk).released_at is None
    assert new.get_model("evidence", "Submission").objects.get(pk=submission.pk).disagreement_released_at == now
    allocation = new.get_model("evidence", "PeerAllocation").objects.get()
    assert allocation.expires_at == allocation.created_at + timezone.timedelta(hours=8)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
