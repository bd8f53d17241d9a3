"""Instructor pages: the queue and its filters, who is waiting, CSV export, cohort progress, the audit log;
each only for the instructor's own cohorts."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import CohortTaskSetting, EvidenceTask
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import levels, submitted
from tutor.models import AuditEntry, Cohort
from tutor.roles import Role


def test_queue_shows_waiting_disagreement_and_flags(learner: User, other_learner: User, make_user, instructor: User,
                                                    task: EvidenceTask) -> None:
    third = make_user("third")
    mine = submitted(learner, task)
    for reviewer, pick in ((other_learner, 0), (third, -1)):
        submitted(reviewer, task)
        allocation = peer.assign_peer(instructor=instructor, submission=mine, reviewer=reviewer)
        services.record_review(reviewer=reviewer, submission=allocation.submission, kind="peer",
                               judgements=levels(mine, pick), comment="")
    client = signed_in(instructor)
    page = client.get(reverse("evidence:queue")).content.decode()
    assert "learner" in page and "불일치" in page
    only = client.get(reverse("evidence:queue"), {"disagreement": "on"}).content.decode()
    assert "learner · 판 1" in only
    none = client.get(reverse("evidence:queue"), {"state": "released"}).content.decode()
    assert "learner · 판 1" not in none


def test_waiting_submission_can_be_assigned_or_its_minimum_lowered(learner: User, other_learner: User,
                                                                   instructor: User, cohort: Cohort,
                                                                   task: EvidenceTask) -> None:
    """The waiting list offers an eligible reviewer and lowers the minimum for that cohort only, with an audit
    entry; the task's file default stays."""
    mine = submitted(learner, task)
    submitted(other_learner, task)
    client = signed_in(instructor)
    page = client.get(reverse("evidence:queue")).content.decode()
    assert "기다리는 중" in page and "맡은 검토 0" in page
    client.post(reverse("evidence:assign", args=[mine.pk]), {"reviewer": other_learner.pk})
    assert mine.allocations.get().reviewer == other_learner
    assert "(검토 중 1)" in client.get(reverse("evidence:queue")).content.decode()
    client.post(reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug]), {"minimum": "0", "reason": "시간 부족"})
    task.refresh_from_db()
    assert task.default_min_peer_reviews == 1
    assert CohortTaskSetting.objects.get(cohort=cohort, task=task).min_peer_reviews == 0
    assert AuditEntry.objects.filter(action="cohort_setting.min_peer_reviews", actor=instructor).exists()


def test_csv_export_lists_only_the_instructors_cohorts(learner: User, make_user, instructor: User, task: EvidenceTask) -> None:
    submitted(learner, task)
    stranger = make_user("stranger", in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), stranger)
    submitted(stranger, task)
    response = signed_in(instructor).get(reverse("evidence:export"))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:2] == ["task", "learner"] and [r[1] for r in rows[1:]] == ["learner"]


def test_learners_and_outside_instructors_cannot_use_instructor_pages(learner: User, make_user, instructor: User,
                                                                      cohort: Cohort, task: EvidenceTask) -> None:
    outsider = make_user("far", Role.INSTRUCTOR, in_cohort=False)
    for user in (learner, make_user("keeper", Role.FIXTURE_ADMIN)):
        client = signed_in(user)
        for url in (reverse("evidence:queue"), reverse("evidence:export"), reverse("tutor:audit"),
                    reverse("evidence:cohort-progress", args=[cohort.pk])):
            assert client.get(url).status_code == 404, (user.username, url)
    assert signed_in(outsider).get(reverse("evidence:cohort-progress", args=[cohort.pk])).status_code == 404
    assert signed_in(instructor).get(reverse("evidence:cohort-progress", args=[cohort.pk])).status_code == 200


def test_cohort_progress_shows_the_three_tracks(learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    services.record_review(reviewer=learner, submission=mine, kind="self", judgements=levels(mine, -1), comment="")
    page = signed_in(instructor).get(reverse("evidence:cohort-progress", args=[cohort.pk])).content.decode()
    assert "진도" in page and "자기 점검" in page and "검토" in page and "본인 검토" in page
    assert "인증하지 않습니다" in page


def test_audit_log_is_read_only_and_scoped(learner: User, instructor: User, make_user, task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="")
    services.release_reviews(instructor=instructor, submission=mine)
    page = signed_in(instructor).get(reverse("tutor:audit")).content.decode()
    assert "review.release" in page
    outsider = make_user("far", Role.INSTRUCTOR, in_cohort=False)
    assert "review.release" not in signed_in(outsider).get(reverse("tutor:audit")).content.decode()
    assert signed_in(instructor).post(reverse("tutor:audit")).status_code == 405


def test_release_per_task_covers_only_the_instructors_cohorts(learner: User, other_learner: User, make_user,
                                                              instructor: User, task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    stranger = make_user("stranger", in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), stranger)
    theirs = submitted(stranger, task)
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="")
    response = signed_in(instructor).post(reverse("evidence:release-task", args=[task.slug]))
    assert response.status_code == 302
    assert mine.reviews.get().released_at is not None
    assert not theirs.reviews.exists()
    assert signed_in(learner).post(reverse("evidence:release-task", args=[task.slug])).status_code == 404


def test_queue_pages_its_rows_and_caps_the_waiting_list(make_user, instructor: User, task: EvidenceTask,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a page size of 2 and three waiting submissions: page 1 lists two (the longest-waiting), page 2 the
    third with the filters kept in its links; the waiting list shows two with "1건 더". Reading more than the
    page shows is what made the queue grow with the class."""
    from exercises.evidence import views

    monkeypatch.setattr(views, "QUEUE_PAGE_SIZE", 2)
    authors = [make_user(f"author{n}") for n in range(3)]
    for author in authors:
        submitted(author, task)
    client = signed_in(instructor)
    first = client.get(reverse("evidence:queue") + "?task=" + task.slug).content.decode()
    assert "기다리는 제출이 1건 더 있습니다" in first
    assert "제출 3건 · 1/2쪽" in first
    assert f"?task={task.slug}&amp;page=2" in first
    second = client.get(reverse("evidence:queue") + f"?task={task.slug}&page=2").content.decode()
    table = second[second.index("모든 제출"):]
    assert "author2 · 판 1" in table and "author0 · 판 1" not in table
    assert "author0 · 판 1" in first[first.index("모든 제출"):]
