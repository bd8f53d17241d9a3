"""A learner's own data: the download holds everything about them and nothing about anyone else; deleting
the account removes their records, keeps what they wrote for others as "탈퇴한 학습자", and is audited."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import peer
from exercises.evidence import services as evidence
from exercises.evidence.models import INSUFFICIENT, EvidenceTask, Review, Submission
from exercises.evidence.selectors import name_of_reviewer
from exercises.grounding import services as grounding
from exercises.grounding.models import Attempt, ClaimMark, Exercise
from exercises.labs.models import Lab, LabRun
from lessons import services as lessons
from lessons.models import CompletionRecord, Lesson, SelfReport
from tests.conftest import PASSWORD, signed_in
from tutor.accounts import registry, services
from tutor.accounts.selectors import export_zip
from tutor.mail.models import OutboundMail
from tutor.models import ApiToken, AuditEntry, Cohort, SignInThrottle
from tutor.services import issue_api_token

pytestmark = pytest.mark.django_db


@dataclass
class World:
    alice: User
    bob: User
    instructor: User
    alice_submission: Submission
    bob_submission: Submission
    alice_review_of_bob: Review
    bob_review_of_alice: Review


def levels(submission: Submission) -> dict[str, str]:
    return {c["key"]: INSUFFICIENT for c in submission.rubric_version.criteria}


def activity(user: User, marker: str, lesson: Lesson) -> None:
    """One record of every kind a learner makes, each carrying ``marker``."""
    lessons.record_completion(user=user, lesson=lesson, kind=CompletionRecord.Kind.OPENED, item=marker)
    self_check = lesson.current_version.self_checks.first()
    lessons.report_understood(user=user, self_check=self_check, confidence=2)
    attempt = grounding.start_attempt(user=user, exercise=Exercise.objects.get(slug="bookshop"),
                                      answer_text=f"{marker} 서점은 월요일에 쉽니다.", variant_key="",
                                      idempotency_key=f"{marker}-attempt")
    assert attempt.claims.exists()
    lab = Lab.objects.get(slug="replay-retry")
    LabRun.objects.create(lab=lab, user=user, idempotency_key=f"{marker}-run", code=f"print('{marker}')",
                          code_digest="x", lab_version=lab.version, status=LabRun.Status.OK, stdout=marker)
    issue_api_token(user=user, name=f"{marker} token")


@pytest.fixture
def world(course: list[Lesson], make_user: Callable[..., User], instructor: User) -> World:
    alice = make_user("alice")
    alice.email, alice.first_name = "Alice@Example.com", "앨리스"
    alice.save()
    bob = make_user("bob_private_name")
    bob.email = "bob.private@example.com"
    bob.save()
    lesson = Lesson.objects.with_current().get(slug="answer-from-sources")
    activity(alice, "ALICE-MARK", lesson)
    activity(bob, "BOB-SECRET", lesson)
    task = EvidenceTask.objects.get(slug="afs-practice")
    subs = {}
    for user, text in ((alice, "=1+1 ALICE-EVIDENCE"), (bob, "BOB-SECRET evidence")):
        evidence.save_draft(author=user, task=task, text=text, run_ids=[], lines=[])
        subs[user.pk] = evidence.submit(author=user, task=task, submit_key=f"{user.pk}-submit")
    peer.allocate_peer_work(reviewer=alice, task=task)
    alice_review = evidence.record_review(reviewer=alice, submission=subs[bob.pk], kind="peer",
                                          judgements=levels(subs[bob.pk]), comment="ALICE-WROTE-FOR-BOB")
    peer.allocate_peer_work(reviewer=bob, task=task)
    bob_review = evidence.record_review(reviewer=bob, submission=subs[alice.pk], kind="peer",
                                        judgements=levels(subs[alice.pk]), comment="BOB-REVIEWED-ALICE")
    evidence.release_reviews(instructor=instructor, submission=subs[alice.pk])
    evidence.record_review(reviewer=instructor, submission=subs[alice.pk], kind="instructor",
                           judgements=levels(subs[alice.pk]), comment="UNRELEASED-INSTRUCTOR-NOTE")
    return World(alice, bob, instructor, subs[alice.pk], subs[bob.pk], alice_review, bob_review)


def unzip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode("utf-8-sig") for name in archive.namelist()}


def test_every_user_link_in_every_model_is_exported_or_declared_not_personal() -> None:
    """A model that points at a person and is neither exported nor declared not personal fails here."""
    user_model = get_user_model()
    links = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if field.concrete and field.is_relation and field.related_model is user_model:
                links.add(f"{model._meta.label}.{field.name}")
    declared = registry.declared_links()
    assert sorted(links - set(declared)) == [], "declare these in the app's personal_data.py"
    assert sorted(set(declared) - links) == [], "these declared links no longer exist"


def test_the_download_holds_every_kind_of_the_learners_records(world: World) -> None:
    """JSON and a CSV per kind: completion, self-reports, attempts and marks, runs, submissions, reviews, audit."""
    files = unzip(export_zip(world.alice))
    data = json.loads(files["data.json"])
    assert data["account"]["username"] == "alice" and data["account"]["email"] == "Alice@Example.com"
    records = data["records"]
    for name in ("completion", "self_reports", "grounding_attempts", "grounding_marks", "lab_runs", "submissions",
                 "reviews_written", "reviews_received", "api_tokens", "audit", "cohorts", "peer_allocations"):
        assert records[name]["rows"], f"{name} is empty"
        assert f"{name}.csv" in files
    text = files["data.json"]
    for marker in ("ALICE-MARK", "ALICE-EVIDENCE", "ALICE-WROTE-FOR-BOB", "BOB-REVIEWED-ALICE"):
        assert marker in text
    assert {row["action"] for row in records["audit"]["rows"]} >= {"api_token.issue"}


def test_the_download_never_holds_another_persons_data(world: World) -> None:
    """Nothing of Bob's (his records, his name, his address) and no review not yet released to Alice."""
    blob = "\n".join(unzip(export_zip(world.alice)).values())
    for secret in ("BOB-SECRET", "bob_private_name", "bob.private@example.com", "UNRELEASED-INSTRUCTOR-NOTE"):
        assert secret not in blob
    received = json.loads(unzip(export_zip(world.alice))["data.json"])["records"]["reviews_received"]["rows"]
    assert [row["reviewer"] for row in received] == ["익명 동료"]


