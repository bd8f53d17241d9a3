"""An author's own work: drafts, submitted versions, citations pinned to a fixture version, attachable runs."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Max, Q

from exercises.labs.models import LabRun
from lessons.models import FixtureVersion

from ..models import (
    EvidenceTask,
    PeerAllocation,
    Reproduction,
    Submission,
)
from .minimums import waiting_for


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


def draft_of(author: User, task: EvidenceTask) -> Submission | None:
    return (Submission.objects.filter(task=task, author=author, status=Submission.Status.DRAFT)
            .prefetch_related("lab_runs").first())


def writing_version(author: User, task: EvidenceTask, draft: Submission | None) -> int:
    """The version the task page writes: its draft's, or the one after the last submitted.

    The page sends it with every save, so a save still on its way when that version was
    submitted is refused instead of opening the next version with the older text.
    """
    if draft is not None:
        return draft.version
    return (Submission.objects.filter(task=task, author=author).aggregate(n=Max("version"))["n"] or 0) + 1


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


def allocations_of(user: User, task: EvidenceTask) -> list[PeerAllocation]:
    return list(PeerAllocation.objects.filter(reviewer=user, submission__task=task).select_related("submission")
                .order_by("-created_at"))


def may_give_back(user: User, task: EvidenceTask) -> bool:
    return not PeerAllocation.objects.filter(reviewer=user, submission__task=task,
                                             end=PeerAllocation.End.RETURNED).exists()


def reproduction_summary(submission: Submission) -> list[Reproduction]:
    return list(Reproduction.objects.filter(allocation__submission=submission)
                .select_related("allocation__reviewer", "original").order_by("pk"))
