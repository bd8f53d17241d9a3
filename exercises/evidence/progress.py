"""The cohort progress table: one row per learner, read in the same few queries for 5 or 200 learners.

Three tracks stay apart: activity facts (last activity, lessons opened, labs run,
grounding attempts) and, per task, the evidence state (submitted / late / missing /
waiting for review). Nothing here says "mastered".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import quote

from django.contrib.auth.models import User
from django.db.models import Count, Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from exercises.labs.models import LabRun
from lessons.models import CompletionRecord, SelfReport
from tutor import access
from tutor.access import AnyUser
from tutor.models import Cohort, members_of

from . import schedule
from .models import EvidenceTask, Review, Submission
from .selectors import access_cohort

STATE_LABELS = {"submitted": _("제출"), "late": _("기한 후 제출"), "missing": _("미제출 (마감 지남)"),
                "waiting_review": _("검토 대기"), "open": _("진행 중"), "not_open": _("열리기 전")}
FILTERS = ("not_started", "behind", "waiting_for_me")
QUIET = frozenset({"open", "not_open"})  # nothing submitted, and nothing is late yet
QUIET_AFTER = timedelta(days=7)
URL_SAFE = "!$&'()*+,;=/~:@"  # what ``reverse()`` leaves unquoted in a path argument (RFC 3986 sub-delims and more)
SORTS = ("username", "last_activity", "behind")


@dataclass
class TaskCell:
    slug: str
    title: str
    state: str
    late: bool = False
    due_at: datetime | None = None
    submission_id: int | None = None
    reviews: list[str] = field(default_factory=list)  # kinds of the reviews it has, e.g. ["본인 검토", "동료 검토"]

    @property
    def quiet(self) -> bool:
        """Nothing submitted, nothing late, and no due time within the coming week: a card counts it only."""
        return self.state in QUIET and (self.due_at is None or self.due_at - timezone.now() > QUIET_AFTER)

    @property
    def label(self) -> str:
        label = str(STATE_LABELS[self.state])
        return f"{label} · {STATE_LABELS['late']}" if self.late and self.state != "late" else label


@dataclass
class LearnerRow:
    learner: User
    url: str
    last_activity: datetime | None = None
    lessons_opened: int = 0
    labs_run: int = 0
    grounding_attempts: int = 0
    understood: int = 0  # self-report: "이해했어요" given (its own track, never a grade)
    tasks: list[TaskCell] = field(default_factory=list)

    @property
    def not_started(self) -> bool:
        return self.last_activity is None

    @property
    def behind(self) -> bool:
        return any(cell.state == "missing" for cell in self.tasks)

    @property
    def waiting_for_me(self) -> bool:
        return any(cell.state == "waiting_review" for cell in self.tasks)

    @property
    def notable_tasks(self) -> list[TaskCell]:
        """The cells a card shows one by one: a submission, a missed due time, or a due time still ahead.
        With forty-odd tasks in the course, a card listing every "진행 중" would be mostly noise (and long at
        360 px); those are counted in ``quiet_tasks`` instead. The CSV and the API keep every cell."""
        return [cell for cell in self.tasks if not cell.quiet]

    @property
    def quiet_tasks(self) -> int:
        return sum(1 for cell in self.tasks if cell.quiet)


def _latest(*values: datetime | None) -> datetime | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def cohort_table(user: AnyUser, cohort_id: int, *, show: str = "", sort: str = "username",
                 now: datetime | None = None) -> tuple[Cohort, list[EvidenceTask], list[LearnerRow]]:
    """The progress table of a cohort the asker may read; 404 for anyone else (an assistant may read it)."""
    cohort = access_cohort(user, cohort_id, access.Perm.READ_PROGRESS)
    now = now or timezone.now()
    learners = list(members_of(cohort).order_by("username"))
    ids = [learner.pk for learner in learners]
    tasks = list(EvidenceTask.objects.active().order_by("lesson__order", "order"))
    dates = schedule.dates_table([cohort.pk], tasks)
    extensions = schedule.extensions_table([cohort.pk])
    facts: dict[tuple[int, str], tuple[int, datetime | None]] = {
        (row["user_id"], row["kind"]): (row["n"], row["last"])
        for row in CompletionRecord.objects.filter(user_id__in=ids).values("user_id", "kind")
        .annotate(n=Count("lesson_id", distinct=True), last=Max("at"))}
    last_record: dict[int, datetime | None] = {}
    for (uid, _kind), (_n, last) in facts.items():
        last_record[uid] = _latest(last_record.get(uid), last)
    attempts = {row["user_id"]: row["n"] for row in CompletionRecord.objects.filter(
        user_id__in=ids, kind=CompletionRecord.Kind.EXERCISE_ATTEMPTED).values("user_id").annotate(n=Count("id"))}
    runs = {row["user_id"]: (row["n"], row["last"]) for row in LabRun.objects.filter(user_id__in=ids).own_work()
            .values("user_id").annotate(n=Count("id"), last=Max("created_at"))}
    newest: dict[tuple[int, int], Submission] = {}
    last_submit: dict[int, datetime | None] = {}
    for submission in (Submission.objects.filter(author_id__in=ids).order_by("version")
                       .only("pk", "author_id", "task_id", "status", "submitted_at", "due_at", "updated_at")):
        last_submit[submission.author_id] = _latest(last_submit.get(submission.author_id), submission.updated_at)
        if submission.status == Submission.Status.SUBMITTED:
            newest[(submission.author_id, submission.task_id)] = submission
    understood = {row["user_id"]: row["n"] for row in SelfReport.objects.filter(user_id__in=ids)
                  .values("user_id").annotate(n=Count("id"))}
    review_kinds: dict[int, list[str]] = {}
    labels = dict(Review.Kind.choices)
    reviewed: set[int] = set()  # by an instructor
    peer_done: set[int] = set()
    unreleased: set[int] = set()
    for submission_id, kind, released_at in (Review.objects.filter(submission_id__in=[s.pk for s in newest.values()])
                                             .order_by("created_at").values_list("submission_id", "kind",
                                                                                 "released_at")):
        review_kinds.setdefault(submission_id, []).append(str(labels[kind]))
        if kind == Review.Kind.INSTRUCTOR:
            reviewed.add(submission_id)
        elif kind == Review.Kind.PEER:
            peer_done.add(submission_id)
        if kind != Review.Kind.SELF and released_at is None:
            unreleased.add(submission_id)
    # "검토 대기" is the queue's needs_review (``QueueRow.state``), worked out from the rows read above instead of
    # building the whole queue: no instructor review yet, and either a review waits for release or no peer
    # review came. ``test_progress_waiting_agrees_with_the_queue`` holds the two equal.
    waiting = ({pk for pk in (s.pk for s in newest.values())
                if pk not in reviewed and (pk in unreleased or pk not in peer_done)}
               if access.may(user, access.Perm.REVIEW, cohort) else set())
    # Per task once, not per learner and task: the ids, texts and cohort dates the cells need.
    columns = [(task.pk, task.slug, task.title, task_dates, task_dates.is_open(now))
               for task, task_dates in ((task, dates[(cohort.pk, task.pk)]) for task in tasks)]
    extended = {(task_id, learner_id): due for (_c, task_id, learner_id), due in extensions.items()}
    learner_url = reverse("evidence:cohort-learner", args=[cohort.pk, "__learner__"])
    rows = []
    for learner in learners:
        uid = learner.pk
        row = LearnerRow(learner=learner, url=learner_url.replace("__learner__", quote(learner.username, safe=URL_SAFE)))
        opened = facts.get((uid, CompletionRecord.Kind.OPENED), (0, None))
        row.lessons_opened = opened[0]
        row.grounding_attempts = attempts.get(uid, 0)
        row.understood = understood.get(uid, 0)
        row.labs_run, last_run = runs.get(uid, (0, None))
        row.last_activity = _latest(last_run, last_submit.get(uid), last_record.get(uid))
        for task_id, slug, title, task_dates, is_open in columns:
            due = extended.get((task_id, uid), task_dates.due_at)
            latest = newest.get((uid, task_id))
            if latest is not None:
                pk = latest.pk
                state = "waiting_review" if pk in waiting else ("late" if latest.late_by else "submitted")
                row.tasks.append(TaskCell(slug, title, state, bool(latest.late_by), due, pk, review_kinds.get(pk, [])))
            elif not is_open:
                row.tasks.append(TaskCell(slug, title, "not_open", due_at=due))
            else:
                row.tasks.append(TaskCell(slug, title, "missing" if due and due < now else "open", due_at=due))
        rows.append(row)
    if show in FILTERS:
        rows = [row for row in rows if getattr(row, show)]
    if sort == "last_activity":
        rows.sort(key=lambda r: (r.last_activity is not None, r.last_activity or now))
    elif sort == "behind":
        rows.sort(key=lambda r: -sum(1 for c in r.tasks if c.state == "missing"))
    return cohort, tasks, rows


def csv_rows(tasks: list[EvidenceTask], rows: list[LearnerRow]) -> list[list[object]]:
    """The same table for a spreadsheet (``tutor.spreadsheet.to_csv`` neutralises formulas)."""
    header: list[object] = ["아이디", "이름", "마지막 활동", "연 레슨", "실습 실행", "근거 연습 제출", "이해했어요 (자기 점검)"]
    header += [task.title for task in tasks]
    body: list[list[object]] = [header]
    for row in rows:
        body.append([row.learner.username, row.learner.get_full_name(), schedule.local_text(row.last_activity),
                     row.lessons_opened, row.labs_run, row.grounding_attempts, row.understood,
                     *[cell.label + (f" ({', '.join(cell.reviews)})" if cell.reviews else "") for cell in row.tasks]])
    return body
