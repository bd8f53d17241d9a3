"""Writes of the evidence app: tasks and rubrics, drafts, submissions, reviews, release, flags, settings.

Each write checks the capability it needs in ``tutor.access``, changes what it
must in one transaction and writes its audit entry there. Peer leases and
reproductions live in ``peer.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from rapidfuzz import fuzz, utils

from exercises.labs.models import LabRun
from lessons.content import ContentError
from lessons.models import Fixture, Lesson
from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort, members_of
from tutor.text import real_characters

from . import schedule
from .content import criteria_digest, read_tasks
from .models import (
    INSUFFICIENT,
    CalibrationExample,
    CalibrationReview,
    CohortTaskSetting,
    EvidenceTask,
    Flag,
    PeerAllocation,
    Reproduction,
    Review,
    RubricVersion,
    Submission,
)

MAX_TEXT_CHARS = 20_000
MAX_CITATION_CHARS = 500
MAX_PEER_MINIMUM = 5


@transaction.atomic(savepoint=False)
def load_tasks(*, lesson: Lesson, folder: Path) -> list[str]:
    """Upsert a lesson's evidence tasks; a changed rubric becomes a new version, old reviews keep theirs.

    Only the task's defaults come from the file: per-cohort settings are never touched.
    """
    lines: list[str] = []
    seen: set[str] = set()
    for spec in read_tasks(folder):
        seen.add(spec["slug"])
        line = _upsert_task(lesson=lesson, spec=spec)
        if line:
            lines.append(line)
    for task in EvidenceTask.objects.filter(lesson=lesson, is_active=True).exclude(slug__in=seen):
        task.is_active = False
        task.save(update_fields=["is_active"])
    return lines


def _upsert_task(*, lesson: Lesson, spec: dict[str, Any]) -> str:
    criteria = spec.pop("criteria")
    calibration = spec.pop("calibration")
    fixture_slug = spec.pop("fixture")
    fixture = Fixture.objects.filter(slug=fixture_slug).first() if fixture_slug else None
    if fixture_slug and fixture is None:
        raise ContentError(f"{spec['slug']}: 가상 자료 '{fixture_slug}'가 없습니다.")
    digest = criteria_digest(criteria)
    task, _created = EvidenceTask.objects.update_or_create(
        slug=spec["slug"], defaults={**spec, "lesson": lesson, "fixture": fixture, "is_active": True, "digest": digest},
    )
    line = ""
    if task.current_rubric is None or task.current_rubric.digest != digest:
        number = (task.rubric_versions.aggregate(n=Max("number"))["n"] or 0) + 1
        task.current_rubric = RubricVersion.objects.create(task=task, number=number, criteria=criteria, digest=digest)
        task.save(update_fields=["current_rubric"])
        audit.record(actor=None, action="rubric.version", target=task.current_rubric, reason="레슨 파일에서 읽음",
                     after={"number": number, "digest": digest, "criteria": [c.get("key") for c in criteria]})
        line = _("증거 과제 기준표: %(slug)s 판 %(n)d") % {"slug": task.slug, "n": number}
    _upsert_calibration(task=task, examples=calibration)
    return line


def _upsert_calibration(*, task: EvidenceTask, examples: list[dict[str, Any]]) -> None:
    """Keep one active row per example; a changed example (or rubric) is a new row, old practice reviews stay."""
    rubric = task.current_rubric
    assert rubric is not None, "a task's rubric is written before its calibration examples"
    keep = []
    for example in examples:
        digest = criteria_digest([example, rubric.digest])
        row, _created = CalibrationExample.objects.update_or_create(
            task=task, key=example["key"], digest=digest,
            defaults={"order": example["order"], "text": example["text"], "reference": example["reference"],
                      "reasons": example["reasons"], "rubric_version": rubric, "is_active": True},
        )
        keep.append(row.pk)
    CalibrationExample.objects.filter(task=task, is_active=True).exclude(pk__in=keep).update(is_active=False)


@transaction.atomic(durable=True)
def save_draft(*, author: User, task: EvidenceTask, text: str, run_ids: list[int],
               lines: list[int], move_citations: bool = False, version: int | None = None) -> Submission:
    """Autosave the learner's draft (one per task); nothing typed is lost between visits.

    ``version`` is the version the page writes (``selectors.writing_version``); once that version
    is submitted, a save from the page is refused rather than opening the next version.
    """
    return _write_draft(author=author, task=task, text=text, run_ids=run_ids, lines=lines,
                        move_citations=move_citations, version=version)


@transaction.atomic(savepoint=False)
def _write_draft(*, author: User, task: EvidenceTask, text: str, run_ids: list[int],
                 lines: list[int], move_citations: bool = False, version: int | None = None) -> Submission:
    """Write the draft (see ``save_draft``); composes into the caller's transaction.

    Only the learner's own practice runs attach: a reproduction of a peer's run is not their work.
    Cited lines are pinned to the fixture version they were first picked on;
    after the fixture admin edits the fixture they stay pinned (and the draft
    warns) until the author moves them to the current version
    (``move_citations``), so they never silently point at other text.
    """
    if len(text) > MAX_TEXT_CHARS:
        raise TutorError(_("증거 글은 %(n)d자까지입니다. 글은 편집란에 그대로 있습니다.") % {"n": MAX_TEXT_CHARS})
    if version is not None and (Submission.objects.filter(task=task, author=author, version=version)
                                .exclude(status=Submission.Status.DRAFT).exists()):
        raise Conflict(_("이 판(판 %(n)d)은 이미 제출했습니다. 제출한 글은 고칠 수 없고, 새 판을 쓰려면 "
                         "과제 페이지를 새로 여세요. 적던 글은 이 브라우저에 남아 있습니다.") % {"n": version})
    runs = list(LabRun.objects.of(author).own_work().filter(pk__in=run_ids)) if task.attach_runs else []
    if len(runs) != len(set(run_ids)) and task.attach_runs:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    draft = (Submission.objects.select_for_update()
             .filter(task=task, author=author, status=Submission.Status.DRAFT).first())
    cited = sorted(set(lines))
    current = task.fixture.current_version if task.fixture else None
    pinned = draft.cited_fixture_version if draft is not None else None
    pin = None if not cited else (current if pinned is None or move_citations else pinned)
    count = len(pin.numbered_lines()) if pin is not None else 0
    if any(not 1 <= n <= count for n in cited):
        raise TutorError(_("인용한 줄이 원문(1–%(n)d번 줄) 밖에 있습니다.") % {"n": count})
    if draft is None:
        version = (Submission.objects.filter(task=task, author=author).aggregate(n=Max("version"))["n"] or 0) + 1
        assert task.current_rubric is not None  # loading a task always makes its first rubric version
        draft = Submission.objects.create(task=task, author=author, version=version, rubric_version=task.current_rubric)
    if pin != pinned and pinned is not None and pin is not None:
        audit.record(actor=author, action="evidence.citations_moved", target=draft,
                     before={"fixture": pinned.number, "lines": draft.cited_lines},
                     after={"fixture": pin.number, "lines": cited})
    draft.cited_fixture_version = pin
    draft.text, draft.cited_lines = text, cited
    draft.save(update_fields=["text", "cited_lines", "cited_fixture_version", "updated_at"])
    draft.lab_runs.set(runs)
    return draft


def submit(*, author: User, task: EvidenceTask, submit_key: str, draft_fields: dict[str, Any] | None = None
           ) -> Submission:
    """Seal the draft, recording the fixture and rubric versions it was made against. One key, one submission.

    ``draft_fields`` (``save_draft``'s keyword arguments) are what the page shows when 제출 is pressed:
    written and sealed in one transaction, so the submission is the text on the screen even when the
    last autosave has not been sent or has not arrived. A refused submit keeps nothing of them; the
    page keeps the text and its autosave still saves it.
    """
    key = submit_key.strip()[:64]
    if not key:
        raise TutorError(_("요청 키가 없습니다. 페이지를 새로 고친 뒤 다시 제출해 주세요."))
    existing = Submission.objects.filter(task=task, author=author, submit_key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            if draft_fields is not None:
                _write_draft(author=author, task=task, **draft_fields)
            draft = (Submission.objects.select_for_update()
                     .filter(task=task, author=author, status=Submission.Status.DRAFT).first())
            if draft is None or not draft.text.strip():
                raise TutorError(_("제출할 글이 없습니다. 먼저 증거를 적어 주세요."))
            now = timezone.now()
            dates = schedule.refuse_before_opening(author, task, now)
            minimum, have = settings.EVIDENCE_MIN_SUBMISSION_CHARS, real_characters(draft.text)
            if have < minimum:
                raise TutorError(_("제출하려면 글자나 숫자가 %(n)d자 이상 있어야 합니다(지금 %(have)d자). "
                                   "글은 편집란에 그대로 있습니다.") % {"n": minimum, "have": have})
            draft.peer_work_read = peer_work_read(author=author, task=task, text=draft.text)
            draft.status = Submission.Status.SUBMITTED
            draft.submit_key = key
            draft.submitted_at = now
            draft.due_at = dates.due_at  # a late one is accepted and marked 기한 후 제출
            assert task.current_rubric is not None, "load_course gives every task a rubric"
            draft.rubric_version = task.current_rubric
            draft.fixture_version = task.fixture.current_version if task.fixture else None
            draft.save()
            audit.record(actor=author, action="evidence.submit", target=draft,
                         after={"version": draft.version, "rubric": draft.rubric_version.number,
                                "late": schedule.late_label(draft.late_by),
                                "fixture": draft.fixture_version.number if draft.fixture_version else None},
                         detail={"peer_work_read": draft.peer_work_read})
    except IntegrityError:
        return Submission.objects.get(task=task, author=author, submit_key=key)
    return draft


def peer_work_read(*, author: User, task: EvidenceTask, text: str) -> list[dict[str, int]]:
    """Each peer's work of ``task`` the author was handed (and so could read) before submitting ``text``, with how
    alike the two texts are (rapidfuzz's token-set ratio, 0–100: 100 when one holds every word of the other)."""
    handed = (PeerAllocation.objects.filter(reviewer=author, submission__task=task)
              .select_related("submission").order_by("created_at", "pk"))
    return [{"submission": allocation.submission_id,
             "similarity": round(fuzz.token_set_ratio(text, allocation.submission.text,
                                                      processor=utils.default_process))}
            for allocation in handed]


def check_judgements(rubric: RubricVersion, judgements: dict[str, str]) -> dict[str, str]:
    """Every criterion of the rubric gets one of its levels (or 근거 부족 / 보류); nothing else is kept."""
    cleaned = {}
    for criterion in rubric.criteria:
        level = judgements.get(criterion["key"], "")
        allowed = {lv["key"] for lv in criterion["levels"]} | {INSUFFICIENT}
        if level not in allowed:
            raise TutorError(_("'%(c)s' 기준의 수준을 골라 주세요. 판단할 근거가 없으면 '근거 부족 / 보류'를 고르세요.")
                             % {"c": criterion["title"]})
        cleaned[criterion["key"]] = level
    return cleaned


def _check_citations(rubric: RubricVersion, citations: dict[str, Any]) -> dict[str, str]:
    """A citation belongs to one of the rubric's own criteria; any other key, or an overlong one, is refused."""
    keys = {criterion["key"] for criterion in rubric.criteria}
    unknown = sorted(str(key) for key in citations if key not in keys)
    if unknown:
        raise TutorError(_("기준표에 없는 기준의 근거는 받지 않습니다: %(keys)s") % {"keys": ", ".join(unknown[:5])})
    cleaned = {key: str(text).strip() for key, text in citations.items() if str(text).strip()}
    if any(len(text) > MAX_CITATION_CHARS for text in cleaned.values()):
        raise TutorError(_("기준별 근거는 %(n)d자까지입니다.") % {"n": MAX_CITATION_CHARS})
    return cleaned


def _review_cohort(*, reviewer: User, submission: Submission, kind: str,
                   allocation: PeerAllocation | None) -> Cohort | None:
    """The cohort a review is written in, whose instructors release it."""
    of_author = Cohort.objects.attended_by(submission.author).order_by("pk")
    if kind == access.INSTRUCTOR_REVIEW:
        return of_author.filter(pk__in=access.cohorts_where(reviewer, access.Perm.REVIEW)).first() or of_author.first()
    if kind == access.PEER_REVIEW and allocation is not None:
        if allocation.assigned_by is not None:
            return (of_author.filter(pk__in=access.cohorts_where(allocation.assigned_by, access.Perm.ASSIGN)).first()
                    or of_author.first())
        return of_author.filter(pk__in=Cohort.objects.attended_by(reviewer)).first() or of_author.first()
    return None


@transaction.atomic(durable=True)
def record_review(*, reviewer: User, submission: Submission, kind: str, judgements: dict[str, str],
                  comment: str, citations: dict[str, str] | None = None) -> Review:
    """Add one review record of ``kind``, the one the access policy says ``reviewer`` writes.

    A review never replaces another: each reviewer writes one record per kind.
    A peer writes only while holding a live lease on the submission.
    """
    if submission.status != Submission.Status.SUBMITTED:
        raise Conflict(_("제출된 증거만 검토할 수 있습니다."))
    allocation = (PeerAllocation.objects.select_for_update().filter(submission=submission, reviewer=reviewer).first()
                  if reviewer.is_authenticated else None)
    if access.review_kind_for(reviewer, author=submission.author, allocated=allocation is not None) != kind:
        raise NotFound(_("그런 제출은 없습니다."))
    if kind == access.PEER_REVIEW and (allocation is None or not allocation.is_live(timezone.now())):
        raise Conflict(_("이 동료 작업은 기한이 지났거나 돌려주어 더는 검토할 수 없습니다."))
    if Review.objects.filter(submission=submission, reviewer=reviewer, kind=kind).exists():
        raise Conflict(_("이미 이 제출에 %(kind)s를 남겼습니다. 검토 기록은 고치지 않고 쌓입니다.")
                       % {"kind": Review.Kind(kind).label})
    rubric = submission.rubric_version
    review = Review.objects.create(
        submission=submission, reviewer=reviewer, kind=kind, rubric_version=rubric,
        judgements=check_judgements(rubric, judgements), comment=comment.strip()[:5000],
        # What in the submission (a quote, "실행 #12", "3번 줄") the reviewer based each judgement on.
        citations=_check_citations(rubric, citations or {}),
        cohort=_review_cohort(reviewer=reviewer, submission=submission, kind=kind, allocation=allocation),
    )
    if allocation is not None and kind == access.PEER_REVIEW:
        allocation.completed_at = timezone.now()
        allocation.save(update_fields=["completed_at"])
        # Runs the reviewer did not try to reproduce are recorded as such, not left blank.
        tried = set(allocation.reproductions.values_list("original_id", flat=True))
        Reproduction.objects.bulk_create(
            Reproduction(allocation=allocation, original=run, status=Reproduction.Status.NOT_ATTEMPTED)
            for run in submission.lab_runs.exclude(pk__in=tried)
        )
    audit.record(actor=reviewer, action=f"review.{kind}", target=submission, after=review.judgements,
                 detail={"review": review.pk, "cohort": review.cohort_id})
    return review


def _release_notes(*, submission: Submission, now: Any, reviews: list[Review]) -> list[str]:
    """Instructors' notes reach the author only with the review they concern, released by that review's cohort.

    ``reviews`` are the reviews this release covers (each one the releasing
    instructor may release, already released or released now). The
    disagreement note goes with an instructor review of a cohort whose
    instructors include the one who wrote the note; a flag's answer goes with
    the review flagged. Releasing only a peer review, or another cohort's
    reviews, leaves both where they are.
    """
    released = []
    resolver = submission.disagreement_resolved_by
    if (submission.disagreement_resolved_at and submission.disagreement_released_at is None and resolver is not None
            and any(review.kind == access.INSTRUCTOR_REVIEW and review.released_at is not None
                    and access.may_release(resolver, author=submission.author, cohort=review.cohort)
                    for review in reviews)):
        submission.disagreement_released_at = now
        submission.save(update_fields=["disagreement_released_at"])
        released.append("disagreement")
    flags = Flag.objects.filter(review__in=[review for review in reviews if review.released_at is not None],
                                resolved_at__isnull=False, resolution_released_at__isnull=True)
    for flag in flags:
        flag.resolution_released_at = now
        flag.save(update_fields=["resolution_released_at"])
        released.append(f"flag:{flag.pk}")
    return released


def _notice_released(review_ids: list[int]) -> None:
    """After commit, the worker tells the author (once per review) that a review was released."""
    from .tasks import notice_review_released

    def enqueue(review_id: int) -> None:
        transaction.on_commit(lambda: notice_review_released.enqueue(review_id=review_id))

    for review_id in review_ids:
        enqueue(review_id)


@transaction.atomic(durable=True)
def mark_reviews_opened(*, author: User, submission: Submission) -> int:
    """The author opened their submission's page: its released reviews no longer wait in their to-do."""
    if submission.author_id != author.pk:
        raise NotFound(_("그런 제출은 없습니다."))
    return submission.reviews.released().filter(opened_at__isnull=True).update(opened_at=timezone.now())


@transaction.atomic(durable=True)
def release_review(*, instructor: User, review: Review, reason: str = "") -> Review:
    """Let the author see this one review (and the notes that go with it) from now on."""
    submission = review.submission
    if not access.may_release(instructor, author=submission.author, cohort=review.cohort):
        raise NotFound(_("그런 검토는 없습니다."))
    now = timezone.now()
    newly = review.released_at is None and review.kind != access.SELF_REVIEW
    if newly:
        review.released_at, review.released_by = now, instructor
        review.save(update_fields=["released_at", "released_by"])
        _notice_released([review.pk])
    # A note waiting on an instructor review this instructor released before goes with this release too.
    covered = [review] + [earlier for earlier in submission.reviews.select_related("cohort").filter(
        kind=access.INSTRUCTOR_REVIEW, released_at__isnull=False).exclude(pk=review.pk)
        if access.may_release(instructor, author=submission.author, cohort=earlier.cohort)]
    notes = _release_notes(submission=submission, now=now, reviews=covered)
    if newly or notes:
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True},
                     detail={"review": review.pk, "cohort": review.cohort_id, "notes": notes})
    return review