def test_csv_cells_are_spreadsheet_safe(world: World) -> None:
    """A cell that a spreadsheet would run as a formula starts with an apostrophe."""
    files = unzip(export_zip(world.alice))
    rows = list(csv.DictReader(io.StringIO(files["submissions.csv"])))
    assert rows[0]["text"] == "'=1+1 ALICE-EVIDENCE"
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values() if cell)


def test_the_download_page_is_private_and_only_ever_the_signed_in_persons(world: World) -> None:
    """Cache-Control private, no-store; a query naming someone else changes nothing; visitors go to sign in."""
    response = signed_in(world.alice).get(reverse("tutor:export-data"), {"user": world.bob.pk,
                                                                         "username": "bob_private_name"})
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    cache = response["Cache-Control"]
    assert "private" in cache and "no-store" in cache
    assert "BOB-SECRET" not in "\n".join(unzip(response.content).values())
    visitor = Client().get(reverse("tutor:export-data"))
    assert visitor.status_code == 302 and reverse("tutor:sign-in") in visitor["Location"]
    assert Client().get(reverse("tutor:account")).status_code == 302
    assert Client().post(reverse("tutor:delete-account"), {"password": PASSWORD}).status_code == 302
    assert signed_in(world.alice).post(reverse("tutor:export-data")).status_code == 405


def test_the_account_page_links_password_change_download_and_deletion(world: World) -> None:
    """내 계정 shows the person's own account and the ways to change the password, download and delete."""
    response = signed_in(world.alice).get(reverse("tutor:account"))
    page = response.content.decode()
    for url in ("tutor:password-change", "tutor:export-data", "tutor:delete-account"):
        assert reverse(url) in page
    assert "Alice@Example.com" in page and "bob" not in page
    assert "no-store" in response["Cache-Control"]


def test_deleting_with_a_wrong_password_deletes_nothing(world: World) -> None:
    """The owner must type their password; a wrong one is refused in Korean and nothing changes."""
    response = signed_in(world.alice).post(reverse("tutor:delete-account"), {"password": "wrong"})
    assert response.status_code == 200 and "비밀번호가 맞지 않습니다" in response.content.decode()
    world.alice.refresh_from_db()
    assert world.alice.is_active and world.alice.username == "alice"
    assert Submission.objects.filter(author=world.alice).exists()


