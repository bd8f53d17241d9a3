"""Instructors run their cohorts in the site: create one, enrol by roster or join code, invite by mail, manage
members and roles. Every contract answers 404 to a learner, an assistant (where they may not), another
cohort's instructor and a visitor."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from exercises.evidence import peer
from exercises.evidence.models import EvidenceTask, PeerAllocation
from lessons.models import Lesson
from tests.conftest import PASSWORD, join, signed_in
from tests.exercises.evidence.helpers import submitted
from tests.smtp import SmtpServer
from tutor.cohorts import services
from tutor.mail.models import OutboundMail
from tutor.models import AuditEntry, Cohort, Invitation, Membership
from tutor.roles import CohortRole, Role


@pytest.fixture
def assistant(make_user: Callable[..., User]) -> User:
    return make_user("helper", None, cohort_role=CohortRole.ASSISTANT)


@pytest.fixture
def far_instructor(make_user: Callable[..., User]) -> User:
    """An instructor of another cohort, who teaches nobody in the test cohort."""
    person = make_user("far", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="먼 기수"), person, CohortRole.INSTRUCTOR)
    return person


def csv_body(*rows: str, header: str = "name,email,student_id") -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode("utf-8")


def roster(client: Client, cohort: Cohort, body: bytes, *, dry_run: bool = False, deliver: bool = True) -> Any:
    """Post a roster; then do what the worker's task does with the invitations (unless ``deliver`` is off)."""
    url = f"/api/cohorts/{cohort.pk}/roster" + ("?dry_run=1" if dry_run else "")
    response = client.post(url, body, content_type="text/csv")
    if deliver:
        deliver_invitations()
    return response


def deliver_invitations() -> int:
    """Run the invitation task's service on every pending invitation (the worker's part)."""
    pending = list(Invitation.objects.filter(digest__startswith=services.PENDING).values_list("pk", flat=True))
    return services.send_invitations(invitation_ids=pending, base_url="http://testserver")


def link_in(mail: OutboundMail) -> str:
    match = re.search(r"https?://\S+/account/invitation/[\w-]+/", mail.body)
    assert match, mail.body
    return match.group(0)


def path_of(link: str) -> str:
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


# Creating cohorts