@transaction.atomic(durable=True)
def release_reviews(*, instructor: User, submission: Submission, reason: str = "") -> int:
    """Release every review of ``submission`` this instructor may release, and the pending notes; return how many
    reviews. Reviews written in another instructor's cohort stay for that instructor."""
    return _release_reviews(instructor=instructor, submission=submission, reason=reason)


def _release_reviews(*, instructor: User, submission: Submission, reason: str) -> int:
    """``release_reviews`` inside the caller's transaction (one submission of a task release)."""
    if not access.instructs(instructor, submission.author):
        raise NotFound(_("그런 제출은 없습니다."))
    now = timezone.now()
    mine = [review for review in submission.reviews.select_related("cohort").exclude(kind=access.SELF_REVIEW)
            if access.may_release(instructor, author=submission.author, cohort=review.cohort)]
    pending = [review for review in mine if review.released_at is None]
    for review in pending:
        review.released_at, review.released_by = now, instructor
        review.save(update_fields=["released_at", "released_by"])
    notes = _release_notes(submission=submission, now=now, reviews=mine)
    _notice_released([review.pk for review in pending])
    if pending or notes:
        audit.record(actor=instructor, action="review.release", target=submission, reason=reason,
                     before={"released": False}, after={"released": True},
                     detail={"reviews": [r.pk for r in pending], "notes": notes})
    return len(pending)


