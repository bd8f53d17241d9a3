"""What the evidence app holds about a person (tutor.accounts.registry).

Their submissions, the reviews of them and their practice reviews are theirs and go
with the account. Reviews they wrote of others' work stay, shown as "탈퇴한 학습자".
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone

from tutor.accounts.registry import RecordKind, Row, delete_rows, not_personal, register

from .models import (
    CalibrationReview,
    Extension,
    Flag,
    PeerAllocation,
    Reproduction,
    Review,
    Submission,
)
from .selectors import name_of_reviewer


def submission_rows(user: User) -> Sequence[Row]:
    rows = []
    for submission in (Submission.objects.filter(author=user).select_related("task", "rubric_version")
                       .prefetch_related("lab_runs").order_by("created_at", "pk")):
        rows.append({
            "id": submission.pk, "task": submission.task.slug, "version": submission.version,
            "status": submission.status, "text": submission.text, "cited_lines": submission.cited_lines,
            "lab_run_ids": [run.pk for run in submission.lab_runs.all()],
            "rubric_version": submission.rubric_version.number,
            "created_at": submission.created_at, "submitted_at": submission.submitted_at,
            "disagreement_resolution": submission.disagreement_resolution if submission.disagreement_released_at else "",
        })
    return rows


def received_rows(user: User) -> Sequence[Row]:
    """Reviews of their work by others, as they see them: released ones only, reviewers named as on the page."""
    rows = []
    reviews = (Review.objects.released().filter(submission__author=user).exclude(kind=Review.Kind.SELF)
               .select_related("submission__task", "submission__author", "reviewer").prefetch_related("flags")
               .order_by("created_at", "pk"))
    for review in reviews:
        rows.append({
            "submission_id": review.submission_id, "task": review.submission.task.slug,
            "version": review.submission.version, "kind": review.kind, "reviewer": name_of_reviewer(user, review),
            "judgements": review.judgements, "citations": review.citations, "comment": review.comment,
            "helpful": review.helpful, "released_at": review.released_at,
            "my_flags": [{"criterion": flag.criterion, "reason": flag.reason,
                          "resolution": flag.resolution if flag.resolution_released_at else ""}
                         for flag in review.flags.all()],
        })
    return rows


def written_rows(user: User) -> Sequence[Row]:
    """Reviews they wrote; whose work it was is not theirs to take away (a peer's name never appears)."""
    return list(Review.objects.filter(reviewer=user).order_by("created_at", "pk").values(
        "kind", "judgements", "citations", "comment", "created_at", "released_at",
        task=F("submission__task__slug"), version=F("submission__version")))


def allocation_rows(user: User) -> Sequence[Row]:
    return list(PeerAllocation.objects.filter(reviewer=user).order_by("created_at", "pk").values(
        "created_at", "expires_at", "completed_at", "ended_at", "end", "return_reason", task=F("submission__task__slug")))


def calibration_rows(user: User) -> Sequence[Row]:
    return list(CalibrationReview.objects.filter(reviewer=user).order_by("created_at", "pk").values(
        "judgements", "created_at", task=F("example__task__slug"), example_key=F("example__key")))


def erase_reviews_received(user: User) -> int:
    """Everything hanging on their own submissions: flags, peers' reproductions and leases, and the reviews."""
    own = Submission.objects.filter(author=user)
    delete_rows(Flag.objects.filter(review__submission__in=own))
    delete_rows(Reproduction.objects.filter(allocation__submission__in=own))
    delete_rows(PeerAllocation.objects.filter(submission__in=own))
    return delete_rows(Review.objects.filter(submission__in=own))


def erase_submissions(user: User) -> int:
    return delete_rows(Submission.objects.filter(author=user))


def end_live_leases(user: User) -> int:
    """Their leases on others' work that are still running end now, so the work goes to another peer."""
    now = timezone.now()
    return PeerAllocation.objects.live(now).filter(reviewer=user).update(
        ended_at=now, end=PeerAllocation.End.RETURNED, return_reason="탈퇴")


def extension_rows(user: User) -> list[Row]:
    return list(Extension.objects.filter(learner=user).order_by("changed_at", "pk").values(
        "due_at", "reason", "changed_at", task_slug=F("task__slug"), cohort_name=F("cohort__name")))


def erase_extensions(user: User) -> int:
    return delete_rows(Extension.objects.filter(learner=user))


def erase_calibration(user: User) -> int:
    return delete_rows(CalibrationReview.objects.filter(reviewer=user))


register(RecordKind(name="reviews_received", title="내 제출에 대한 검토 (공개된 것)", rows=received_rows,
                    erase=erase_reviews_received, order=8))
register(RecordKind(name="submissions", title="제출한 증거", rows=submission_rows,
                    links=("evidence.Submission.author",), erase=erase_submissions, order=10))
register(RecordKind(name="reviews_written", title="내가 쓴 검토", rows=written_rows,
                    links=("evidence.Review.reviewer",),
                    kept_because="다른 사람의 제출에 쓴 검토는 '탈퇴한 학습자'의 검토로 남음 (본인 검토는 제출과 함께 지워짐)"))
register(RecordKind(name="peer_allocations", title="맡은 동료 검토 배정", rows=allocation_rows,
                    links=("evidence.PeerAllocation.reviewer",), erase=end_live_leases, order=12,
                    kept_because="검토와 함께 남음; 진행 중이던 배정은 끝냄 (다른 동료에게 감)"))
register(RecordKind(name="extensions", title="마감 연장", rows=extension_rows,
                    links=("evidence.Extension.learner",), erase=erase_extensions, order=12))
register(RecordKind(name="calibration_reviews", title="연습 검토", rows=calibration_rows,
                    links=("evidence.CalibrationReview.reviewer",), erase=erase_calibration, order=12))
for link, why in {
    "evidence.Submission.disagreement_resolved_by": "강사가 남의 제출에 한 판정: 그 제출의 기록",
    "evidence.Review.released_by": "강사가 남에게 검토를 공개한 행위: 그 검토의 기록",
    "evidence.PeerAllocation.assigned_by": "강사가 배정한 행위: 배정의 기록",
    "evidence.Flag.resolved_by": "강사가 이의를 해결한 행위: 이의의 기록",
    "evidence.CohortTaskSetting.changed_by": "강사가 바꾼 기수 설정: 기수의 기록",
    "evidence.TaskSchedule.changed_by": "강사가 정한 기수의 과제 일정: 기수의 기록",
    "evidence.Extension.granted_by": "강사가 연장해 준 행위: 연장의 기록 (연장받은 학습자의 기록으로 내보냄)",
}.items():
    not_personal(link, why)
