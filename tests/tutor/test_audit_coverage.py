"""What the audit log records: every 404 an access check gives a signed-in user (pages and API),
bad tokens, failed sign-ins, cohort membership and new versions; repeats gathered per hour with a count."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask
from exercises.labs import services as lab_services
from exercises.labs.models import Lab
from lessons.models import Lesson
from lessons.services import set_lesson_published
from tests.conftest import PASSWORD, signed_in
from tutor import audit
from tutor.models import AuditEntry, Cohort
from tutor.services import issue_api_token, revoke_api_token


def denials(user: User) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action="access.deny", actor=user).order_by("seq"))


def test_repeated_refusals_are_one_entry_per_actor_target_and_hour(lesson: Lesson, learner: User) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    client = signed_in(learner)
    for _ in range(25):
        assert client.get(f"/lessons/{lesson.slug}/").status_code == 404
    assert client.get(f"/api/lessons/{lesson.slug}").status_code == 404
    [entry] = AuditEntry.objects.about(lesson).filter(action="access.deny", actor=learner)
    assert entry.repeats == 26 and entry.reason == "미게시 레슨" and entry.last_at >= entry.at
    later = timezone.now() + timedelta(hours=1)
    with mock.patch("tutor.audit.timezone.now", return_value=later):
        client.get(f"/lessons/{lesson.slug}/")
    assert AuditEntry.objects.about(lesson).filter(action="access.deny", actor=learner).count() == 2


def test_others_runs_attempts_and_submissions_are_logged_with_their_target(
    learner: User, other_learner: User, course: list[Lesson], django_capture_on_commit_callbacks
) -> None:
    lab = Lab.objects.get(slug="replay-retry")
    with django_capture_on_commit_callbacks(execute=False):
        run = lab_services.request_run(user=other_learner, lab=lab, code="pass", step="run", idempotency_key="r")
    task = EvidenceTask.objects.get(slug="afs-practice")
    evidence_services.save_draft(author=other_learner, task=task, text="남의 글", run_ids=[], lines=[])
    submission = evidence_services.submit(author=other_learner, task=task, submit_key="k")
    client = signed_in(learner)
    assert client.get(reverse("labs:run", args=[run.pk])).status_code == 404
    assert client.get(f"/api/labs/runs/{run.pk}").status_code == 404
    assert client.get(reverse("evidence:submission", args=[submission.pk])).status_code == 404
    assert client.get(f"/api/evidence/submissions/{submission.pk}").status_code == 404
    targets = {(e.target_type, e.target_id): e for e in denials(learner)}
    assert targets[("labs.labrun", str(run.pk))].repeats == 2
    assert targets[("evidence.submission", str(submission.pk))].repeats == 2
    assert targets[("labs.labrun", str(run.pk))].reason == "남의 실행 기록"
    assert other_learner.username not in " ".join(e.target_label + e.reason for e in targets.values())


def test_pages_refused_without_a_target_are_logged_by_route_not_by_id(learner: User, course: list[Lesson]) -> None:
    client = signed_in(learner)
    for path in ("/account/audit/", "/evidence/queue/", "/evidence/export.csv", "/api/evidence/queue"):
        assert client.get(path).status_code == 404, path
    for run_id in range(900, 940):  # probing ids
        client.get(f"/api/labs/runs/{run_id}")
    routes = {e.target_id: e for e in denials(learner) if e.target_type == "route"}
    assert {"account/audit/", "evidence/queue/", "evidence/export.csv"} <= set(routes)
    probing = [e for e in routes.values() if "runs" in e.target_id]
    assert len(probing) == 1 and probing[0].repeats == 40, "40 probed ids are one entry with a count"


def test_a_refusal_never_keeps_another_persons_name_from_the_url(learner: User, other_learner: User,
                                                                course: list[Lesson]) -> None:
    from exercises.grounding.models import Exercise

    exercise = Exercise.objects.first()
    url = reverse("grounding:learner-attempts", args=[exercise.slug, other_learner.username])
    assert signed_in(learner).get(url).status_code == 404
    [entry] = denials(learner)
    assert entry.target_type == "route" and other_learner.username not in str(AuditEntry.objects.filter(
        pk=entry.pk).values().get())


def test_a_visitor_refused_is_not_an_entry(lesson: Lesson) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    before = AuditEntry.objects.count()
    assert Client().get(f"/lessons/{lesson.slug}/").status_code == 404
    assert AuditEntry.objects.count() == before


def test_bad_and_revoked_tokens_are_logged_and_gathered(learner: User) -> None:
    for _ in range(3):
        assert Client().get("/api/me/progress", HTTP_AUTHORIZATION="Bearer gt_not-a-real-token").status_code == 401
    [unknown] = AuditEntry.objects.filter(action="api_token.refused", target_id="unknown")
    assert unknown.repeats == 3 and unknown.actor is None
    token, secret = issue_api_token(user=learner, name="노트북")
    revoke_api_token(user=learner, token_id=token.pk)
    assert Client().get("/api/me/progress", HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 401
    revoked = AuditEntry.objects.about(token).get(action="api_token.refused")
    assert revoked.reason == "폐기된 토큰"
    assert secret not in str(list(AuditEntry.objects.values()))


def test_failed_sign_ins_are_a_summary_per_account_and_hour(learner: User) -> None:
    client = Client()
    for _ in range(3):
        client.post("/account/sign-in/", {"username": learner.username, "password": "wrong-password"})
    client.post("/account/sign-in/", {"username": "my-secret-password-typed-here", "password": "x"})
    [entry] = AuditEntry.objects.about(learner).filter(action="sign_in.failed")
    assert entry.repeats == 3 and entry.actor is None
    assert AuditEntry.objects.filter(action="sign_in.failed", target_id="unknown").get().repeats == 1
    assert "my-secret-password-typed-here" not in str(list(AuditEntry.objects.values()))
    assert client.post("/account/sign-in/", {"username": learner.username, "password": PASSWORD}).status_code == 302


def test_cohort_membership_changes_in_the_admin_are_audited(cohort: Cohort, learner: User, other_learner: User) -> None:
    """Setting a membership to removed in the admin's cohort page leaves a cohort.members entry naming who left."""
    admin = User.objects.create_superuser("root", password="x-very-long-password")
    rows = list(cohort.memberships.order_by("user_id"))
    data = {"name": cohort.name, "memberships-TOTAL_FORMS": len(rows), "memberships-INITIAL_FORMS": len(rows),
            "memberships-MIN_NUM_FORMS": 0, "memberships-MAX_NUM_FORMS": 1000}
    for n, row in enumerate(rows):
        data |= {f"memberships-{n}-id": row.pk, f"memberships-{n}-cohort": cohort.pk,
                 f"memberships-{n}-user": row.user_id, f"memberships-{n}-role": row.role,
                 f"memberships-{n}-status": "removed" if row.user_id == other_learner.pk else row.status,
                 f"memberships-{n}-student_id": ""}
    response = signed_in(admin).post(f"/admin/tutor/cohort/{cohort.pk}/change/", data)
    assert response.status_code == 302
    entry = AuditEntry.objects.about(cohort).get(action="cohort.members")
    assert entry.actor == admin
    assert entry.detail["learner"] == {"added": [], "removed": [other_learner.pk]}
    assert entry.before["learner"] == sorted([learner.pk, other_learner.pk]) and entry.after["learner"] == [learner.pk]


