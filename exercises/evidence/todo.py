"""What each person owes (할 일), the teachers' digest lines, and the day's "due tomorrow" notices.

Read through ``tutor.notices.registry`` (the evidence AppConfig's hooks). Every
list is read in a fixed number of queries, whatever the class size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access
from tutor.access import AnyUser
from tutor.models import Cohort, Membership
from tutor.notices.registry import TodoItem
from tutor.roles import CohortRole

from . import schedule
from .models import (
    INSUFFICIENT,
    CohortTaskSetting,
    EvidenceTask,
    PeerAllocation,
    Review,
    Submission,
)

DUE_SOON = timedelta(days=7)
STUCK_WITHIN = timedelta(days=2)
# A peer step that closed longer ago than this is not announced any more (a schedule set in the past, or the
# first start of a worker on an old database, must not send a burst of stale notices).
PEER_CLOSED_ANNOUNCED_FOR = timedelta(days=3)


def _attended(user: User) -> dict[int, int]:
    """learner's cohort ids → the first (the one whose schedule holds), as ``schedule.learner_cohort``."""
    ids = sorted(Membership.objects.active().filter(user=user, role=CohortRole.LEARNER)
                 .values_list("cohort_id", flat=True))
    return {cid: ids[0] for cid in ids}


def _due_items(user: User, now: datetime) -> list[TodoItem]:
    cohort_ids = _attended(user)
    if not cohort_ids:
        return []
    cohort_id = min(cohort_ids)
    tasks = list(EvidenceTask.objects.active().select_related("lesson"))
    table = schedule.dates_table([cohort_id], tasks)
    extended = {task_id: due for (c, task_id, learner), due in schedule.extensions_table([cohort_id]).items()
                if learner == user.pk and c == cohort_id}
    submitted = set(Submission.objects.submitted().filter(author=user).values_list("task_id", flat=True))
    items = []
    for task in tasks:
        dates = table[(cohort_id, task.pk)]
        due = extended.get(task.pk, dates.due_at)
        if task.pk in submitted or due is None or not dates.is_open(now):
            continue
        url = reverse("evidence:task", args=[task.slug])
        if due < now:
            items.append(TodoItem("overdue", _("마감 지남: %(t)s") % {"t": task.title}, url, due))
        elif due - now <= DUE_SOON:
            items.append(TodoItem("due", _("마감 예정: %(t)s") % {"t": task.title}, url, due))
    return items


def _resubmissions(user: User) -> list[TodoItem]:
    """Newest versions whose released instructor review judged a criterion 근거 부족 / 보류: the learner is asked
    to submit again (a newer draft or version clears it)."""
    items = []
    newest: dict[int, Submission] = {}
    for submission in Submission.objects.filter(author=user).select_related("task").order_by("version"):
        newest[submission.task_id] = submission
    asked = (Review.objects.released().filter(kind=Review.Kind.INSTRUCTOR,
                                              submission__in=[s for s in newest.values() if s.status == "submitted"])
             .select_related("submission__task"))
    for review in asked:
        if INSUFFICIENT in review.judgements.values():
            task = review.submission.task
            items.append(TodoItem("resubmission", _("다시 제출 요청: %(t)s") % {"t": task.title},
                                  reverse("evidence:task", args=[task.slug])))
    return items


def learner_todo(user: User, *, now: datetime | None = None) -> list[TodoItem]:
    now = now or timezone.now()
    items = [TodoItem("peer_review", _("동료 검토: %(t)s") % {"t": a.submission.task.title},
                      reverse("evidence:submission", args=[a.submission_id]), a.expires_at)
             for a in PeerAllocation.objects.live(now).filter(reviewer=user).select_related("submission__task")]
    items += _due_items(user, now)
    items += [TodoItem("review_released", _("새로 공개된 검토: %(t)s 판 %(v)d")
                       % {"t": r.submission.task.title, "v": r.submission.version},
                       reverse("evidence:submission", args=[r.submission_id]))
              for r in Review.objects.released().filter(submission__author=user, opened_at__isnull=True)
              .exclude(kind=Review.Kind.SELF).select_related("submission__task")]
    return items + _resubmissions(user)


def stuck_learners(cohort_ids: list[int], now: datetime) -> dict[int, list[tuple[User, EvidenceTask, datetime]]]:
    """Per cohort: learners with nothing submitted for a task due within two days or already past due."""
    tasks = list(EvidenceTask.objects.active())
    table = schedule.dates_table(cohort_ids, tasks)
    extensions = schedule.extensions_table(cohort_ids)
    members = list(Membership.objects.active().filter(cohort_id__in=cohort_ids, role=CohortRole.LEARNER)
                   .select_related("user").order_by("user__username"))
    submitted = set(Submission.objects.submitted().filter(author__in=[m.user_id for m in members])
                    .values_list("author_id", "task_id"))
    stuck: dict[int, list[tuple[User, EvidenceTask, datetime]]] = {}
    for member in members:
        for task in tasks:
            dates = table[(member.cohort_id, task.pk)]
            due = extensions.get((member.cohort_id, task.pk, member.user_id), dates.due_at)
            if due is None or (member.user_id, task.pk) in submitted or not dates.is_open(now):
                continue
            if due - now <= STUCK_WITHIN:
                stuck.setdefault(member.cohort_id, []).append((member.user, task, due))
    return stuck


