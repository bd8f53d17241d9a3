"""Reads of the evidence app. Unreleased reviews and instructors' notes never reach the author or a peer;
others' work never reaches anyone. Each answer about who may do what comes from ``tutor.access``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from lessons.content import SLUG
from lessons.fixture_changes import LineChange, changed_lines
from lessons.fixture_refs import FixtureUse, lines_referred, named_uses, resolve, use, versions_for
from lessons.models import Fixture, FixtureVersion
from lessons.selectors import RecordLink, access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.accounts.selectors import display_name
from tutor.errors import NotFound
from tutor.models import Cohort, Membership, members_of
from tutor.roles import CohortRole

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
    Submission,
)


def tasks_of_lesson(lesson_id: int) -> QuerySet[EvidenceTask]:
    return EvidenceTask.objects.active().filter(lesson_id=lesson_id).order_by("order")


def active_tasks() -> QuerySet[EvidenceTask]:
    """Every active task in course order (the queue's task filter)."""
    return EvidenceTask.objects.active().order_by("lesson__order", "order")


def access_reviewer(instructor: AnyUser, reviewer_id: int | None) -> User:
    """A learner of a cohort the instructor teaches, to hand peer work to; 404 for anyone else."""
    access.require_sign_in(instructor)
    reviewer = get_user_model().objects.filter(pk=reviewer_id).first() if reviewer_id else None
    if reviewer is None or not access.instructs(instructor, reviewer):
        raise NotFound(_("그런 학습자는 없습니다."))
    return reviewer


def access_reviewer_named(instructor: AnyUser, username: str) -> User:
    """The same as ``access_reviewer``, by the username typed in the queue's search field."""
    access.require_sign_in(instructor)
    reviewer = get_user_model().objects.filter(username=username.strip()).first() if username.strip() else None
    if reviewer is None or not access.instructs(instructor, reviewer):
        raise NotFound(_("그런 학습자는 없습니다."))
    return reviewer


def access_task(user: AnyUser, slug: str) -> EvidenceTask:
    access.require_sign_in(user)
    task = (EvidenceTask.objects.active().select_related("lesson", "fixture__current_version", "current_rubric")
            .filter(slug=slug).first() if SLUG.match(slug) else None)
    if task is None:
        raise NotFound(_("그런 과제는 없습니다."))
    access_lesson(user, task.lesson.slug)
    return task


def instructions_of(task: EvidenceTask) -> str:
    """The task's instructions (safe markup) with fixture lines quoted from the versions in use."""
    own = task.fixture.current_version if task.fixture else None
    return resolve(task.instructions_html, versions_for(task.instructions_html), own=own, html=True)


def allocation_for(user: AnyUser, submission: Submission) -> PeerAllocation | None:
    """The user's lease on ``submission`` however it ended (a peer keeps seeing what they reviewed)."""
    if not user.is_authenticated:
        return None
    return PeerAllocation.objects.filter(submission=submission, reviewer=user).first()


def access_submission(user: AnyUser, submission_id: int) -> Submission:
    """A submitted version, to its author, the author's instructors and peers holding a live lease on it or
    who reviewed it (they see it anonymously); 404 to everybody else, and drafts to nobody but their author."""
    access.require_sign_in(user)
    submission = (Submission.objects.select_related("task__lesson", "task__fixture", "author", "rubric_version",
                                                    "fixture_version").filter(pk=submission_id).first())
    if submission is None or (submission.status == Submission.Status.DRAFT and submission.author_id != user.pk):
        raise NotFound(_("그런 제출은 없습니다."))
    if not access.may_see_records_of(user, submission.author) and not peer_may_read(allocation_for(user, submission)):
        raise NotFound(_("그런 제출은 없습니다."), target=submission, reason="배정되지 않았거나 끝난 동료 작업")
    return submission


def peer_may_read(allocation: PeerAllocation | None) -> bool:
    """A peer reads the work while their lease is live, and keeps what they reviewed; a lease given back or
    expired unreviewed no longer shows it."""
    return allocation is not None and (allocation.completed_at is not None or allocation.is_live(timezone.now()))


def access_allocation(user: AnyUser, allocation_id: int) -> PeerAllocation:
    access.require_sign_in(user)
    allocation = PeerAllocation.objects.select_related("submission__task").filter(pk=allocation_id).first()
    if allocation is None or allocation.reviewer_id != user.pk:
        raise NotFound(_("그런 동료 작업은 없습니다."))
    return allocation


def access_attached_run(user: AnyUser, submission_id: int, run_id: int) -> LabRun:
    """A run attached to a submission, read-only, to whoever may see that submission (an allocated peer too)."""
    submission = access_submission(user, submission_id)
    run = submission.lab_runs.select_related("lab__lesson").filter(pk=run_id).first()
    if run is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    return run


def standard_changed(submission: Submission) -> bool:
    """Say whether the task's rubric or fixture has a newer version than the one the submission used ("기준 변경됨")."""
    task = submission.task
    if submission.rubric_version_id != task.current_rubric_id:
        return True
    return bool(task.fixture is not None and submission.fixture_version_id != task.fixture.current_version_id)


@dataclass
class StandardChange:
    """What "기준 변경됨" means for one submission: the rubric versions and the fixture lines, old → new."""

    rubric: tuple[int, int] | None
    fixture: tuple[int, int] | None
    lines: list[LineChange]


def standard_change(submission: Submission) -> StandardChange | None:
    """The rubric and fixture changes since the submission was made, or None when nothing changed."""
    if not standard_changed(submission):
        return None
    task = submission.task
    current_rubric = task.current_rubric
    rubric = ((submission.rubric_version.number, current_rubric.number)
              if current_rubric is not None and submission.rubric_version_id != current_rubric.pk else None)
    old, new = submission.fixture_version, task.fixture.current_version if task.fixture else None
    if old is None or new is None or old.pk == new.pk:
        return StandardChange(rubric=rubric, fixture=None, lines=[])
    return StandardChange(rubric=rubric, fixture=(old.number, new.number), lines=changed_lines(old, new))


@dataclass
class PeerRead:
    """"동료 작업을 읽은 뒤 제출": how many peers' works the author was handed before this version, and how alike
    this text is to the closest (0–100). Instructors also get the works read, to compare them."""

    count: int
    highest: int
    works: list[tuple[int, int]]  # (submission id, similarity), for the author's instructors only


def peer_read_note(viewer: AnyUser, submission: Submission) -> PeerRead | None:
    """The mark reviewers and instructors see on a version submitted after its author read peer work."""
    read = submission.peer_work_read or []
    if not read or viewer.pk == submission.author_id:
        return None
    works = ([(int(item["submission"]), int(item["similarity"])) for item in read]
             if access.sees_names(viewer, author=submission.author) else [])
    return PeerRead(count=len(read), highest=max(int(item["similarity"]) for item in read), works=works)


@dataclass
class CitedLine:
    """A cited line as the author picked it, and what became of it in a later fixture version (None: unchanged)."""

    number: int
    text: str
    changed: bool = False
    new_number: int | None = None  # where the same text is now; None when it was edited or deleted
    new_text: str | None = None  # what the cited number now holds (None: no such line any more)


@dataclass
class Citations:
    """A version's cited lines, read on the fixture version they were picked on, compared with ``against``."""

    pinned: FixtureVersion | None
    against: FixtureVersion | None
    lines: list[CitedLine]

    @property
    def changed(self) -> list[CitedLine]:
        return [line for line in self.lines if line.changed]


def _where_now(old_text: str, new_text: str) -> dict[int, int]:
    """Old line number → new line number, for every line the edit left as it was."""
    before, after = old_text.splitlines(), new_text.splitlines()
    moved: dict[int, int] = {}
    for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag == "equal":
            moved.update({i + 1: j1 + (i - i1) + 1 for i in range(i1, i2)})
    return moved


def citations_of(submission: Submission) -> Citations:
    """The cited lines read on the version they were pinned to, each compared with the version the reader meets:
    the current one for a draft, the one it was submitted on for a submitted version. A line whose text changed,
    or whose number now holds other text, is marked ``changed``, never silently shown with the new text."""
    if not submission.cited_lines:
        return Citations(pinned=None, against=None, lines=[])
    task = submission.task
    pinned = submission.cited_fixture_version or submission.fixture_version
    against = (submission.fixture_version if submission.status == Submission.Status.SUBMITTED
               else task.fixture.current_version if task.fixture else None)
    if pinned is None:
        return Citations(pinned=None, against=against, lines=[])
    old = dict(pinned.numbered_lines())
    lines = [CitedLine(number=n, text=old.get(n, "")) for n in submission.cited_lines]
    if against is not None and against.pk != pinned.pk:
        where, now = _where_now(pinned.text, against.text), dict(against.numbered_lines())
        for line in lines:
            line.new_number, line.new_text = where.get(line.number), now.get(line.number)
            line.changed = line.new_number != line.number
    return Citations(pinned=pinned, against=against, lines=lines)


def source_lines(task: EvidenceTask, citations: Citations | None) -> list[tuple[int, str]]:
    """The numbered fixture lines the draft form offers: those of the version the draft's citations are pinned to
    (so a number means the text beside it), else the current version's."""
    if citations is not None and citations.pinned is not None and citations.lines:
        return citations.pinned.numbered_lines()
    current = task.fixture.current_version if task.fixture else None
    return current.numbered_lines() if current is not None else []


def review_kind_for(user: AnyUser, submission: Submission) -> str | None:
    """Which review ``user`` writes of ``submission`` (the access policy decides)."""
    return access.review_kind_for(user, author=submission.author,
                                  allocated=allocation_for(user, submission) is not None)


def access_review_of_own_work(user: AnyUser, review_id: int) -> Review:
    """A released review of the user's own submission (for rating and flagging); 404 otherwise."""
    access.require_sign_in(user)
    review = Review.objects.select_related("submission__author", "rubric_version").filter(pk=review_id).first()
    if review is None or not access.may_flag(user, author=review.submission.author, review_kind=review.kind,
                                             released=review.released_at is not None):
        raise NotFound(_("그런 검토는 없습니다."))
    return review


def access_review_to_release(user: AnyUser, review_id: int) -> Review:
    """A review this instructor may release; 404 to everyone else, including another cohort's instructor."""
    access.require_sign_in(user)
    review = Review.objects.select_related("submission__author", "cohort").filter(pk=review_id).first()
    if review is None or not access.may_release(user, author=review.submission.author, cohort=review.cohort):
        raise NotFound(_("그런 검토는 없습니다."))
    return review


def access_flag(user: AnyUser, flag_id: int) -> Flag:
    access.require_sign_in(user)
    flag = Flag.objects.select_related("review__submission__author").filter(pk=flag_id).first()
    if flag is None or not access.may_resolve(user, author=flag.review.submission.author):
        raise NotFound(_("그런 이의 제기는 없습니다."))
    return flag


def _shown_reviews() -> QuerySet[Review]:
    return Review.objects.select_related("reviewer", "rubric_version", "cohort").prefetch_related("flags").order_by(
        "created_at", "pk")


def reviews_visible_to(user: AnyUser, submission: Submission) -> list[Review]:
    """Instructors see every review; the author their own self-review and each review once it is released;
    a peer only what they wrote."""
    reviews = list(_shown_reviews().filter(submission=submission))
    for review in reviews:
        review.submission = submission  # read once for the page, not once per review (its author, its task)
    return visible_among(user, submission, reviews)


def visible_among(user: AnyUser, submission: Submission, reviews: list[Review]) -> list[Review]:
    """``reviews_visible_to`` over reviews already read (for lists, which read them all at once)."""
    if access.sees_unreleased(user, author=submission.author):
        return reviews
    if user.pk == submission.author_id:
        return [r for r in reviews if r.kind == Review.Kind.SELF or r.released_at is not None]
    return [r for r in reviews if r.reviewer_id == user.pk]


@dataclass
class ListedSubmission:
    """One of the author's submitted versions with the reviews they may read and the runs attached."""

    submission: Submission
    reviews: list[Review]
    run_ids: list[int]


def submitted_versions_of(author: User) -> list[ListedSubmission]:
    """Every submitted version of the author's, in a fixed number of queries however many there are."""
    submissions = (Submission.objects.submitted().filter(author=author)
                   .select_related("task__fixture__current_version", "rubric_version", "fixture_version",
                                   "cited_fixture_version", "author")
                   .prefetch_related(Prefetch("reviews", queryset=_shown_reviews(), to_attr="read_reviews"),
                                     Prefetch("lab_runs", queryset=LabRun.objects.only("pk").order_by("pk"),
                                              to_attr="read_runs"))
                   .order_by("task__order", "version"))
    return [ListedSubmission(submission=s, reviews=visible_among(author, s, s.read_reviews),
                             run_ids=[run.pk for run in s.read_runs])
            for s in submissions]


def flags_visible_to(user: AnyUser, review: Review) -> list[tuple[Flag, str]]:
    """Flags with their answers: all of it for the author's instructors; the author sees their flags and each
    answer once released; a peer sees none (a dispute and its answer are between author and instructor)."""
    author = review.submission.author
    if access.sees_unreleased(user, author=author):
        return [(flag, flag.resolution) for flag in review.flags.all()]
    if user.pk != author.pk:
        return []
    return [(flag, flag.resolution if flag.resolution_released_at else "") for flag in review.flags.all()]


def visible_disagreement_note(user: AnyUser, submission: Submission) -> str:
    """The disagreement resolution: the instructors', and the author's after a release; never a peer's."""
    if access.sees_unreleased(user, author=submission.author):
        return submission.disagreement_resolution
    if user.pk == submission.author_id and submission.disagreement_released_at:
        return submission.disagreement_resolution
    return ""


def name_of_reviewer(viewer: AnyUser, review: Review) -> str:
    """Instructors of the author see every name; others see an instructor's name, their own, or '익명 동료'."""
    if (review.kind == Review.Kind.INSTRUCTOR or review.reviewer_id == viewer.pk
            or access.sees_names(viewer, author=review.submission.author)):
        return display_name(review.reviewer)
    return _("익명 동료")


def name_of_author(viewer: AnyUser, submission: Submission) -> str:
    if submission.author_id == viewer.pk:
        return _("나")
    return submission.author.get_username() if access.sees_names(viewer, author=submission.author) else _("익명 동료")


def draft_of(author: User, task: EvidenceTask) -> Submission | None:
    return (Submission.objects.filter(task=task, author=author, status=Submission.Status.DRAFT)
            .prefetch_related("lab_runs").first())


def submissions_of(author: User, task: EvidenceTask) -> list[Submission]:
    """The author's submitted versions, newest first; the newest says what it waits for (``waiting``)."""
    submissions: list[Submission] = list(Submission.objects.submitted().filter(task=task, author=author)
                       .annotate(released=Count("reviews", filter=Q(reviews__released_at__isnull=False)))
                       .order_by("-version"))
    if submissions:
        submissions[0].waiting = waiting_for(submissions[0])
    return submissions


def attachable_runs(author: User, task: EvidenceTask) -> list[LabRun]:
    """The author's own practice runs of the lesson's labs; reproductions of peers' runs are never offered."""
    if not task.attach_runs:
        return []
    return list(LabRun.objects.of(author).own_work().filter(lab__lesson=task.lesson).select_related("lab")
                .order_by("-created_at")[:30])


def released_review_counts(user_ids: list[Any]) -> dict[Any, dict[int, list[str]]]:
    """Per author and lesson, the kinds of reviews each author may see of their work: their own
    self-reviews, and others' once released (for the three-track progress view)."""
    result: dict[Any, dict[int, list[str]]] = {}
    reviews = (Review.objects.filter(submission__author_id__in=user_ids)
               .filter(Q(kind=Review.Kind.SELF) | Q(released_at__isnull=False))
               .select_related("submission__task", "rubric_version").order_by("kind", "created_at"))
    for review in reviews:
        result.setdefault(review.submission.author_id, {}).setdefault(review.submission.task.lesson_id, []).append(
            f"{review.submission.task.title}: {review.get_kind_display()} ({review_levels(review)})")
    return result


def review_levels(review: Review) -> str:
    """The level given on each criterion, in the rubric's order: what a review said, not a total."""
    return ", ".join(f"{c['title']} {level_label(c, review.judgements.get(c['key'], ''))}"
                     for c in review.rubric_version.criteria)


def allocations_of(user: User, task: EvidenceTask) -> list[PeerAllocation]:
    return list(PeerAllocation.objects.filter(reviewer=user, submission__task=task).select_related("submission")
                .order_by("-created_at"))


def may_give_back(user: User, task: EvidenceTask) -> bool:
    return not PeerAllocation.objects.filter(reviewer=user, submission__task=task,
                                             end=PeerAllocation.End.RETURNED).exists()


# Calibration


def calibration_examples(task: EvidenceTask) -> list[CalibrationExample]:
    return list(CalibrationExample.objects.filter(task=task, is_active=True).select_related("rubric_version"))


def access_calibration_example(user: AnyUser, task: EvidenceTask, example_id: int) -> CalibrationExample:
    example = CalibrationExample.objects.filter(task=task, is_active=True, pk=example_id).first()
    if example is None:
        raise NotFound(_("그런 연습 예시는 없습니다."))
    return example


def practice_review_of(user: User, example: CalibrationExample) -> CalibrationReview | None:
    return CalibrationReview.objects.filter(example=example, reviewer=user).first()


@dataclass
class CalibrationLine:
    """One criterion of a practice review beside the reference: the learner's level, the reference's, and why."""

    title: str
    mine: str
    reference: str
    why: str

    @property
    def agrees(self) -> bool:
        return self.mine == self.reference


def level_label(criterion: dict, level: str) -> str:
    labels = {lv["key"]: lv["label"] for lv in criterion["levels"]} | {INSUFFICIENT: _("근거 부족 / 보류")}
    return labels.get(level, "-")


def calibration_comparison(practice: CalibrationReview) -> list[CalibrationLine]:
    example = practice.example
    return [CalibrationLine(title=c["title"], mine=level_label(c, practice.judgements.get(c["key"], "")),
                            reference=level_label(c, example.reference.get(c["key"], "")),
                            why=example.reasons.get(c["key"], ""))
            for c in example.rubric_version.criteria]


# Instructors' views


def _minimums(pairs: list[tuple[int, EvidenceTask]]) -> dict[tuple[int, int], int]:
    """The peer minimum for each (author id, task), in two queries whatever their number.

    A learner in several cohorts waits for the lowest minimum among them; a
    cohort that set none uses the file's default, and so does a learner in none.
    """
    memberships = Membership.objects.active().filter(role=CohortRole.LEARNER,
                                                     user_id__in={author for author, _task in pairs})
    cohorts_of: dict[int, list[int]] = {}
    for user_id, cohort_id in memberships.values_list("user_id", "cohort_id"):
        cohorts_of.setdefault(user_id, []).append(cohort_id)
    chosen = {(setting.task_id, setting.cohort_id): setting.min_peer_reviews
              for setting in CohortTaskSetting.objects.filter(
                  cohort_id__in={c for cohorts in cohorts_of.values() for c in cohorts},
                  task__in={task.pk for _author, task in pairs})}
    return {(author, task.pk): min((chosen.get((task.pk, cohort), task.default_min_peer_reviews)
                                    for cohort in cohorts_of.get(author, [])), default=task.default_min_peer_reviews)
            for author, task in pairs}


def peer_minimums(author: User, tasks: Iterable[EvidenceTask]) -> dict[int, int]:
    """``peer_minimum`` for many of one author's tasks at once."""
    return {task_id: minimum for (_author, task_id), minimum in _minimums([(author.pk, t) for t in tasks]).items()}


def peer_minimums_of(submissions: Iterable[Submission]) -> dict[int, int]:
    """``peer_minimum`` for many authors' submissions at once, by submission id."""
    submissions = list(submissions)
    minimums = _minimums([(s.author_id, s.task) for s in submissions])
    return {s.pk: minimums[(s.author_id, s.task_id)] for s in submissions}


def peer_minimum(submission: Submission) -> int:
    """A learner in several cohorts waits for the lowest minimum among them."""
    return peer_minimums_of([submission])[submission.pk]


def reviews_disagree(reviews: list[Review]) -> bool:
    return bool(disagreeing_criteria(reviews))


def disagreeing_criteria(reviews: list[Review]) -> list[str]:
    """Titles of the criteria two non-self reviews judged differently."""
    seen: dict[str, set[str]] = {}
    for review in reviews:
        if review.kind == Review.Kind.SELF:
            continue
        for criterion, level in review.judgements.items():
            seen.setdefault(criterion, set()).add(level)
    if not reviews:
        return []
    titles = {c["key"]: c["title"] for r in reviews for c in r.rubric_version.criteria}
    return [titles.get(key, key) for key, levels in seen.items() if len(levels) > 1]


def reproduction_summary(submission: Submission) -> list[Reproduction]:
    return list(Reproduction.objects.filter(allocation__submission=submission)
                .select_related("allocation__reviewer", "original").order_by("pk"))


@dataclass
class QueueRow:
    """One learner's newest submission of a task, as the instructor's queue shows it."""

    submission: Submission
    peer_done: int
    peer_min: int
    has_instructor_review: bool
    open_flags: int
    disagreement: bool
    unreleased: int
    peer_leased: int = 0
    reproductions: list[str] = field(default_factory=list)
    peer_read: int | None = None  # submitted after reading peer work: the highest similarity to it

    @property
    def state(self) -> str:
        if self.unreleased:
            return "reviewed" if self.has_instructor_review else "needs_review"
        return "released" if self.peer_done or self.has_instructor_review else "needs_review"

    @property
    def waiting_for_peers(self) -> bool:
        return self.peer_done < self.peer_min and not self.has_instructor_review


def instructor_cohorts(instructor: AnyUser, perm: access.Perm = access.Perm.REVIEW) -> QuerySet[Cohort]:
    """The cohorts where the asker may do ``perm``; 404 for someone not on any cohort's teaching side."""
    access.require_sign_in(instructor)
    if not access.is_instructor(instructor):
        raise NotFound(_("찾을 수 없습니다."))
    return access.cohorts_where(instructor, perm)


def _queue_row(submission: Submission, minimum: int) -> QueueRow:
    reviews = list(submission.reviews.all())
    return QueueRow(
        submission=submission,
        peer_done=sum(1 for r in reviews if r.kind == Review.Kind.PEER),
        peer_min=minimum,
        has_instructor_review=any(r.kind == Review.Kind.INSTRUCTOR for r in reviews),
        open_flags=sum(1 for r in reviews for f in r.flags.all() if f.resolved_at is None),
        disagreement=reviews_disagree(reviews) and submission.disagreement_resolved_at is None,
        unreleased=sum(1 for r in reviews if r.kind != Review.Kind.SELF and r.released_at is None),
        peer_leased=sum(1 for a in submission.allocations.all() if a.is_live(timezone.now())),
        reproductions=[r.get_status_display() for a in submission.allocations.all() for r in a.reproductions.all()],
        peer_read=max((int(item["similarity"]) for item in submission.peer_work_read or []), default=None),
    )


def _newest_submissions(learners: QuerySet, task_slug: str = "") -> list[Submission]:
    submissions = (Submission.objects.submitted().filter(author__in=learners)
                   .select_related("task", "author", "rubric_version")
                   .prefetch_related("reviews__rubric_version", "reviews__flags", "allocations__reproductions")
                   .order_by("submitted_at"))
    if task_slug:
        submissions = submissions.filter(task__slug=task_slug)
    newest: dict[tuple[int, int], Submission] = {}
    older: list[Submission] = []
    for submission in submissions:
        previous = newest.get((submission.task_id, submission.author_id))
        if previous is not None and previous.version < submission.version:
            older.append(previous)
        newest[(submission.task_id, submission.author_id)] = submission
    # A review of an older version that still waits for release (a late peer review of 판 1, say) stays in
    # the queue, or nobody would ever release it.
    late = [s for s in older if any(r.kind != Review.Kind.SELF and r.released_at is None for r in s.reviews.all())]
    for submission in late:
        submission.superseded = True
    return list(newest.values()) + late


QUEUE_SORTS = {"oldest": False, "newest": True}


def instructor_queue(instructor: AnyUser, *, cohort_id: int | None = None, task_slug: str = "", state: str = "",
                     flagged: bool = False, disagreement: bool = False, sort: str = "oldest") -> list[QueueRow]:
    """Newest submissions of the instructor's cohorts, with the filters of the review queue, by submitted time
    (oldest first unless ``sort`` is "newest": who has waited longest comes first)."""
    cohorts = instructor_cohorts(instructor)
    if cohort_id:
        cohorts = cohorts.filter(pk=cohort_id)
    learners = members_of(cohorts)
    submissions = sorted(_newest_submissions(learners, task_slug), key=lambda s: (s.submitted_at, s.pk),
                         reverse=QUEUE_SORTS.get(sort, False))
    minimums = peer_minimums_of(submissions)
    rows = [_queue_row(s, minimums[s.pk]) for s in submissions]
    return [row for row in rows
            if (not state or row.state == state) and (not flagged or row.open_flags)
            and (not disagreement or row.disagreement)]


@dataclass
class Candidate:
    """A learner an instructor could hand a waiting submission to, with their current load for the task."""

    user: User
    load: int


@dataclass
class WaitingRow:
    row: QueueRow
    candidates: list[Candidate]


@dataclass
class CohortWaiting:
    """A cohort's submissions still short of its minimum of peer reviews, with what the instructor can do.

    Whom to assign is typed in a search field backed by one list per task (``choices``), never a list per
    row: a class of 100 with 100 waiting rows would otherwise carry 10,000 options.
    """

    cohort: Cohort
    rows: list[WaitingRow]
    choices: dict[int, list[Candidate]] = field(default_factory=dict)  # task id -> who submitted it, least loaded first
    may_change_settings: bool = False
    peer_closed: set[int] = field(default_factory=set)  # task ids whose peer step has closed for this cohort
    more: int = 0  # waiting rows not shown (the longest-waiting come first)


@dataclass
class ReviewerPool:
    """Who among the instructor's learners could take peer work, read once for every waiting row.

    The same rules as ``peer.peer_refusal`` and ``peer.handed_authors``, held as
    sets so a queue of any length costs a fixed number of queries: a candidate
    submitted the task, practised on an example where the task has any, is not
    the author and was never handed this author's work of the task.
    """

    people: list[User]
    submitted: set[tuple[int, int]]  # (task, learner)
    must_practise: set[int]  # tasks with active calibration examples
    practised: set[tuple[int, int]]  # (task, learner)
    handed: set[tuple[int, int, int]]  # (task, reviewer, author)
    load: dict[tuple[int, int], int]  # (task, reviewer) -> allocations that stand for a review
    # Worked out once per task and per (task, author), so a queue of n waiting rows costs n times a pass over
    # one sorted list, not n sorts of every learner.
    _choices: dict[int, list[Candidate]] = field(default_factory=dict, init=False, repr=False)
    _handed_by: dict[tuple[int, int], set[int]] | None = field(default=None, init=False, repr=False)

    def choices_for(self, task: int) -> list[Candidate]:
        """Everyone who could take work of ``task`` from some author (the search field's list), least loaded first."""
        if task not in self._choices:
            result = [Candidate(user=person, load=self.load.get((task, person.pk), 0)) for person in self.people
                      if (task, person.pk) in self.submitted
                      and (task not in self.must_practise or (task, person.pk) in self.practised)]
            self._choices[task] = sorted(result, key=lambda c: (c.load, c.user.get_username()))
        return self._choices[task]

    def candidates_for(self, submission: Submission) -> list[Candidate]:
        """The task's choices less the author and whoever was already handed this author's work of the task;
        least loaded first, then by name."""
        if self._handed_by is None:
            self._handed_by = {}
            for task_id, reviewer_id, author_id in self.handed:
                self._handed_by.setdefault((task_id, author_id), set()).add(reviewer_id)
        author = submission.author_id
        handed = self._handed_by.get((submission.task_id, author), set())
        return [c for c in self.choices_for(submission.task_id) if c.user.pk != author and c.user.pk not in handed]


def reviewer_pool(instructor: AnyUser, tasks: Iterable[int]) -> ReviewerPool:
    """The ``ReviewerPool`` of the learners of every cohort the instructor teaches, for the given task ids."""
    task_ids = set(tasks)
    learners = members_of(instructor_cohorts(instructor, access.Perm.ASSIGN))
    ids = learners.values("pk")
    must_practise = set(CalibrationExample.objects.filter(task_id__in=task_ids, is_active=True)
                        .values_list("task_id", flat=True))
    counting = (PeerAllocation.objects.counting(timezone.now()).filter(submission__task_id__in=task_ids,
                                                                       reviewer_id__in=ids)
                .values_list("submission__task_id", "reviewer_id").annotate(n=Count("pk")))
    return ReviewerPool(
        people=list(learners.order_by("username")),
        submitted=set(Submission.objects.submitted().filter(task_id__in=task_ids, author_id__in=ids)
                      .values_list("task_id", "author_id")),
        must_practise=must_practise,
        practised=set(CalibrationReview.objects.filter(example__task_id__in=must_practise, example__is_active=True,
                                                       reviewer_id__in=ids)
                      .values_list("example__task_id", "reviewer_id")),
        handed=set(PeerAllocation.objects.filter(submission__task_id__in=task_ids, reviewer_id__in=ids)
                   .values_list("submission__task_id", "reviewer_id", "submission__author_id")),
        load={(task, reviewer): n for task, reviewer, n in counting},
    )


def waiting_list(instructor: AnyUser, *, shown: int | None = None) -> list[CohortWaiting]:
    """Per cohort the instructor teaches: who is waiting for peer reviews, and who could review them; with
    ``shown``, only that many rows per cohort (the longest-waiting) carry their candidates, and ``more`` counts
    the rest."""
    cohorts = list(instructor_cohorts(instructor).order_by("name"))
    chosen = {(setting.task_id, setting.cohort_id): setting.min_peer_reviews
              for setting in CohortTaskSetting.objects.filter(cohort__in=cohorts)}
    waiting: list[tuple[Cohort, list[QueueRow]]] = []
    for cohort in cohorts:
        rows = [_queue_row(s, chosen.get((s.task_id, cohort.pk), s.task.default_min_peer_reviews))
                for s in _newest_submissions(members_of(cohort))]
        waiting.append((cohort, [row for row in rows if row.waiting_for_peers and not row.submission.superseded]))
    hidden = {cohort.pk: max(0, len(rows) - shown) if shown is not None else 0 for cohort, rows in waiting}
    if shown is not None:
        waiting = [(cohort, rows[:shown]) for cohort, rows in waiting]
    pool = reviewer_pool(instructor, {row.submission.task_id for _cohort, rows in waiting for row in rows})
    from .schedule import (
        dates_table,  # schedule reads the models only; imported here to keep the rooms apart
    )

    now = timezone.now()
    closed = dates_table([cohort.pk for cohort in cohorts],
                         {row.submission.task for _cohort, rows in waiting for row in rows})
    return [CohortWaiting(cohort=cohort, rows=[WaitingRow(row=row, candidates=pool.candidates_for(row.submission))
                                               for row in rows],
                          choices={task_id: pool.choices_for(task_id)
                                   for task_id in {row.submission.task_id for row in rows}},
                          may_change_settings=access.may_change_cohort_setting(instructor, cohort),
                          peer_closed={task_id for (cohort_id, task_id), dates in closed.items()
                                       if cohort_id == cohort.pk and dates.peer_due_at and dates.peer_due_at < now},
                          more=hidden[cohort.pk])
            for cohort, rows in waiting]


@dataclass
class GridCell:
    level: str
    citation: str
    flags: list[Flag]


@dataclass
class GridColumn:
    review: Review
    reviewer: str
    reproduction: list[Reproduction]


@dataclass
class ReviewGrid:
    """Criteria × reviewers for the author's instructors: levels, citations, flags, each peer's reproduction."""

    columns: list[GridColumn]
    rows: list[tuple[str, list[GridCell]]]


def review_grid(instructor: AnyUser, submission: Submission) -> ReviewGrid | None:
    if not access.sees_names(instructor, author=submission.author):
        return None
    reviews = reviews_visible_to(instructor, submission)
    reproductions = list(Reproduction.objects.filter(allocation__submission=submission)
                         .select_related("allocation").order_by("pk"))
    columns = [GridColumn(review=review, reviewer=display_name(review.reviewer),
                          reproduction=[r for r in reproductions if r.allocation.reviewer_id == review.reviewer_id]
                          if review.kind == Review.Kind.PEER else [])
               for review in reviews]
    rows = [(c["title"], [GridCell(level=level_label(c, review.judgements.get(c["key"], "")),
                                   citation=review.citations.get(c["key"], ""),
                                   flags=[f for f in review.flags.all() if f.criterion == c["key"]])
                          for review in reviews])
            for c in submission.rubric_version.criteria]
    return ReviewGrid(columns=columns, rows=rows)


def may_export(user: AnyUser) -> bool:
    """Whether the CSV exports and the audit log hold anything for this person (instructors, not assistants)."""
    return access.cohorts_where(user, access.Perm.EXPORT).exists()


def cohorts_of(instructor: AnyUser) -> list[Cohort]:
    """The cohorts whose work the asker reviews (the queue's cohort filter)."""
    return list(access.cohorts_where(instructor, access.Perm.REVIEW)) if instructor.is_authenticated else []


def learners_of(cohort: Cohort) -> list[User]:
    """The cohort's active learners by username (the caller has passed ``access_cohort``)."""
    return list(members_of(cohort).order_by("username"))


def access_cohort_learner(instructor: AnyUser, cohort_id: int, username: str) -> tuple[Cohort, User]:
    """A learner of a cohort this instructor may see; 404 for anyone outside it, as for another cohort."""
    cohort = access_cohort(instructor, cohort_id, access.Perm.READ_PROGRESS)
    learner = members_of(cohort).filter(username=username).first()
    if learner is None:
        raise NotFound(_("이 기수에 그런 학습자는 없습니다."))
    return cohort, learner


def cohort_peer_minimum(cohort: Cohort, task: EvidenceTask) -> int:
    """The minimum number of peer reviews ``cohort`` waits for on ``task``: its own setting, else the file's."""
    setting = CohortTaskSetting.objects.filter(cohort=cohort, task=task).first()
    return setting.min_peer_reviews if setting else task.default_min_peer_reviews


def waiting_in_cohort(instructor: AnyUser, cohort: Cohort, task: EvidenceTask) -> int:
    """How many of ``cohort``'s submissions of ``task`` are waiting for peer reviews now."""
    return sum(1 for group in waiting_list(instructor) if group.cohort.pk == cohort.pk
               for item in group.rows if item.row.submission.task_id == task.pk)


def access_cohort(instructor: AnyUser, cohort_id: int,
                  perm: access.Perm = access.Perm.CHANGE_SETTINGS) -> Cohort:
    """A cohort where the asker may do ``perm`` (by default change its settings); 404 for anyone else."""
    access.require_sign_in(instructor)
    cohort = Cohort.objects.filter(pk=cohort_id).first()
    if cohort is None or not access.may(instructor, perm, cohort):
        raise NotFound(_("그런 기수는 없습니다."))
    return cohort


def waiting_for(submission: Submission, *, minimum: int | None = None) -> str:
    """Say what a submitted version waits for, so the author knows the next step is someone else's.

    Counts reviews, never shows them: what an unreleased review says stays
    hidden until an instructor releases it. Lists pass the ``minimum`` they read
    with ``peer_minimums`` and prefetch the reviews, so each row costs nothing.
    """
    kinds = [(review.kind, review.released_at) for review in submission.reviews.all()]
    peers = sum(1 for kind, _at in kinds if kind == Review.Kind.PEER)
    minimum = peer_minimum(submission) if minimum is None else minimum
    instructor_reviewed = any(kind == Review.Kind.INSTRUCTOR for kind, _at in kinds)
    if peers < minimum and not instructor_reviewed:  # an instructor's review is the way out of a short peer step
        return _("동료 검토 %(done)d/%(minimum)d 기다리는 중") % {"done": peers, "minimum": minimum}
    if not any(kind == Review.Kind.INSTRUCTOR for kind, _at in kinds):
        return _("강사 검토 기다리는 중")
    if any(kind != Review.Kind.SELF and released is None for kind, released in kinds):
        return _("검토 공개 기다리는 중")
    return ""


def record_links_of(user: User) -> dict[int, list[RecordLink]]:
    """Per lesson, the learner's submitted versions (with what each waits for) and the reviews they may read."""
    links: dict[int, list[RecordLink]] = {}
    submissions = list(
        Submission.objects.filter(author=user).submitted().select_related("task")
        .prefetch_related(Prefetch("reviews", queryset=Review.objects.only("id", "submission_id", "kind", "released_at")))
        .order_by("task__order", "-version"))
    minimums = peer_minimums(user, {submission.task for submission in submissions})
    for submission in submissions:
        url = reverse("evidence:submission", args=[submission.pk])
        links.setdefault(submission.task.lesson_id, []).append(RecordLink(
            track="activity",
            label=_("제출 %(title)s · 판 %(n)d") % {"title": submission.task.title, "n": submission.version},
            url=url, at=submission.submitted_at,
            waiting=waiting_for(submission, minimum=minimums[submission.task_id]),
        ))
    reviews = (Review.objects.filter(submission__author=user)
               .filter(Q(kind=Review.Kind.SELF) | Q(released_at__isnull=False))
               .select_related("submission__task").order_by("submission__task__order", "kind", "created_at"))
    for review in reviews:
        links.setdefault(review.submission.task.lesson_id, []).append(RecordLink(
            track="review",
            label=_("%(kind)s · %(title)s 판 %(n)d") % {
                "kind": review.get_kind_display(), "title": review.submission.task.title,
                "n": review.submission.version},
            url=reverse("evidence:submission", args=[review.submission_id]) + f"#review-{review.pk}",
            at=review.released_at or review.created_at,
        ))
    return links


def fixture_uses(fixture: Fixture) -> list[FixtureUse]:
    """Evidence tasks on ``fixture``, by the lines their instructions quote; and each passage of their
    instructions and rubric that names a line by number or restates its values ("2번 줄이 평일만 …")."""
    uses = []
    for task in EvidenceTask.objects.active().filter(fixture=fixture).select_related("current_rubric"):
        uses.append(use("남길 증거 과제", task.title, lines_referred(task.instructions_html, fixture.slug, own=True)))
        uses += named_uses("남길 증거 과제 (줄 번호나 값으로 가리킴)", task.title, task.instructions_html,
                           fixture.current_version)
        criteria = task.current_rubric.criteria if task.current_rubric else []
        for criterion in criteria:
            texts = [criterion.get("title", "")] + [level.get("description", "") for level in criterion.get("levels", [])]
            uses += named_uses("기준표 (줄 번호나 값으로 가리킴)", f"{task.title} · {criterion.get('title', '')}",
                               "\n".join(texts), fixture.current_version)
    return uses
