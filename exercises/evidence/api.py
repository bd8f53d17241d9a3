"""JSON API of the evidence app: the same selectors and services, so the same rules, as the pages."""

from __future__ import annotations

from ninja import Router, Status

from exercises.labs.api import run_out
from exercises.labs.schemas import RunOut
from tutor.access import AnyUser
from tutor.http import ApiRequest

from . import selectors, services
from .models import Review, Submission
from .schemas import FlagIn, QueueRowOut, ReviewIn, SubmissionOut

router = Router(tags=["남길 증거"])


def submission_out(viewer: AnyUser, submission: Submission, *, reviews: list[Review] | None = None,
                   run_ids: list[int] | None = None) -> dict:
    """The submission as ``viewer`` may see it; lists pass the ``reviews`` and ``run_ids`` they read at once."""
    changed = selectors.standard_changed(submission)
    fixture_number = submission.fixture_version.number if submission.fixture_version else None
    if reviews is None:
        reviews = selectors.reviews_visible_to(viewer, submission)
    if run_ids is None:
        run_ids = list(submission.lab_runs.order_by("pk").values_list("pk", flat=True))
    peer_read = selectors.peer_read_note(viewer, submission)
    return {
        "read_peer_work_similarity": peer_read.highest if peer_read else None,
        "cited_lines_changed": [line.number for line in selectors.citations_of(submission).changed],
        "id": submission.pk, "task": submission.task.slug, "version": submission.version,
        "author": selectors.name_of_author(viewer, submission),
        "text": submission.text, "cited_lines": submission.cited_lines,
        "lab_runs": run_ids,
        "rubric_version": submission.rubric_version.number, "fixture_version": fixture_number,
        "standard_changed": changed, "submitted_at": submission.submitted_at,
        "released_reviews": sum(1 for r in reviews if r.released_at),
        "reviews": [{"id": r.pk, "kind": r.kind, "reviewer": selectors.name_of_reviewer(viewer, r),
                     "judgements": r.judgements, "citations": r.citations, "comment": r.comment,
                     "created_at": r.created_at, "released": r.released_at is not None,
                     "rubric_version": r.rubric_version.number, "fixture_version": fixture_number,
                     "standard_changed": changed} for r in reviews],
    }


@router.get("/submissions", response=list[SubmissionOut], summary="내 제출 (제출한 판)")
def my_submissions(request: ApiRequest) -> list[dict]:
    return [submission_out(request.auth, listed.submission, reviews=listed.reviews, run_ids=listed.run_ids)
            for listed in selectors.submitted_versions_of(request.auth)]


@router.get("/submissions/{submission_id}", response=SubmissionOut, summary="제출 하나 (본인, 배정된 동료, 강사)")
def get_submission(request: ApiRequest, submission_id: int) -> dict:
    return submission_out(request.auth, selectors.access_submission(request.auth, submission_id))


@router.get("/submissions/{submission_id}/runs/{run_id}", response=RunOut,
            summary="제출에 붙은 실행 기록과 봉인 (본인, 배정된 동료, 강사; 읽기 전용)")
def get_attached_run(request: ApiRequest, submission_id: int, run_id: int) -> dict:
    return run_out(selectors.access_attached_run(request.auth, submission_id, run_id))


@router.post("/submissions/{submission_id}/reviews", response={201: SubmissionOut}, summary="검토 기록 (본인·동료·강사)")
def add_review(request: ApiRequest, submission_id: int, payload: ReviewIn) -> Status:
    submission = selectors.access_submission(request.auth, submission_id)
    kind = selectors.review_kind_for(request.auth, submission) or Review.Kind.PEER
    services.record_review(reviewer=request.auth, submission=submission, kind=kind, judgements=payload.judgements,
                           comment=payload.comment, citations=payload.citations)
    return Status(201, submission_out(request.auth, submission))


@router.post("/submissions/{submission_id}/release", response=SubmissionOut,
             summary="내 기수의 검토와 메모 공개 (강사)")
def release(request: ApiRequest, submission_id: int) -> dict:
    submission = selectors.access_submission(request.auth, submission_id)
    services.release_reviews(instructor=request.auth, submission=submission)
    return submission_out(request.auth, submission)


@router.post("/reviews/{review_id}/release", response=SubmissionOut, summary="검토 하나 공개 (그 기수의 강사)")
def release_review(request: ApiRequest, review_id: int) -> dict:
    review = selectors.access_review_to_release(request.auth, review_id)
    services.release_review(instructor=request.auth, review=review)
    return submission_out(request.auth, review.submission)


@router.post("/reviews/{review_id}/flags", response={201: dict}, summary="검토의 한 기준에 이의 제기 (작성자)")
def flag(request: ApiRequest, review_id: int, payload: FlagIn) -> Status:
    review = selectors.access_review_of_own_work(request.auth, review_id)
    created = services.flag_criterion(author=request.auth, review=review, criterion=payload.criterion,
                                      reason=payload.reason)
    return Status(201, {"id": created.pk, "criterion": created.criterion})


@router.get("/queue", response=list[QueueRowOut], summary="강사 검토 대기열")
def queue(request: ApiRequest, task: str = "", state: str = "", flagged: bool = False,
          disagreement: bool = False) -> list[dict]:
    rows = selectors.instructor_queue(request.auth, task_slug=task, state=state, flagged=flagged,
                                      disagreement=disagreement)
    return [{"submission": r.submission.pk, "learner": r.submission.author.get_username(),
             "task": r.submission.task.slug, "version": r.submission.version, "state": r.state,
             "peer_done": r.peer_done, "peer_min": r.peer_min, "unreleased": r.unreleased,
             "open_flags": r.open_flags, "disagreement": r.disagreement, "reproductions": r.reproductions}
            for r in rows]