@transaction.atomic(durable=True)
def release_task(*, instructor: User, task: EvidenceTask) -> int:
    """Release what this instructor may release of every submission of ``task`` in their cohorts; return how many
    submissions had something released."""
    if not access.is_instructor(instructor):
        raise NotFound(_("그런 과제는 없습니다."))
    cohorts = access.cohorts_where(instructor, access.Perm.RELEASE)
    submissions = Submission.objects.submitted().filter(task=task, author__in=members_of(cohorts))
    return sum(1 for s in submissions if _release_reviews(instructor=instructor, submission=s, reason=_("과제 단위 공개")))


@transaction.atomic(durable=True)
def rate_helpful(*, author: User, review: Review, helpful: bool) -> Review:
    """The author says whether a released peer review helped; audited, and the same answer twice writes once."""
    if not access.may_flag(author, author=review.submission.author, review_kind=review.kind,
                           released=review.released_at is not None) or review.kind != access.PEER_REVIEW:
        raise NotFound(_("그런 검토는 없습니다."))
    locked = Review.objects.select_for_update().get(pk=review.pk)
    if locked.helpful == helpful:
        return locked
    before = {"helpful": locked.helpful}
    locked.helpful = helpful
    locked.save(update_fields=["helpful"])
    audit.record(actor=author, action="evidence.rate_helpful", target=locked, before=before,
                 after={"helpful": helpful})
    return locked


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


@transaction.atomic(durable=True)
def record_practice_review(*, reviewer: User, example: CalibrationExample,
                           judgements: dict[str, str]) -> CalibrationReview:
    """Keep a learner's practice review of an example as its own record; the first one stands."""
    existing = CalibrationReview.objects.filter(example=example, reviewer=reviewer).first()
    if existing is not None:
        return existing
    practice = CalibrationReview.objects.create(
        example=example, reviewer=reviewer, judgements=check_judgements(example.rubric_version, judgements))
    matched = sum(1 for key, level in practice.judgements.items() if example.reference.get(key) == level)
    audit.record(actor=reviewer, action="calibration.practice_review", target=example, after=practice.judgements,
                 detail={"practice_review": practice.pk, "matched": matched, "criteria": len(practice.judgements)})
    return practice
