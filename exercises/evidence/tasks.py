"""Tasks of the evidence app: the notices its events cause, made by the worker after the event committed.

Thin: they take plain ids, re-fetch, and call ``notices.notify`` with a key naming the event and the person,
so a task run twice (a retry, a second worker) tells nobody twice.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from tutor.notices.models import Kind
from tutor.notices.services import notify

from .models import PeerAllocation, Review


@task()
def notice_peer_allocated(allocation_id: int) -> None:
    allocation = PeerAllocation.objects.select_related("reviewer", "submission__task").filter(pk=allocation_id).first()
    if allocation is None:
        return
    until = timezone.localtime(allocation.expires_at).strftime("%m월 %d일 %H:%M")
    notify(user=allocation.reviewer, kind=Kind.PEER_REVIEW, key=f"peer_review:{allocation.pk}",
           title=f"동료 검토 배정: {allocation.submission.task.title} ({until}까지)",
           url=reverse("evidence:submission", args=[allocation.submission_id]),
           body=f"동료의 작업 하나가 배정되었습니다. 검토 기한은 {until}입니다. 그때까지 검토하지 않으면 다른 사람에게 갑니다.")


@task()
def notice_review_released(review_id: int) -> None:
    review = Review.objects.select_related("submission__author", "submission__task").filter(pk=review_id).first()
    if review is None or review.released_at is None:
        return
    submission = review.submission
    notify(user=submission.author, kind=Kind.REVIEW_RELEASED, key=f"review_released:{review.pk}",
           title=f"검토 공개: {submission.task.title} 판 {submission.version}",
           url=reverse("evidence:submission", args=[submission.pk]),
           body="내 제출에 대한 검토가 공개되었습니다.")
