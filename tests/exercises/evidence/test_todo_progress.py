"""What I owe (to-do, home) and who is stuck (cohort progress, CSV): issue 19, points 2 and 4."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from exercises.evidence import peer, schedule, services
from exercises.evidence.models import EvidenceTask, Review
from lessons.models import Lesson
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import insufficient, submitted
from tutor.models import Cohort
from tutor.roles import CohortRole, Role


def kinds(client: Client) -> list[str]:
    return [item["kind"] for item in client.get("/api/me/todo").json()]


def test_a_peer_review_allocated_to_me_is_on_my_todo_with_the_lease_end(
        learner: User, other_learner: User, task: EvidenceTask) -> None:
    """The to-do lists the live lease with its end and a link to the work; the home page shows it too."""
    submitted(other_learner, task)
    submitted(learner, task)
    allocation = peer.allocate_peer_work(reviewer=learner, task=task)
    client = signed_in(learner)
    item = next(i for i in client.get("/api/me/todo").json() if i["kind"] == "peer_review")
    assert item["url"] == f"/evidence/submissions/{allocation.submission_id}/"
    assert abs(timezone.datetime.fromisoformat(item["due_at"]) - allocation.expires_at) < timedelta(milliseconds=1)
    home = client.get("/").content.decode()
    assert "검토 기한" in home and item["url"] in home
    assert "peer_review" not in kinds(signed_in(other_learner))


def test_due_and_overdue_tasks_show_until_submitted_and_an_extension_moves_them(
        learner: User, instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """A task due within 7 days is "due", one past due "overdue"; an extension makes it "due" again; a
    submission clears it."""
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() + timedelta(days=2), peer_due_at=None)
    client = signed_in(learner)
    assert "due" in kinds(client)
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() - timedelta(hours=1), peer_due_at=None)
    assert "overdue" in kinds(client)
    schedule.grant_extension(instructor=instructor, cohort=cohort, task=task, username="learner",
                             due_at=timezone.now() + timedelta(days=1), reason="병가")
    assert "due" in kinds(client) and "overdue" not in kinds(client)
    submitted(learner, task)
    assert not {"due", "overdue"} & set(kinds(client))


def test_a_released_review_waits_on_my_todo_until_i_open_it(
        learner: User, other_learner: User, instructor: User, task: EvidenceTask) -> None:
    """After release the review is on the author's to-do; opening the page (its POST) clears it; nobody else
    may mark it opened. An instructor review judging 근거 부족 asks for a resubmission."""
    submission = submitted(learner, task)
    services.record_review(reviewer=instructor, submission=submission, kind=Review.Kind.INSTRUCTOR,
                           judgements=insufficient(task), comment="")
    services.release_reviews(instructor=instructor, submission=submission)
    client = signed_in(learner)
    assert {"review_released", "resubmission"} <= set(kinds(client))
    assert signed_in(other_learner).post(f"/evidence/submissions/{submission.pk}/opened/").status_code == 404
    assert client.post(f"/evidence/submissions/{submission.pk}/opened/").status_code == 204
    assert "review_released" not in kinds(client)


def test_teachers_get_their_own_items_and_learners_never_do(
        learner: User, instructor: User, make_user: Callable[..., User], cohort: Cohort, task: EvidenceTask) -> None:
    """Instructors and assistants see waiting submissions and stuck learners per cohort; a learner sees none of
    that; another cohort's instructor sees nothing of this cohort."""
    submitted(learner, task)
    make_user("quiet")
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() + timedelta(hours=20), peer_due_at=None)
    assistant = make_user("assistant", None, cohort_role=CohortRole.ASSISTANT)
    elsewhere = make_user("elsewhere", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), elsewhere, CohortRole.INSTRUCTOR)
    for teacher in (instructor, assistant):
        items = signed_in(teacher).get("/api/me/todo").json()
        assert {"waiting_review", "stuck_learner"} <= {i["kind"] for i in items}
        assert "기다리는 일" in signed_in(teacher).get("/").content.decode()
    assert not {"waiting_review", "stuck_learner"} & set(kinds(signed_in(learner)))
    assert kinds(signed_in(elsewhere)) == []
    assert Client().get("/api/me/todo").status_code == 401


