"""Instructor views one can act on: cohort progress links each learner to their records and shows review levels;
the queue shows and sorts by submitted time; CSV times are in the site's zone, named in the header."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.grounding import services as grounding_services
from exercises.grounding.models import Exercise
from tests.conftest import join, signed_in
from tests.exercises.evidence import helpers
from tutor.models import Cohort
from tutor.roles import Role


def submitted(author: User, task: EvidenceTask, *, hours_ago: int = 0) -> Submission:
    """A submission whose submitted_at is set back `hours_ago` hours, so the tables' order and times can be told."""
    submission = helpers.submitted(author, task)
    Submission.objects.filter(pk=submission.pk).update(submitted_at=timezone.now() - timedelta(hours=hours_ago))
    submission.refresh_from_db()
    return submission


def test_cohort_progress_links_each_learner_to_a_page_of_their_records(
        learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """The learner's name links to their page; there, their attempt and submission are one click away, and the
    self-review shows the level given on each criterion."""
    mine = submitted(learner, task)
    first = mine.rubric_version.criteria[0]
    services.record_review(reviewer=learner, submission=mine, kind="self",
                           judgements={c["key"]: c["levels"][0]["key"] for c in mine.rubric_version.criteria},
                           comment="")
    attempt = grounding_services.start_attempt(user=learner, exercise=Exercise.objects.get(slug="bookshop"),
                                               answer_text="가람책방은 월요일에 쉽니다.", variant_key="",
                                               idempotency_key="iv-1")
    client = signed_in(instructor)
    progress = client.get(reverse("evidence:cohort-progress", args=[cohort.pk])).content.decode()
    learner_url = reverse("evidence:cohort-learner", args=[cohort.pk, "learner"])
    assert f'href="{learner_url}"' in progress
    assert "본인 검토" in progress, "the card says which reviews the newest version has"
    page = client.get(learner_url).content.decode()
    assert f"{first['title']} {first['levels'][0]['label']}" in page, "the levels are one click away"
    assert reverse("evidence:submission", args=[mine.pk]) in page
    assert reverse("grounding:attempt", args=[attempt.pk]) in page
    assert client.get(reverse("grounding:attempt", args=[attempt.pk])).status_code == 200


def test_a_learner_page_is_only_for_the_learners_own_instructors(
        learner: User, other_learner: User, instructor: User, make_user, cohort: Cohort) -> None:
    """Another cohort's instructor, a learner and an unknown name all get 404."""
    url = reverse("evidence:cohort-learner", args=[cohort.pk, "learner"])
    outsider = make_user("far", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), outsider, "instructor")
    assert signed_in(outsider).get(url).status_code == 404
    assert signed_in(other_learner).get(url).status_code == 404
    assert signed_in(instructor).get(reverse("evidence:cohort-learner", args=[cohort.pk, "nobody"])).status_code == 404
    stranger = make_user("stranger", in_cohort=False)
    assert signed_in(instructor).get(
        reverse("evidence:cohort-learner", args=[cohort.pk, stranger.username])).status_code == 404
    assert signed_in(instructor).get(url).status_code == 200


def test_queue_shows_submitted_time_and_sorts_by_it(
        learner: User, other_learner: User, instructor: User, task: EvidenceTask) -> None:
    """Oldest first by default (who waited longest); newest first on request; each row shows its local time."""
    old = submitted(learner, task, hours_ago=5)
    new = submitted(other_learner, task, hours_ago=1)
    client = signed_in(instructor)
    page = client.get(reverse("evidence:queue")).content.decode()
    table = page[page.index("모든 제출"):]
    assert table.index("learner · 판 1") < table.index("other · 판 1")
    assert timezone.localtime(old.submitted_at).strftime("%Y-%m-%d %H:%M") in table
    assert "제출 시각" in table
    newest = client.get(reverse("evidence:queue"), {"sort": "newest"}).content.decode()
    table = newest[newest.index("모든 제출"):]
    assert table.index("other · 판 1") < table.index("learner · 판 1")
    assert timezone.localtime(new.submitted_at).strftime("%Y-%m-%d %H:%M") in table


def test_csv_times_are_in_the_site_zone_and_the_header_names_it(
        learner: User, instructor: User, task: EvidenceTask) -> None:
    """Asia/Seoul: the submitted time carries +09:00 and the column says which zone."""
    mine = submitted(learner, task)
    response = signed_in(instructor).get(reverse("evidence:export"))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert "submitted_at (Asia/Seoul)" in rows[0]
    value = rows[0]["submitted_at (Asia/Seoul)"]
    assert value.endswith("+09:00")
    assert value == timezone.localtime(mine.submitted_at).isoformat(timespec="seconds")
