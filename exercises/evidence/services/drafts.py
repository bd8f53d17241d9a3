"""The author's side: drafts, the submission that seals one, and what they read of peers' work."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from rapidfuzz import fuzz, utils

from exercises.labs.models import LabRun
from tutor import audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.text import real_characters

from .. import schedule
from ..models import (
    EvidenceTask,
    PeerAllocation,
    Submission,
)
from .limits import MAX_TEXT_CHARS


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
