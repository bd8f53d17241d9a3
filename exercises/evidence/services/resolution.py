"""Flags, disagreements and a cohort's peer-review minimum: what an instructor settles."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort

from ..models import (
    CohortTaskSetting,
    EvidenceTask,
    Flag,
    Review,
    Submission,
)
from .limits import MAX_PEER_MINIMUM


@transaction.atomic(durable=True)
def flag_criterion(*, author: User, review: Review, criterion: str, reason: str) -> Flag:
    """The author disputes one criterion of a released review; it goes to the instructor's queue."""
    if not access.may_flag(author, author=review.submission.author, review_kind=review.kind,
                           released=review.released_at is not None):
        raise NotFound(_("그런 검토는 없습니다."))
    if criterion not in {c["key"] for c in review.rubric_version.criteria}:
        raise TutorError(_("그런 기준은 없습니다."))
    if not reason.strip():
        raise TutorError(_("이의를 제기하는 이유를 적어 주세요."))
    flag, created = Flag.objects.get_or_create(review=review, criterion=criterion,
                                               defaults={"reason": reason.strip()[:2000]})
    if not created:
        raise Conflict(_("이 기준에는 이미 이의를 제기했습니다."))
    audit.record(actor=author, action="review.flag", target=review.submission, reason=flag.reason,
                 detail={"review": review.pk, "criterion": criterion})
    return flag


@transaction.atomic(durable=True)
def resolve_flag(*, instructor: User, flag: Flag, resolution: str) -> Flag:
    """Answer a flag with a reason; the answer reaches the author with the next release."""
    if not access.may_resolve(instructor, author=flag.review.submission.author):
        raise NotFound(_("그런 이의 제기는 없습니다."))
    if not resolution.strip():
        raise TutorError(_("해결한 이유를 적어 주세요."))
    if flag.resolved_at is None:
        flag.resolved_by, flag.resolution, flag.resolved_at = instructor, resolution.strip()[:2000], timezone.now()
        flag.save(update_fields=["resolved_by", "resolution", "resolved_at"])
        audit.record(actor=instructor, action="flag.resolve", target=flag.review.submission, reason=flag.resolution,
                     detail={"flag": flag.pk})
    return flag


@transaction.atomic(durable=True)
def resolve_disagreement(*, instructor: User, submission: Submission, reason: str) -> Submission:
    """Close a disagreement between reviews with the instructor's reason; the author reads it only after a release."""
    if not access.may_resolve(instructor, author=submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    if not reason.strip():
        raise TutorError(_("불일치를 해결한 이유를 적어 주세요."))
    submission.disagreement_resolution = reason.strip()[:2000]
    submission.disagreement_resolved_at = timezone.now()
    submission.disagreement_resolved_by = instructor
    submission.disagreement_released_at = None
    submission.save(update_fields=["disagreement_resolution", "disagreement_resolved_at", "disagreement_resolved_by",
                                   "disagreement_released_at"])
    audit.record(actor=instructor, action="review.resolve_disagreement", target=submission,
                 reason=submission.disagreement_resolution)
    return submission


@transaction.atomic(durable=True)
def set_min_peer_reviews(*, instructor: User, task: EvidenceTask, cohort: Cohort, minimum: int,
                         reason: str) -> CohortTaskSetting:
    """Change one cohort's minimum number of peer reviews for ``task``; the file's default stays as it is."""
    if not access.may_change_cohort_setting(instructor, cohort):
        raise NotFound(_("그런 기수는 없습니다."))
    if not 0 <= minimum <= MAX_PEER_MINIMUM:
        raise TutorError(_("최소 동료 검토 수는 0–%(n)d입니다.") % {"n": MAX_PEER_MINIMUM})
    if not reason.strip():
        raise TutorError(_("바꾸는 이유를 적어 주세요."))
    setting = CohortTaskSetting.objects.select_for_update().filter(cohort=cohort, task=task).first()
    before = setting.min_peer_reviews if setting else task.default_min_peer_reviews
    if setting is None:
        setting = CohortTaskSetting(cohort=cohort, task=task)
    setting.min_peer_reviews, setting.changed_by = minimum, instructor
    setting.save()
    audit.record(actor=instructor, action="cohort_setting.min_peer_reviews", target=setting, reason=reason.strip(),
                 before={"min": before}, after={"min": minimum}, detail={"cohort": cohort.pk, "task": task.slug})
    return setting
