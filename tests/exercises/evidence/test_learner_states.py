"""Errors where they happen on a task page: no peer work is a normal state, an empty submission is
refused beside the button, and the newest submission says what it waits for."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.evidence import services
from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson


def test_no_peer_work_is_a_normal_state_not_a_404(learner_client: Client, learner: User,
                                                  course: list[Lesson]) -> None:
    """Asking for peer work when nobody else has submitted returns to the task with 지금은 검토할 제출이 없습니다."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    services.save_draft(author=learner, task=task, text="내 글", run_ids=[], lines=[])
    services.submit(author=learner, task=task, submit_key="k")
    response = learner_client.post(reverse("evidence:peer", args=[task.slug]))
    assert response.status_code == 302 and response["Location"].endswith("?peer=none#peer-title")
    page = learner_client.get(response["Location"])
    assert page.status_code == 200
    assert "지금은 검토할 제출이 없습니다" in page.content.decode()


def test_an_empty_submission_is_refused_beside_the_button(learner_client: Client, course: list[Lesson]) -> None:
    """Submitting with no text answers in the task's own problem area (htmx), not on an error page."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    page = learner_client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert 'data-local-problem="draft-problem"' in page and 'id="draft-problem"' in page
    response = learner_client.post(reverse("evidence:submit", args=[task.slug]), {"submit_key": "e"},
                                   HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    body = response.content.decode()
    assert "제출할 글이 없습니다" in body and "<html" not in body


def test_a_submission_by_htmx_moves_to_its_record_and_says_what_it_waits_for(
        learner_client: Client, learner: User, course: list[Lesson]) -> None:
    """After submitting, the record opens; the task page then says 동료 검토 0/1 기다리는 중."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    services.save_draft(author=learner, task=task, text="2번 줄을 인용합니다", run_ids=[], lines=[])
    response = learner_client.post(reverse("evidence:submit", args=[task.slug]), {"submit_key": "s"},
                                   HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"].startswith("/evidence/submissions/")
    page = learner_client.get(reverse("evidence:task", args=[task.slug])).content.decode()
    assert "동료 검토 0/1 기다리는 중" in page


def test_a_flag_names_its_criterion_by_title_never_by_key(learner: User, other_learner: User, instructor: User,
                                                          course: list[Lesson]) -> None:
    """The flag line on a submission reads "(기준 제목)", not the internal key such as "(rule-placement)"."""
    from exercises.evidence import peer
    from tests.conftest import signed_in

    task = EvidenceTask.objects.get(slug="afs-practice")
    services.save_draft(author=learner, task=task, text="내 글", run_ids=[], lines=[])
    mine = services.submit(author=learner, task=task, submit_key="m")
    services.save_draft(author=other_learner, task=task, text="동료 글", run_ids=[], lines=[])
    services.submit(author=other_learner, task=task, submit_key="o")
    peer.assign_peer(instructor=instructor, submission=mine, reviewer=other_learner)
    criteria = mine.rubric_version.criteria
    review = services.record_review(reviewer=other_learner, submission=mine, kind="peer",
                                    judgements={c["key"]: c["levels"][0]["key"] for c in criteria}, comment="")
    services.release_reviews(instructor=instructor, submission=mine)
    review.refresh_from_db()
    services.flag_criterion(author=learner, review=review, criterion=criteria[0]["key"], reason="다시 봐 주세요")
    page = signed_in(learner).get(reverse("evidence:submission", args=[mine.pk])).content.decode()
    assert f"이의 제기 ({criteria[0]['title']}): 다시 봐 주세요" in page
    assert f"({criteria[0]['key']})" not in page
