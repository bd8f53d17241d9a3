"""A way through the course: the personal home with 이어서 하기 and three tracks side by side, every
남길 증거 linked to its task, 내 학습 기록 linking each record, and what a submission waits for."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.evidence import peer, services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.labs import conf
from exercises.labs.models import Lab, LabRun
from lessons.models import CompletionRecord, Lesson, PartKey
from lessons.services import record_completion
from tests.conftest import signed_in


def submitted(author: User, task: EvidenceTask) -> Submission:
    services.save_draft(author=author, task=task, text=f"{author.username}의 증거", run_ids=[], lines=[])
    return services.submit(author=author, task=task, submit_key=f"k-{author.pk}")


def levels(submission: Submission) -> dict[str, str]:
    return {c["key"]: c["levels"][0]["key"] for c in submission.rubric_version.criteria}


def test_signed_in_home_resumes_at_the_first_part_not_yet_reached(learner_client: Client, learner: User,
                                                                  course: list[Lesson]) -> None:
    """이어서 하기 starts at the first lesson, then follows the lesson last touched to its first unread part."""
    page = learner_client.get("/").content.decode()
    first = course[0]
    assert "이어서 하기" in page and f'href="/lessons/{first.slug}/"' in page
    second = course[1]
    record_completion(user=learner, lesson=second, kind=CompletionRecord.Kind.OPENED)
    for key in (PartKey.ANALOGY, PartKey.MECHANISM):
        record_completion(user=learner, lesson=second, kind=CompletionRecord.Kind.PART_REACHED, item=key.value)
    page = learner_client.get("/").content.decode()
    assert f'href="/lessons/{second.slug}/#s3-follow-along"' in page


def test_home_shows_each_lessons_three_tracks_side_by_side(learner_client: Client, learner: User,
                                                           course: list[Lesson]) -> None:
    """Each lesson row has its own 진도, 자기 점검 and 검토 cell; nothing adds them into one figure."""
    lesson = course[0]
    record_completion(user=learner, lesson=lesson, kind=CompletionRecord.Kind.OPENED)
    page = learner_client.get("/").content.decode()
    row = page[page.index(f'id="home-{lesson.slug}"'):]
    row = row[:row.index("</tr>")]
    assert 'data-track="progress" data-label="진도">읽는 중 0/12' in row
    assert 'data-track="self-report" data-label="자기 점검">"이해했어요" 0/' in row
    assert 'data-track="review"' in row
    for word in ("숙달", "인증됨", "수료", "%"):
        assert word not in row


def test_visitor_home_and_cards_speak_plainly(client: Client, course: list[Lesson]) -> None:
    """A visitor sees no resume, no "판 1" on cards and no defensive notice about certifying."""
    page = client.get("/").content.decode()
    assert "이어서 하기" not in page
    assert "판 1" not in page and "읽기 약" in page
    assert page.count("인증") <= 1, "one notice about mastery at most, not four"
    catalogue = client.get(reverse("lessons:catalogue")).content.decode()
    assert "판 1" not in catalogue


def test_every_evidence_part_links_its_task(learner_client: Client, course: list[Lesson]) -> None:
    """The practice, transfer and explain parts each link the evidence task they ask for."""
    task = EvidenceTask.objects.get(slug="afs-practice")
    page = learner_client.get(reverse("lessons:detail", args=[task.lesson.slug])).content.decode()
    practice = page[page.index(f'data-part="{PartKey.PRACTICE.value}"'):page.index(f'data-part="{PartKey.TRANSFER.value}"')]
    assert f'href="{reverse("evidence:task", args=[task.slug])}"' in practice
    for other in EvidenceTask.objects.filter(lesson=task.lesson).exclude(kind=task.kind):
        assert reverse("evidence:task", args=[other.slug]) not in practice


def test_my_records_link_runs_submissions_and_released_reviews_only(learner: User, other_learner: User,
                                                                    instructor: User, course: list[Lesson]) -> None:
    """내 학습 기록 links each run and submission, says what a submission waits for, and links a review only
    once it is released."""
    lab = Lab.objects.get(slug="replay-retry")
    run = LabRun.objects.create(lab=lab, user=learner, idempotency_key="r", step="run", status="ok", code="pass",
                                code_digest="x", lab_version=lab.version, limits=conf.limits().as_json(), exit_code=0)
    task = EvidenceTask.objects.get(slug="afs-practice")
    mine = submitted(learner, task)
    client = signed_in(learner)
    page = client.get(reverse("lessons:progress")).content.decode()
    assert f'href="{reverse("labs:run", args=[run.pk])}"' in page
    assert f'href="{reverse("evidence:submission", args=[mine.pk])}"' in page
    assert "동료 검토 0/1 기다리는 중" in page
    submitted(other_learner, task)
    allocation = peer.assign_peer(instructor=instructor, submission=mine, reviewer=other_learner)
    review = services.record_review(reviewer=other_learner, submission=allocation.submission, kind="peer",
                                    judgements=levels(mine), comment="")
    page = client.get(reverse("lessons:progress")).content.decode()
    assert f"#review-{review.pk}" not in page, "an unreleased review is not the author's to open"
    assert "강사 검토 기다리는 중" in page
    services.release_review(instructor=instructor, review=review)
    page = client.get(reverse("lessons:progress")).content.decode()
    assert f'href="{reverse("evidence:submission", args=[mine.pk])}#review-{review.pk}"' in page
    assert signed_in(other_learner).get(reverse("lessons:progress")).content.decode().count(f"#review-{review.pk}") == 0