def test_an_instructor_creates_a_cohort_and_becomes_its_instructor(instructor: User) -> None:
    """POST /api/cohorts answers 201 with id, name and a join code; the caller is its active instructor."""
    response = signed_in(instructor).post("/api/cohorts", {"name": "2027 봄 1기"}, content_type="application/json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "2027 봄 1기" and len(body["join_code"]) == 8
    membership = Membership.objects.get(cohort_id=body["id"], user=instructor)
    assert membership.role == CohortRole.INSTRUCTOR and membership.status == Membership.Status.ACTIVE
    listed = signed_in(instructor).get("/api/cohorts").json()
    assert {"id": body["id"], "name": "2027 봄 1기", "role": "instructor"} in listed
    assert AuditEntry.objects.filter(action="cohort.create", target_id=str(body["id"])).exists()


def test_only_instructors_and_staff_create_cohorts(learner: User, assistant: User) -> None:
    """A learner and an assistant get 404 at POST /api/cohorts; a visitor is asked to sign in; a superuser may."""
    for person in (learner, assistant):
        response = signed_in(person).post("/api/cohorts", {"name": "몰래"}, content_type="application/json")
        assert response.status_code == 404
    assert Client().post("/api/cohorts", {"name": "몰래"}, content_type="application/json").status_code == 401
    assert not Cohort.objects.filter(name="몰래").exists()
    root = User.objects.create_superuser("root", password=PASSWORD)
    assert signed_in(root).post("/api/cohorts", {"name": "관리자"}, content_type="application/json").status_code == 201


def test_the_cohort_list_shows_teaching_roles_only(learner: User, assistant: User, instructor: User,
                                                   cohort: Cohort) -> None:
    """GET /api/cohorts lists the cohorts taught or assisted with the role; a learner's cohorts are not listed."""
    assert signed_in(assistant).get("/api/cohorts").json() == [{"id": cohort.pk, "name": cohort.name,
                                                                 "role": "assistant"}]
    assert signed_in(learner).get("/api/cohorts").json() == []


def test_a_duplicate_or_empty_name_is_refused_in_korean(instructor: User, cohort: Cohort) -> None:
    """The same name again is a 409, an empty one a 422, both problem+json in Korean."""
    client = signed_in(instructor)
    again = client.post("/api/cohorts", {"name": cohort.name}, content_type="application/json")
    assert again.status_code == 409 and "이미" in again.json()["detail"]
    empty = client.post("/api/cohorts", {"name": "   "}, content_type="application/json")
    assert empty.status_code == 422


# Roster


def test_a_roster_preview_lists_each_rows_problem_and_writes_nothing(instructor: User, learner: User,
                                                                     cohort: Cohort) -> None:
    """dry_run: bad address, duplicate, formula cell and already-a-member are each reported; nothing is written."""
    body = csv_body("김하나,hana@example.com,2027001", "이둘,not-an-address,", "박셋,HANA@example.com,",
                    "=cmd,formula@example.com,", f"학습자,{learner.email},")
    before = (User.objects.count(), Membership.objects.count(), OutboundMail.objects.count())
    response = roster(signed_in(instructor), cohort, body, dry_run=True)
    assert response.status_code == 200
    result = response.json()
    assert result["invited"] == 1 and result["already_member"] == 1
    problems = {error["row"]: error["message"] for error in result["errors"]}
    assert set(problems) == {3, 4, 5}
    assert "이메일" in problems[3] and "2행" in problems[4] and "수식" in problems[5]
    assert (User.objects.count(), Membership.objects.count(), OutboundMail.objects.count()) == before


def test_a_roster_with_a_bad_row_writes_nothing(instructor: User, cohort: Cohort) -> None:
    """Sending a roster that has a bad row is refused (422, rows listed) and no account, member or mail appears."""
    body = csv_body("김하나,hana@example.com,", "이둘,bad@,")
    before = (User.objects.count(), Membership.objects.count(), OutboundMail.objects.count())
    response = roster(signed_in(instructor), cohort, body)
    assert response.status_code == 422
    assert response.json()["errors"] == [{"row": 3, "message": "이메일 주소가 올바르지 않습니다: bad@"}]
    assert (User.objects.count(), Membership.objects.count(), OutboundMail.objects.count()) == before


def test_a_roster_invites_with_a_mail_each_and_a_bom_is_fine(instructor: User, learner: User,
                                                              cohort: Cohort) -> None:
    """UTF-8 with BOM, columns in any order: new people get an account without password, an invited membership
    and one mail with an absolute one-time link; a member already there is counted and skipped."""
    body = "\ufeffemail,name\nhana@example.com,김하나\ndul@example.com,이둘\n".encode() + f"{learner.email},학습자\n".encode()
    response = roster(signed_in(instructor), cohort, body)
    assert response.status_code == 200
    assert response.json() == {"invited": 2, "already_member": 1, "errors": []}
    hana = User.objects.get(email="hana@example.com")
    assert hana.first_name == "김하나" and not hana.has_usable_password()
    assert Membership.objects.get(user=hana, cohort=cohort).status == Membership.Status.INVITED
    mail = OutboundMail.objects.get(to="hana@example.com")
    link = link_in(mail)
    assert link.startswith("http://testserver/account/invitation/")
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert not Invitation.objects.filter(digest=token).exists()  # only the digest is stored
    assert Invitation.objects.filter(digest=services.token_digest(token)).exists()


def test_roster_refusals_for_everyone_but_the_cohorts_instructor(learner: User, assistant: User,
                                                                far_instructor: User, cohort: Cohort) -> None:
    """A learner, an assistant and another cohort's instructor get 404 at the roster (even dry_run); a visitor 401."""
    body = csv_body("김하나,hana@example.com,")
    for person in (learner, assistant, far_instructor):
        assert roster(signed_in(person), cohort, body, dry_run=True).status_code == 404
        assert roster(signed_in(person), cohort, body).status_code == 404
        assert signed_in(person).get(reverse("cohorts:roster", args=[cohort.pk])).status_code == 404
    assert roster(Client(), cohort, body).status_code == 401
    assert not User.objects.filter(email="hana@example.com").exists()


def test_an_unreadable_roster_is_refused_in_korean(instructor: User, cohort: Cohort) -> None:
    """Not UTF-8, or no name/email header: 422 with a Korean reason, never a 500."""
    client = signed_in(instructor)
    latin = roster(client, cohort, "name,email\nJosé,jose@example.com\n".encode("latin-1"))
    assert latin.status_code == 422 and "UTF-8" in latin.json()["detail"]
    headless = roster(client, cohort, b"a,b\n1,2\n")
    assert headless.status_code == 422 and "name" in headless.json()["detail"]


def test_a_roster_of_500_rows_goes_in_one_request(instructor: User, cohort: Cohort,
                                                  django_capture_on_commit_callbacks: Any) -> None:
    """500 rows: one request of a fixed number of queries (bulk writes), every person invited; the mail is one
    task for the worker, handed over after commit."""
    body = csv_body(*[f"학습자{n},learner{n}@school.example,{2027000 + n}" for n in range(500)])
    client = signed_in(instructor)
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks() as callbacks:
        response = roster(client, cohort, body, deliver=False)
    assert response.status_code == 200 and response.json()["invited"] == 500
    assert Membership.objects.filter(cohort=cohort, status=Membership.Status.INVITED).count() == 500
    assert Invitation.objects.filter(digest__startswith=services.PENDING).count() == 500
    assert len(queries) < 60, len(queries)
    assert len(callbacks) == 1 and not OutboundMail.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_invitation_task_mails_each_person_once_over_smtp(instructor: User, cohort: Cohort,
                                                              smtp_server: SmtpServer,
                                                              drain_queue: Callable[[], None]) -> None:
    """The worker runs the roster's task: one mail per person over SMTP, and running the task again sends none."""
    response = roster(signed_in(instructor), cohort, csv_body("김하나,hana@example.com,", "이둘,dul@example.com,"),
                      deliver=False)
    assert response.status_code == 200
    drain_queue()
    messages = smtp_server.wait_for(2)
    assert {str(m["To"]) for m in messages} == {"hana@example.com", "dul@example.com"}
    ids = list(Invitation.objects.values_list("pk", flat=True))
    assert services.send_invitations(invitation_ids=ids, base_url="http://x") == 0
    drain_queue()
    assert len(smtp_server.messages) == 2 and OutboundMail.objects.count() == 2


# Invitations


def invite(instructor: User, cohort: Cohort, email: str = "hana@example.com") -> str:
    roster(signed_in(instructor), cohort, csv_body(f"김하나,{email},"))
    return path_of(link_in(OutboundMail.objects.filter(to=email).latest("pk")))


def test_an_invitation_sets_a_password_and_lands_signed_in_in_the_cohort(instructor: User, cohort: Cohort) -> None:
    """The link shows a form (GET writes nothing); the password set there signs the person in, active in the
    cohort; the link then dies."""
    path = invite(instructor, cohort)
    client = Client()
    page = client.get(path)
    assert page.status_code == 200 and cohort.name in page.content.decode()
    assert Membership.objects.get(user__email="hana@example.com").status == Membership.Status.INVITED
    response = client.post(path, {"new_password1": "a-new-long-passphrase", "new_password2": "a-new-long-passphrase"})
    assert response.status_code == 302
    hana = User.objects.get(email="hana@example.com")
    assert int(client.session["_auth_user_id"]) == hana.pk
    assert Membership.objects.get(user=hana).status == Membership.Status.ACTIVE
    assert Client().get(path).status_code == 404
    assert Client().post("/account/sign-in/", {"username": "hana@example.com",
                                              "password": "a-new-long-passphrase"}).status_code == 302


def test_sending_again_kills_the_old_link_and_links_expire(instructor: User, cohort: Cohort) -> None:
    """After a resend only the new link works; a link past its expiry answers 404."""
    old = invite(instructor, cohort)
    hana = User.objects.get(email="hana@example.com")
    response = signed_in(instructor).post(reverse("cohorts:resend", args=[cohort.pk, hana.username]))
    assert response.status_code == 302
    new = path_of(link_in(OutboundMail.objects.filter(to="hana@example.com").latest("pk")))
    assert new != old and Client().get(old).status_code == 404 and Client().get(new).status_code == 200
    Invitation.objects.update(expires_at=Invitation.objects.get(revoked_at__isnull=True).created_at)
    assert Client().get(new).status_code == 404


def test_a_weak_password_is_refused_and_the_link_still_works(instructor: User, cohort: Cohort) -> None:
    """The site's password rules apply; a refused password keeps the invitation alive."""
    path = invite(instructor, cohort)
    response = Client().post(path, {"new_password1": "1234", "new_password2": "1234"})
    assert response.status_code == 200 and Client().get(path).status_code == 200


def test_resend_is_refused_to_others(learner: User, assistant: User, far_instructor: User, instructor: User,
                                     cohort: Cohort) -> None:
    """Only the cohort's instructor may send an invitation again."""
    invite(instructor, cohort)
    hana = User.objects.get(email="hana@example.com")
    for person in (learner, assistant, far_instructor):
        assert signed_in(person).post(reverse("cohorts:resend", args=[cohort.pk, hana.username])).status_code == 404
    assert OutboundMail.objects.filter(to="hana@example.com").count() == 1


# Members and roles


def test_members_are_listed_to_the_cohorts_instructors_and_assistants(instructor: User, assistant: User,
                                                                      learner: User, cohort: Cohort) -> None:
    """GET members: username, name, email, role, status and last activity."""
    for person in (instructor, assistant):
        rows = signed_in(person).get(f"/api/cohorts/{cohort.pk}/members").json()
        by_name = {row["username"]: row for row in rows}
        assert by_name["learner"]["role"] == "learner" and by_name["learner"]["status"] == "active"
        assert by_name["helper"]["role"] == "assistant" and set(by_name["learner"]) == {
            "username", "name", "email", "role", "status", "last_active_at"}
        assert signed_in(person).get(reverse("cohorts:detail", args=[cohort.pk])).status_code == 200


def test_members_are_hidden_from_learners_other_instructors_and_visitors(learner: User, far_instructor: User,
                                                                         cohort: Cohort) -> None:
    """404 for a learner and another cohort's instructor, at the API and the page; 401 for a visitor."""
    for person in (learner, far_instructor):
        assert signed_in(person).get(f"/api/cohorts/{cohort.pk}/members").status_code == 404
        assert signed_in(person).get(reverse("cohorts:detail", args=[cohort.pk])).status_code == 404
    assert Client().get(f"/api/cohorts/{cohort.pk}/members").status_code == 401


def test_an_instructor_changes_roles_and_removes_members(instructor: User, learner: User, other_learner: User,
                                                         cohort: Cohort) -> None:
    """PUT makes a learner an assistant; DELETE removes a member, whose row (and records) stay as removed."""
    client = signed_in(instructor)
    response = client.put(f"/api/cohorts/{cohort.pk}/members/{learner.username}", {"role": "assistant"},
                          content_type="application/json")
    assert response.status_code == 200 and response.json()["role"] == "assistant"
    assert client.delete(f"/api/cohorts/{cohort.pk}/members/{other_learner.username}").status_code == 204
    removed = Membership.objects.get(user=other_learner, cohort=cohort)
    assert removed.status == Membership.Status.REMOVED and removed.removed_at is not None
    bad = client.put(f"/api/cohorts/{cohort.pk}/members/{learner.username}", {"role": "king"},
                     content_type="application/json")
    assert bad.status_code == 422


def test_the_last_instructor_cannot_step_down(instructor: User, cohort: Cohort) -> None:
    """A cohort keeps at least one instructor: demoting or removing the only one is a 409."""
    client = signed_in(instructor)
    url = f"/api/cohorts/{cohort.pk}/members/{instructor.username}"
    assert client.put(url, {"role": "learner"}, content_type="application/json").status_code == 409
    assert client.delete(url).status_code == 409


def test_roles_and_removal_are_refused_to_everyone_else(learner: User, other_learner: User, assistant: User,
                                                       far_instructor: User, cohort: Cohort) -> None:
    """A learner, an assistant and another cohort's instructor get 404 at PUT and DELETE; nothing changes."""
    url = f"/api/cohorts/{cohort.pk}/members/{other_learner.username}"
    for person in (learner, assistant, far_instructor):
        client = signed_in(person)
        assert client.put(url, {"role": "instructor"}, content_type="application/json").status_code == 404
        assert client.delete(url).status_code == 404
        assert client.post(reverse("cohorts:role", args=[cohort.pk, other_learner.username]),
                           {"role": "instructor"}).status_code == 404
        assert client.post(reverse("cohorts:remove", args=[cohort.pk, other_learner.username])).status_code == 404
        assert client.post(reverse("cohorts:add-member", args=[cohort.pk]),
                           {"identifier": person.username, "role": "instructor"}).status_code == 404
    assert Client().delete(url).status_code == 401
    assert Membership.objects.get(user=other_learner).role == CohortRole.LEARNER
    assert Membership.objects.get(user=other_learner).status == Membership.Status.ACTIVE


def test_an_instructor_adds_a_co_instructor_and_an_assistant_from_existing_accounts(
        instructor: User, make_user: Callable[..., User], cohort: Cohort) -> None:
    """The members page adds existing accounts by username or e-mail address with the chosen role."""
    co = make_user("co", Role.INSTRUCTOR, in_cohort=False)
    ta = make_user("ta", None, in_cohort=False)
    client = signed_in(instructor)
    client.post(reverse("cohorts:add-member", args=[cohort.pk]), {"identifier": "co", "role": "instructor"})
    client.post(reverse("cohorts:add-member", args=[cohort.pk]), {"identifier": ta.email, "role": "assistant"})
    assert Membership.objects.get(user=co, cohort=cohort).role == CohortRole.INSTRUCTOR
    assert Membership.objects.get(user=ta, cohort=cohort).role == CohortRole.ASSISTANT


def test_removing_a_learner_keeps_records_and_releases_their_leases(
        instructor: User, learner: User, other_learner: User, cohort: Cohort, course: list[Lesson]) -> None:
    """The removed learner's live peer lease ends (returned), their submission stays, they leave the queue pool."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    submitted(learner, task)
    theirs = submitted(other_learner, task, "다른 글")
    lease = peer.allocate_peer_work(reviewer=other_learner, task=task)
    assert lease.is_live(lease.created_at)
    response = signed_in(instructor).post(reverse("cohorts:remove", args=[cohort.pk, other_learner.username]))
    assert response.status_code == 302
    lease.refresh_from_db()
    assert lease.end == PeerAllocation.End.RETURNED and lease.ended_at is not None
    theirs.refresh_from_db()
    assert theirs.author == other_learner


def test_an_instructor_moves_a_learner_to_another_cohort_they_teach(instructor: User, learner: User,
                                                                    cohort: Cohort) -> None:
    """Moving: removed here, active there."""
    second = Cohort.objects.create(name="둘째 기수")
    join(second, instructor, CohortRole.INSTRUCTOR)
    response = signed_in(instructor).post(reverse("cohorts:move", args=[cohort.pk, learner.username]),
                                          {"to": second.pk})
    assert response.status_code == 302
    assert Membership.objects.get(user=learner, cohort=cohort).status == Membership.Status.REMOVED
    assert Membership.objects.get(user=learner, cohort=second).status == Membership.Status.ACTIVE


def test_moving_into_a_cohort_one_does_not_teach_is_404(instructor: User, learner: User, cohort: Cohort) -> None:
    """The target cohort is checked too: another instructor's cohort answers 404 and nothing moves."""
    far = Cohort.objects.create(name="남의 기수")
    response = signed_in(instructor).post(reverse("cohorts:move", args=[cohort.pk, learner.username]), {"to": far.pk})
    assert response.status_code in (302, 404)
    assert not Membership.objects.filter(cohort=far).exists()
    assert Membership.objects.get(user=learner, cohort=cohort).status == Membership.Status.ACTIVE


# Join codes


def test_a_signed_in_person_joins_with_the_code(make_user: Callable[..., User], cohort: Cohort,
                                                instructor: User) -> None:
    """POST /api/cohorts/join with the code makes an active learner; a wrong or turned-off code is 404."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    cohort.refresh_from_db()
    newcomer = make_user("newcomer", None, in_cohort=False)
    client = signed_in(newcomer)
    assert client.post("/api/cohorts/join", {"code": "WRONG123"}, content_type="application/json").status_code == 404
    response = client.post("/api/cohorts/join", {"code": cohort.join_code.lower()}, content_type="application/json")
    assert response.status_code == 200 and response.json()["role"] == "learner"
    assert Membership.objects.get(user=newcomer, cohort=cohort).status == Membership.Status.ACTIVE
    old = cohort.join_code
    signed_in(instructor).post(reverse("cohorts:join-code", args=[cohort.pk]), {"action": "off"})
    other = make_user("late", None, in_cohort=False)
    assert signed_in(other).post("/api/cohorts/join", {"code": old}, content_type="application/json").status_code == 404
    assert Client().post("/api/cohorts/join", {"code": old}, content_type="application/json").status_code == 401


def test_only_the_cohorts_instructor_changes_the_join_code(learner: User, assistant: User, far_instructor: User,
                                                           instructor: User, cohort: Cohort) -> None:
    """Regenerating or turning off the code is 404 for a learner, an assistant and another cohort's instructor."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    code = Cohort.objects.get(pk=cohort.pk).join_code
    for person in (learner, assistant, far_instructor):
        assert signed_in(person).post(reverse("cohorts:join-code", args=[cohort.pk]),
                                      {"action": "off"}).status_code == 404
    assert Client().post(reverse("cohorts:join-code", args=[cohort.pk]), {"action": "off"}).status_code == 302
    assert signed_in(learner).post(reverse("cohorts:join-code", args=[cohort.pk]), {"action": "?"}).status_code == 404
    assert Cohort.objects.get(pk=cohort.pk).join_code == code


def test_an_odd_join_code_action_changes_nothing_and_says_why(instructor: User, cohort: Cohort) -> None:
    """The page's form knows two buttons: any other value is refused on the cohort page, the code unchanged."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    code = Cohort.objects.get(pk=cohort.pk).join_code
    response = signed_in(instructor).post(reverse("cohorts:join-code", args=[cohort.pk]), {"action": "drop"}, follow=True)
    assert response.status_code == 200
    assert "새 코드를 만들거나 코드를 끄는 것만 할 수 있습니다." in response.content.decode()
    assert Cohort.objects.get(pk=cohort.pk).join_code == code


def test_a_visitor_signs_up_with_a_code_and_a_confirmed_address(instructor: User, cohort: Cohort) -> None:
    """The sign-up page mails a link; only following it (setting a password) makes the person an active learner."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    code = Cohort.objects.get(pk=cohort.pk).join_code
    client = Client()
    assert client.get(f"/account/sign-up/?code={code}").status_code == 200
    response = client.post(f"/account/sign-up/?code={code}", {"code": code, "name": "최가입",
                                                               "email": "join@example.com"})
    assert response.status_code == 200 and "메일" in response.content.decode()
    person = User.objects.get(email="join@example.com")
    assert Membership.objects.get(user=person).status == Membership.Status.INVITED
    link = path_of(link_in(OutboundMail.objects.get(to="join@example.com")))
    client.post(link, {"new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase"})
    assert Membership.objects.get(user=person).status == Membership.Status.ACTIVE
    wrong = Client().post("/account/sign-up/", {"code": "NOPE2345", "name": "x", "email": "x@example.com"})
    assert wrong.status_code == 200 and not User.objects.filter(email="x@example.com").exists()


def test_sign_up_does_not_reveal_an_existing_account(learner: User, instructor: User, cohort: Cohort) -> None:
    """Signing up with the address of an existing member answers exactly as for a new address, and mails nothing."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    code = Cohort.objects.get(pk=cohort.pk).join_code
    known = Client().post("/account/sign-up/", {"code": code, "name": "누구", "email": learner.email})
    fresh = Client().post("/account/sign-up/", {"code": code, "name": "누구", "email": "new@example.com"})
    assert known.status_code == fresh.status_code == 200
    strip = re.compile(r"[\w.+-]+@example\.com|csrfmiddlewaretoken\" value=\"\w+|X-CSRFToken\": \"\w+")
    assert strip.sub("", known.content.decode()) == strip.sub("", fresh.content.decode())
    assert not OutboundMail.objects.filter(to=learner.email).exists()


# Pages


def test_an_instructor_creates_a_cohort_and_previews_a_roster_in_the_pages(instructor: User) -> None:
    """The pages: create, upload with a bad row (shown, nothing sent), fix, send."""
    client = signed_in(instructor)
    response = client.post(reverse("cohorts:list"), {"name": "페이지 기수"})
    cohort = Cohort.objects.get(name="페이지 기수")
    assert response.status_code == 302 and response["Location"] == reverse("cohorts:detail", args=[cohort.pk])
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = SimpleUploadedFile("r.csv", csv_body("김하나,hana@example.com,", "이둘,nope,"), "text/csv")
    preview = client.post(reverse("cohorts:roster", args=[cohort.pk]), {"file": bad, "preview": "1"})
    page = preview.content.decode()
    assert preview.status_code == 422 and "이메일 주소가 올바르지 않습니다" in page and "초대 메일 보내기" not in page
    good = SimpleUploadedFile("r.csv", csv_body("김하나,hana@example.com,"), "text/csv")
    preview = client.post(reverse("cohorts:roster", args=[cohort.pk]), {"file": good, "preview": "1"})
    assert preview.status_code == 200 and not OutboundMail.objects.exists()
    text = preview.context["confirm"].initial["text"]
    sent = client.post(reverse("cohorts:roster", args=[cohort.pk]), {"text": text, "send": "1"})
    deliver_invitations()
    assert sent.status_code == 302 and OutboundMail.objects.filter(to="hana@example.com").count() == 1


def test_cohort_pages_are_404_for_learners(learner: User, cohort: Cohort) -> None:
    """A learner has no cohort list and no members page."""
    assert signed_in(learner).get(reverse("cohorts:list")).status_code == 404
    assert signed_in(learner).post(reverse("cohorts:list"), {"name": "x"}).status_code == 404


# The first accounts


def test_add_instructor_makes_an_account_that_may_create_cohorts(db: None) -> None:
    """The command makes an account in the instructor group and mails an invitation; following it, the new
    instructor creates a cohort."""
    call_command("add_instructor", "kim@school.example", "--name", "김강사", "--site-url", "https://tutor.example")
    kim = User.objects.get(email="kim@school.example")
    assert kim.first_name == "김강사" and not kim.has_usable_password()
    mail = OutboundMail.objects.get(to="kim@school.example")
    assert "https://tutor.example/account/invitation/" in mail.body
    client = Client()
    client.post(path_of(link_in(mail)), {"new_password1": "teacher-long-passphrase",
                                         "new_password2": "teacher-long-passphrase"})
    assert client.post("/api/cohorts", {"name": "김강사 반"}, content_type="application/json").status_code == 201
    assert json.loads(client.get("/api/cohorts").content)[0]["role"] == "instructor"


def test_sign_up_is_throttled_like_sign_in(instructor: User, cohort: Cohort) -> None:
    """Many sign-ups for one address from one client are slowed down with a Korean message, and mail stops."""
    services.set_join_code(actor=instructor, cohort=cohort, enabled=True)
    code = Cohort.objects.get(pk=cohort.pk).join_code
    client = Client()
    answers = [client.post("/account/sign-up/", {"code": code, "name": "반복", "email": "again@example.com"})
               for _ in range(8)]
    assert "요청이 너무 잦습니다" in answers[-1].content.decode()
    assert OutboundMail.objects.filter(to="again@example.com").count() == 1


# Hostile input


def test_odd_tokens_usernames_and_bodies_answer_plainly(instructor: User, cohort: Cohort) -> None:
    """A made-up or huge invitation token, an odd member name and an oversized roster get 404/413/422, never 500."""
    for token in ("x", "a" * 5000, "%00", "..%2F..%2Fetc"):
        assert Client().get(f"/account/invitation/{token}/").status_code == 404
    client = signed_in(instructor)
    for name in ("nobody", "a" * 300, "%2e%2e"):
        assert client.delete(f"/api/cohorts/{cohort.pk}/members/{name}").status_code == 404
        assert client.post(reverse("cohorts:remove", args=[cohort.pk, name])).status_code == 404
    huge = roster(client, cohort, b"name,email\n" + b"x,y@example.com\n" * 400_000, dry_run=True)
    assert huge.status_code in (413, 422)
    quoted = roster(client, cohort, b'name,email\n"unclosed,a@example.com\n', dry_run=True)
    assert quoted.status_code in (200, 422)
    assert client.post(f"/api/cohorts/{cohort.pk}/roster", b"\xff\xfe", content_type="text/csv").status_code == 422
    assert client.get("/api/cohorts/99999999/members").status_code == 404