@dataclass(frozen=True)
class PeerStepClosed:
    """A cohort's peer-review step of one task has closed while some of its learners' newest submissions still
    have fewer peer reviews than the cohort's minimum (and no instructor review to stand in)."""

    cohort: Cohort
    task: EvidenceTask
    closed_at: datetime
    waiting: int


def peer_steps_closed(cohorts: list[Cohort], now: datetime, *, since: timedelta | None = None) -> list[PeerStepClosed]:
    """The closed peer steps of ``cohorts`` with someone still waiting (closed after ``now - since`` when given).

    Four queries whatever the class size: schedules, minimums, memberships, and the submissions of the closed
    tasks with their peer and instructor review counts. The newest submitted version of each learner counts,
    as on the queue.
    """
    tasks = list(EvidenceTask.objects.active())
    table = schedule.dates_table([c.pk for c in cohorts], tasks)
    closed = {key: dates.peer_due_at for key, dates in table.items()
              if dates.peer_due_at is not None and dates.peer_due_at <= now
              and (since is None or dates.peer_due_at > now - since)}
    if not closed:
        return []
    minimum = {(row.cohort_id, row.task_id): row.min_peer_reviews
               for row in CohortTaskSetting.objects.filter(cohort__in=cohorts)}
    learners: dict[int, set[int]] = {}
    for cohort_id, user_id in (Membership.objects.active().filter(cohort__in=cohorts, role=CohortRole.LEARNER)
                               .values_list("cohort_id", "user_id")):
        learners.setdefault(cohort_id, set()).add(user_id)
    task_ids = {task_id for _cohort, task_id in closed}
    authors = set().union(*learners.values()) if learners else set()
    newest: dict[tuple[int, int], tuple[int, int, bool]] = {}  # (task, author) → (version, peer reviews, instructor)
    for row in (Submission.objects.submitted().filter(task_id__in=task_ids, author_id__in=authors)
                .annotate(peers=Count("reviews", filter=Q(reviews__kind=Review.Kind.PEER)),
                          instructors=Count("reviews", filter=Q(reviews__kind=Review.Kind.INSTRUCTOR)))
                .values_list("task_id", "author_id", "version", "peers", "instructors")):
        task_id, author_id, version, peers, instructors = row
        if (task_id, author_id) not in newest or newest[(task_id, author_id)][0] < version:
            newest[(task_id, author_id)] = (version, peers, bool(instructors))
    by_id = {task.pk: task for task in tasks}
    found = []
    for cohort in cohorts:
        for (cohort_id, task_id), closed_at in sorted(closed.items(), key=lambda item: (item[1], item[0])):
            if cohort_id != cohort.pk:
                continue
            task = by_id[task_id]
            needed = minimum.get((cohort_id, task_id), task.default_min_peer_reviews)
            waiting = sum(1 for author in learners.get(cohort_id, ())
                          if (entry := newest.get((task_id, author))) and entry[1] < needed and not entry[2])
            if waiting:
                found.append(PeerStepClosed(cohort=cohort, task=task, closed_at=closed_at, waiting=waiting))
    return found


def _peer_closed_title(step: PeerStepClosed) -> str:
    return _("%(c)s: 동료 검토 마감이 지났는데 기다리는 제출 %(n)d건 (%(t)s)") % {
        "c": step.cohort.name, "n": step.waiting, "t": step.task.title}