def test_new_lab_rubric_and_fixture_versions_leave_entries(course: list[Lesson]) -> None:
    lab = Lab.objects.get(slug="replay-retry")
    entry = AuditEntry.objects.about(lab).get(action="lab.version")
    assert entry.after["version"] == lab.version and entry.after["digest"] == lab.digest
    task = EvidenceTask.objects.get(slug="afs-practice")
    assert AuditEntry.objects.about(task.current_rubric).get(action="rubric.version").after["number"] == 1
    assert AuditEntry.objects.filter(action="fixture.version").exists()


def test_entries_keep_values_not_only_digests(lesson: Lesson, instructor: User) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=instructor, reason="고칠 곳")
    entry = AuditEntry.objects.about(lesson).get(action="lesson.unpublish")
    assert entry.before == {"is_published": True} and entry.after == {"is_published": False}
    assert entry.after_digest == audit.state_digest({"is_published": False})


@pytest.mark.parametrize("action", ["access.deny"])
def test_the_chain_still_verifies_after_gathering(lesson: Lesson, learner: User, action: str) -> None:
    for _ in range(5):
        audit.refusal(actor=learner, action=action, target=lesson, reason="시험")
    assert audit.verify_chain().ok, "counting repeats never breaks the chain"


def test_the_audit_page_shows_gathered_counts_to_the_instructor(lesson: Lesson, learner: User, instructor: User) -> None:
    set_lesson_published(lesson=lesson, published=False, actor=None, reason="시험")
    for _ in range(4):
        signed_in(learner).get(f"/lessons/{lesson.slug}/")
    page = signed_in(instructor).get("/account/audit/").content.decode()
    assert "access.deny" in page and "4번" in page and "미게시 레슨" in page


def test_loading_the_course_audits_each_exercise_version_as_it_does_labs_and_rubrics(course: list) -> None:
    """Every loaded grounding exercise has a version entry from the content load, beside the labs' and rubrics'."""
    from exercises.grounding.models import Exercise

    for exercise in Exercise.objects.filter(is_active=True):
        entries = AuditEntry.objects.about(exercise).filter(action="grounding.exercise_version")
        assert entries.filter(after__version=exercise.version).exists(), exercise.slug
    assert AuditEntry.objects.filter(action="lab.version").exists()
    assert AuditEntry.objects.filter(action="rubric.version").exists()