def test_deleting_the_account_removes_own_records_and_keeps_reviews_written_for_others(world: World) -> None:
    """Own records go; Alice's review of Bob's work stays, shown as 탈퇴한 학습자; the account is anonymised."""
    bob_counts = {m: m.objects.filter(user=world.bob).count() for m in (CompletionRecord, SelfReport, Attempt, LabRun)}
    Client().post(reverse("tutor:sign-in"), {"username": "alice", "password": "typo"})
    Client().post(reverse("tutor:password-reset"), {"email": "alice@example.com"})
    assert SignInThrottle.objects.filter(key__contains="alice").count() >= 2
    client = signed_in(world.alice)
    response = client.post(reverse("tutor:delete-account"), {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("tutor:account-deleted")
    alice = User.objects.get(pk=world.alice.pk)
    assert alice.username.startswith("deleted-") and not alice.is_active and not alice.has_usable_password()
    assert alice.email == "" and alice.first_name == ""
    for model in (CompletionRecord, SelfReport, Attempt, LabRun):
        assert not model.objects.filter(user=alice).exists(), model
    assert not ClaimMark.objects.filter(attempt__user=alice).exists()
    assert not Submission.objects.filter(author=alice).exists()
    assert not Review.objects.filter(pk=world.bob_review_of_alice.pk).exists(), "reviews of her work went with it"
    assert not ApiToken.objects.filter(user=alice).exists()
    assert not SignInThrottle.objects.filter(key__contains="alice").exists(), "no key names her any more"
    assert not OutboundMail.objects.filter(to__iexact="alice@example.com").exists()
    kept = Review.objects.get(pk=world.alice_review_of_bob.pk)
    assert kept.comment == "ALICE-WROTE-FOR-BOB" and kept.reviewer_id == alice.pk
    assert name_of_reviewer(world.instructor, kept) == "탈퇴한 학습자"
    page = signed_in(world.instructor).get(reverse("evidence:submission", args=[world.bob_submission.pk]))
    assert "탈퇴한 학습자" in page.content.decode() and "alice" not in page.content.decode()
    assert {m: m.objects.filter(user=world.bob).count() for m in bob_counts} == bob_counts
    entry = AuditEntry.objects.get(action="account.delete")
    assert entry.actor_id == alice.pk and entry.reason == "본인 요청"
    assert entry.detail["removed"]["submissions"] == 1 and entry.detail["removed"]["lab_runs"] == 1
    assert "reviews_written" in entry.detail["kept"]
    assert "_auth_user_id" not in client.session
    assert Client().post(reverse("tutor:sign-in"), {"username": "alice", "password": PASSWORD}).status_code == 200
    assert not Cohort.objects.attended_by(alice).exists()


def test_nobody_deletes_another_persons_account(world: World) -> None:
    """The service refuses anyone but the owner (or retention) with the same 404 as for a missing account."""
    from tutor.errors import NotFound

    with pytest.raises(NotFound):
        services.delete_account(user=world.bob, actor=world.alice, reason="남의 계정")
    assert User.objects.get(pk=world.bob.pk).is_active


def test_retention_is_off_by_default(world: World) -> None:
    """INACTIVE_ACCOUNT_DELETE_DAYS is 0 unless set: no account is ever deleted for inactivity."""
    User.objects.filter(pk=world.alice.pk).update(last_login=timezone.now() - timedelta(days=3000))
    call_command("delete_inactive_accounts")
    assert User.objects.get(pk=world.alice.pk).username == "alice"


@override_settings(INACTIVE_ACCOUNT_DELETE_DAYS=365)
def test_retention_deletes_accounts_inactive_that_long(world: World) -> None:
    """Only accounts quiet for the whole period go, the same way as the owner's deletion, and audited so."""
    long_ago = timezone.now() - timedelta(days=400)
    User.objects.filter(pk=world.alice.pk).update(last_login=long_ago)
    User.objects.filter(pk=world.bob.pk).update(last_login=timezone.now() - timedelta(days=10))
    User.objects.filter(pk=world.instructor.pk).update(last_login=long_ago, is_staff=True)
    call_command("delete_inactive_accounts")
    assert User.objects.get(pk=world.alice.pk).username.startswith("deleted-")
    assert User.objects.get(pk=world.bob.pk).username == "bob_private_name"
    assert User.objects.get(pk=world.instructor.pk).is_active
    entry = AuditEntry.objects.get(action="account.delete")
    assert entry.actor is None and "365일" in entry.reason