def peer_closed_notices(now: datetime) -> int:
    """Tell each person who reviews for a cohort, once, that its peer step of a task closed with learners still
    waiting; the notice links to the queue's waiting list, where each row offers 직접 검토하기, 검토자 배정 and
    lowering the cohort's minimum. Idempotent per (cohort, task, close time, person): a later change of the
    schedule is a new event, a retry or a second worker host is not."""
    from tutor.notices.models import Kind
    from tutor.notices.services import notify

    steps = peer_steps_closed(list(Cohort.objects.all()), now, since=PEER_CLOSED_ANNOUNCED_FOR)
    if not steps:
        return 0
    reviewers: dict[int, list[User]] = {}
    for membership in (Membership.objects.active().filter(cohort__in={s.cohort.pk for s in steps},
                                                          role__in=access.GRANTS[access.Perm.REVIEW])
                       .select_related("user").order_by("user_id")):
        if membership.user.is_active:
            reviewers.setdefault(membership.cohort_id, []).append(membership.user)
    made = 0
    for step in steps:
        for person in reviewers.get(step.cohort.pk, []):
            notify(user=person, kind=Kind.PEER_CLOSED,
                   key=f"peer_closed:{step.cohort.pk}:{step.task.pk}:{int(step.closed_at.timestamp())}:{person.pk}",
                   title=_peer_closed_title(step), url=reverse("evidence:queue") + "#waiting-title",
                   body=_("「%(t)s」의 동료 검토 마감(%(at)s)이 지났습니다. 검토 대기열에서 제출마다 직접 검토하거나, "
                          "다른 학습자를 배정하거나, 이 기수의 최소 동료 검토 수를 낮출 수 있습니다.")
                   % {"t": step.task.title, "at": schedule.local_text(step.closed_at)})
            made += 1
    return made


def teacher_todo(user: User, *, now: datetime | None = None) -> list[TodoItem]:
    """Per cohort the asker reviews for: waiting submissions, disagreements, open flags, stuck learners."""
    from .selectors import instructor_queue

    if not access.is_instructor(user):
        return []
    now = now or timezone.now()
    cohorts = list(access.cohorts_where(user, access.Perm.REVIEW).order_by("name"))
    items: list[TodoItem] = []
    queue_url = reverse("evidence:queue")
    for cohort in cohorts:
        rows = instructor_queue(user, cohort_id=cohort.pk)
        counts = {
            "waiting_review": sum(1 for r in rows if r.state == "needs_review"),
            "disagreement": sum(1 for r in rows if r.disagreement),
            "flag": sum(r.open_flags for r in rows),
        }
        titles = {"waiting_review": _("%(c)s: 검토를 기다리는 제출 %(n)d건"),
                  "disagreement": _("%(c)s: 검토 불일치 %(n)d건"), "flag": _("%(c)s: 이의 제기 %(n)d건")}
        filters = {"waiting_review": "?state=needs_review", "disagreement": "?disagreement=1", "flag": "?flagged=1"}
        for kind, count in counts.items():
            if count:
                items.append(TodoItem(kind, titles[kind] % {"c": cohort.name, "n": count},
                                      f"{queue_url}{filters[kind]}&cohort={cohort.pk}", count=count,
                                      cohort=cohort.name))
    items += [TodoItem("peer_closed", _peer_closed_title(step), f"{queue_url}#waiting-title", step.closed_at,
                       count=step.waiting, cohort=step.cohort.name)
              for step in peer_steps_closed(cohorts, now)]
    progress_cohorts = [c for c in cohorts if access.may(user, access.Perm.READ_PROGRESS, c)]
    stuck = stuck_learners([c.pk for c in progress_cohorts], now)
    for cohort in progress_cohorts:
        people = stuck.get(cohort.pk, [])
        if people:
            soonest = min(due for _u, _t, due in people)
            items.append(TodoItem("stuck_learner", _("%(c)s: 마감이 가까운데 제출이 없는 학습자 %(n)d명")
                                  % {"c": cohort.name, "n": len({u.pk for u, _t, _d in people})},
                                  reverse("evidence:cohort-progress", args=[cohort.pk]) + "?show=behind",
                                  soonest, count=len(people), cohort=cohort.name))
    return items


def todo_for(user: AnyUser) -> list[TodoItem]:
    if not user.is_authenticated:
        return []
    assert isinstance(user, User)
    return learner_todo(user) + teacher_todo(user)


def digest_lines(user: User) -> list[str]:
    return [f"- {item.title}" for item in teacher_todo(user)]


def due_tomorrow_notices(day: date) -> int:
    """On ``day``, tell every learner with nothing submitted for a task due the next day (Seoul time); once each."""
    from tutor.notices.models import Kind
    from tutor.notices.services import notify

    tomorrow = day + timedelta(days=1)
    now = timezone.now()
    cohort_ids = list(Cohort.objects.values_list("pk", flat=True))
    made = 0
    for cohort_people in stuck_learners(cohort_ids, now).values():
        for learner, task, due in cohort_people:
            if timezone.localtime(due).date() != tomorrow:
                continue
            notify(user=learner, kind=Kind.DUE, key=f"due:{task.pk}:{learner.pk}:{tomorrow.isoformat()}",
                   title=_("내일 마감: %(t)s (%(at)s)") % {"t": task.title, "at": schedule.local_text(due)},
                   url=reverse("evidence:task", args=[task.slug]),
                   body=_("아직 제출하지 않았습니다. 마감 뒤에도 제출할 수 있지만 '기한 후 제출'로 표시됩니다."))
            made += 1
    return made
