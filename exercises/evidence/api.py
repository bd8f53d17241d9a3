"""JSON API of the evidence app: the same selectors and services, so the same rules, as the pages."""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja import Router, Status

from tutor import access
from tutor.access import AnyUser
from tutor.http import ApiRequest

from . import selectors, services
from .models import Review, Submission
from .schemas import FlagIn, QueueRowOut, ReviewIn, SubmissionOut

router = Router(tags=["남길 증거"])


def _reviewer_label(viewer: AnyUser, review: Review) -> str:
    if review.kind == Review.Kind.INSTRUCTOR or access.instructs(viewer, review.submission.author):
        return review.reviewer.get_username()
    if review.reviewer_id == getattr(viewer, "pk", None):
        return review.reviewer.get_username()
    return _("익명 동료")


def submission_out(viewer: AnyUser, submission: Submission) -> dict:
    is_author = submission.author_id == getattr(viewer, "pk", None)
    return {
        "id": submission.pk, "task": submission.task.slug, "version": submission.version,
        "author": _("나") if is_author else (submission.author.get_username()
                                              if access.instructs(viewer, submission.author) else _("익명 동료")),
        "text": submission.text, "cited_lines": submission.cited_lines,
        "lab_runs": [run.pk for run in submission.lab_runs.all()],
        "rubric_version": submission.rubric_version.number,
        "fixture_version": submission.fixture_version.number if submission.fixture_version else None,
        "submitted_at": submission.submitted_at, "released": submission.released_at is not None,
        "reviews": [{"id": r.pk, "kind": r.kind, "reviewer": _reviewer_label(viewer, r), "judgements": r.judgements,
                     "citations": r.citations, "comment": r.comment, "created_at": r.created_at}
                    for r in selectors.reviews_visible_to(viewer, submission)],
    }


@router.get("/submissions", response=list[SubmissionOut], summary="내 제출 (제출한 판)")
def my_submissions(request: ApiRequest) -> list[dict]:
    submissions = selectors.with_reviews(Submission.objects.submitted().filter(author=request.auth))
    return [submission_out(request.auth, s) for s in submissions]


@router.get("/submissions/{submission_id}", response=SubmissionOut, summary="제출 하나 (본인, 배정된 동료, 강사)")
def get_submission(request: ApiRequest, submission_id: int) -> dict:
    return submission_out(request.auth, selectors.access_submission(request.auth, submission_id))


@router.post("/submissions/{submission_id}/reviews", response={201: SubmissionOut}, summary="검토 기록 (본인·동료·강사)")
def add_review(request: ApiRequest, submission_id: int, payload: ReviewIn) -> Status:
    submission = selectors.access_submission(request.auth, submission_id)
    kind = selectors.review_kind_for(request.auth, submission) or Review.Kind.PEER
    services.record_review(reviewer=request.auth, submission=submission, kind=kind, judgements=payload.judgements,
                           comment=payload.comment, citations=payload.citations)
    return Status(201, submission_out(request.auth, submission))


@router.post("/submissions/{submission_id}/release", response=SubmissionOut, summary="검토 공개 (강사)")
def release(request: ApiRequest, submission_id: int) -> dict:
    submission = selectors.access_submission(request.auth, submission_id)
    services.release_reviews(instructor=request.auth, submission=submission)
    return submission_out(request.auth, submission)


@router.post("/reviews/{review_id}/flags", response={201: dict}, summary="검토의 한 기준에 이의 제기 (작성자)")
def flag(request: ApiRequest, review_id: int, payload: FlagIn) -> Status:
    review = selectors.access_review_of_own_work(request.auth, review_id)
    created = services.flag_criterion(author=request.auth, review=review, criterion=payload.criterion, reason=payload.reason)
    return Status(201, {"id": created.pk, "criterion": created.criterion})


@router.get("/queue", response=list[QueueRowOut], summary="강사 검토 대기열")
def queue(request: ApiRequest, task: str = "", state: str = "", flagged: bool = False, disagreement: bool = False) -> list[dict]:
    rows = selectors.instructor_queue(request.auth, task_slug=task, state=state, flagged=flagged, disagreement=disagreement)
    return [{"submission": r.submission.pk, "learner": r.submission.author.get_username(), "task": r.submission.task.slug,
             "state": r.state, "peer_done": r.peer_done, "peer_min": r.peer_min, "open_flags": r.open_flags,
             "disagreement": r.disagreement} for r in rows]
