"""The instructor's queue, the waiting list, the reviewer pool and the review grid."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count, QuerySet
from django.utils import timezone

from tutor import access
from tutor.access import AnyUser
from tutor.accounts.selectors import display_name
from tutor.models import Cohort, members_of

from ..models import (
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
from .access import instructor_cohorts
from .calibration import level_label
from .minimums import peer_minimums_of
from .reviews import reviews_disagree, reviews_visible_to


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
    from ..schedule import (
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


def waiting_in_cohort(instructor: AnyUser, cohort: Cohort, task: EvidenceTask) -> int:
    """How many of ``cohort``'s submissions of ``task`` are waiting for peer reviews now."""
    return sum(1 for group in waiting_list(instructor) if group.cohort.pk == cohort.pk
               for item in group.rows if item.row.submission.task_id == task.pk)
