"""JSON API of the evidence app: the same selectors and services, so the same rules, as the pages."""

from __future__ import annotations

from ninja import Router, Status

from exercises.labs.api import run_out
from exercises.labs.schemas import RunOut
from tutor import access
from tutor.access import AnyUser
from tutor.api import ANYONE
from tutor.errors import NotFound
from tutor.http import ApiRequest
from tutor.models import Cohort

from . import progress, schedule, selectors, services
from .models import EvidenceTask, Review, Submission
from .schemas import (
    ExtensionIn,
    ExtensionOut,
    FlagIn,
    ProgressRowOut,
    QueueRowOut,
    ReviewIn,
    ScheduleIn,
    ScheduleOut,
    SubmissionOut,
)

router = Router(tags=["남길 증거"])
# Visitors are let in so that they get the same 404 as everyone the cohort does not belong to.
cohort_router = Router(tags=["기수 일정과 진도"], auth=ANYONE)


def _cohort(request: ApiRequest, cohort_id: int, perm: access.Perm) -> Cohort:
    if not request.auth.is_authenticated:
        raise NotFound("그런 기수는 없습니다.")
    return selectors.access_cohort(request.auth, cohort_id, perm)


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


def _task(slug: str) -> EvidenceTask:
    task = selectors.active_tasks().filter(slug=slug).first()
    if task is None:
        raise NotFound("그런 과제는 없습니다.")
    return task


@cohort_router.put("/{cohort_id}/tasks/{slug}/schedule", response=ScheduleOut,
                   summary="기수의 과제 일정 (그 기수의 강사만; 서울 시각으로 보임)")
def put_schedule(request: ApiRequest, cohort_id: int, slug: str, payload: ScheduleIn) -> dict:
    cohort = _cohort(request, cohort_id, access.Perm.CHANGE_SETTINGS)
    result = schedule.set_schedule(instructor=request.auth, cohort=cohort, task=_task(slug),
                                   opens_at=payload.opens_at, due_at=payload.due_at, peer_due_at=payload.peer_due_at)
    row = result.schedule
    return {"cohort": cohort.pk, "task": slug, "opens_at": row.opens_at, "due_at": row.due_at,
            "peer_due_at": row.peer_due_at, "warnings": result.warnings}


@cohort_router.post("/{cohort_id}/extensions", response={201: ExtensionOut},
                    summary="한 학습자의 마감 연장 (그 기수의 강사만, 이유 필수)")
def post_extension(request: ApiRequest, cohort_id: int, payload: ExtensionIn) -> Status:
    cohort = _cohort(request, cohort_id, access.Perm.CHANGE_SETTINGS)
    row = schedule.grant_extension(instructor=request.auth, cohort=cohort, task=_task(payload.task),
                                   username=payload.username, due_at=payload.due_at, reason=payload.reason)
    return Status(201, {"cohort": cohort.pk, "username": payload.username, "task": payload.task,
                        "due_at": row.due_at, "reason": row.reason})


@cohort_router.get("/{cohort_id}/progress", response=list[ProgressRowOut],
                   summary="기수 진도: 학습자마다 한 줄 (그 기수의 강사와 조교)")
def get_progress(request: ApiRequest, cohort_id: int, show: str = "", sort: str = "username") -> list[dict]:
    _cohort(request, cohort_id, access.Perm.READ_PROGRESS)
    _c, _tasks, rows = progress.cohort_table(request.auth, cohort_id, show=show, sort=sort)
    return [{"username": r.learner.username, "name": r.learner.get_full_name(), "url": r.url,
             "last_activity": r.last_activity, "lessons_opened": r.lessons_opened, "labs_run": r.labs_run,
             "grounding_attempts": r.grounding_attempts, "not_started": r.not_started, "behind": r.behind,
             "waiting_for_me": r.waiting_for_me,
             "tasks": [{"task": c.slug, "state": c.state, "late": c.late, "due_at": c.due_at,
                        "submission": c.submission_id} for c in r.tasks]} for r in rows]