def test_progress_is_one_row_per_learner_with_filters_for_assistants_and_instructors_only(
        learner: User, other_learner: User, instructor: User, make_user: Callable[..., User], cohort: Cohort,
        task: EvidenceTask) -> None:
    """GET /api/cohorts/{id}/progress: a row per learner with task states; show=behind keeps those who missed a
    due task; assistants may read it; learners, other cohorts' instructors and visitors get 404."""
    schedule.set_schedule(instructor=instructor, cohort=cohort, task=task, opens_at=None,
                          due_at=timezone.now() - timedelta(hours=1), peer_due_at=None)
    submitted(other_learner, task)
    url = f"/api/cohorts/{cohort.pk}/progress"
    rows = signed_in(instructor).get(url).json()
    assert [r["username"] for r in rows] == ["learner", "other"]
    states = {r["username"]: {c["task"]: c for c in r["tasks"]}[task.slug] for r in rows}
    assert states["learner"]["state"] == "missing"
    assert states["other"]["late"] is True and states["other"]["state"] == "waiting_review"
    assert [r["username"] for r in signed_in(instructor).get(url + "?show=behind").json()] == ["learner"]
    assert [r["username"] for r in signed_in(instructor).get(url + "?show=waiting_for_me").json()] == ["other"]
    assistant = make_user("assistant", None, cohort_role=CohortRole.ASSISTANT)
    assert signed_in(assistant).get(url).status_code == 200
    elsewhere = make_user("elsewhere", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), elsewhere, CohortRole.INSTRUCTOR)
    for client in (signed_in(learner), signed_in(elsewhere), Client()):
        assert client.get(url).status_code == 404
        assert client.get(f"/evidence/cohorts/{cohort.pk}/progress.csv").status_code in (302, 404)
    page = signed_in(instructor).get(f"/evidence/cohorts/{cohort.pk}/progress/?show=behind").content.decode()
    assert 'data-learner="learner"' in page and 'data-learner="other"' not in page
    assert f"/evidence/cohorts/{cohort.pk}/learners/learner/" in page


def test_the_progress_csv_is_safe_for_spreadsheets(make_user: Callable[..., User], instructor: User,
                                                   cohort: Cohort, course: list[Lesson]) -> None:
    """A learner whose name starts with = is exported as text, not as a formula; the CSV has a BOM."""
    sly = make_user("sly")
    sly.first_name = "=HYPERLINK(\"http://x\")"
    sly.save()
    body = signed_in(instructor).get(f"/evidence/cohorts/{cohort.pk}/progress.csv").content.decode("utf-8")
    assert body.startswith("\ufeff") and "'=HYPERLINK" in body


def test_the_progress_page_shows_30_cards_a_page(make_user: Callable[..., User], instructor: User, cohort: Cohort,
                                                 course: list[Lesson]) -> None:
    """A class of 35 is two pages of cards (30 and 5), so the page costs the same for any class size; the
    filters and sort travel with the page links."""
    for n in range(35):
        make_user(f"p{n:02d}")
    client = signed_in(instructor)
    first = client.get(f"/evidence/cohorts/{cohort.pk}/progress/?sort=username").content.decode()
    assert first.count("data-learner=") == 30 and "page=2" in first and "sort=username" in first
    second = client.get(f"/evidence/cohorts/{cohort.pk}/progress/?sort=username&page=2").content.decode()
    assert second.count("data-learner=") == 5 and 'data-learner="p34"' in second


def test_progress_waiting_agrees_with_the_queue(
        make_user: Callable[..., User], instructor: User, cohort: Cohort, task: EvidenceTask) -> None:
    """The progress table works out "검토 대기" from review rows instead of building the queue; for every review
    state (none, an unreleased peer review, a released one, an instructor review before and after release) it
    says "waiting_review" exactly where the queue says needs_review."""
    from exercises.evidence.progress import cohort_table
    from exercises.evidence.selectors import instructor_queue

    authors = [make_user(f"author{n}") for n in range(5)]
    subs = [submitted(author, task) for author in authors]
    reviewer = make_user("peer")
    submitted(reviewer, task)
    services.record_review(reviewer=instructor, submission=subs[3], kind=Review.Kind.INSTRUCTOR,
                           judgements=insufficient(task), comment="")
    services.record_review(reviewer=instructor, submission=subs[4], kind=Review.Kind.INSTRUCTOR,
                           judgements=insufficient(task), comment="")
    services.release_reviews(instructor=instructor, submission=subs[4])
    for target in (subs[1], subs[2]):
        allocation = peer.assign_peer(instructor=instructor, submission=target, reviewer=reviewer)
        services.record_review(reviewer=reviewer, submission=allocation.submission, kind=Review.Kind.PEER,
                               judgements=insufficient(task), comment="")
    services.release_reviews(instructor=instructor, submission=subs[2])
    queue = {row.submission.pk: row.state for row in instructor_queue(instructor, cohort_id=cohort.pk)}
    _cohort, _tasks, rows = cohort_table(instructor, cohort.pk)
    cells = {cell.submission_id: cell.state for row in rows for cell in row.tasks if cell.submission_id}
    assert {pk for pk, state in queue.items() if state == "needs_review"} == \
        {pk for pk, state in cells.items() if state == "waiting_review"}
    assert {queue[s.pk] for s in subs} == {"needs_review", "reviewed", "released"}, "every state is exercised"
