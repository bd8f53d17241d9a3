"""Writes of the peer step: leases on submissions, giving one back, instructor assignment, reproductions.

Peer work goes only to a learner who has submitted the same task (and, where
the task asks for it, practised on an example first); never their own, never
the same author twice for a task across versions. A lease expires after
``EVIDENCE_PEER_LEASE_HOURS`` and can be given back once per task, with a reason.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from exercises.labs.models import LabRun
from exercises.labs.services import code_digest, request_run, server_run_key
from tutor import access, audit
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort, members_of
from tutor.text import real_characters

from .models import (
    CalibrationExample,
    CalibrationReview,
    EvidenceTask,
    PeerAllocation,
    Reproduction,
    Submission,
)


def lease_length() -> timedelta:
    return timedelta(hours=settings.EVIDENCE_PEER_LEASE_HOURS)


def latest_submitted(task: EvidenceTask) -> QuerySet[Submission]:
    """Each author's newest submitted version of ``task``."""
    newest = Submission.objects.submitted().filter(task=task, author=OuterRef("author")).order_by("-version")
    return Submission.objects.submitted().filter(task=task, pk=Subquery(newest.values("pk")[:1]))


def handed_authors(reviewer: User, task: EvidenceTask) -> QuerySet:
    """Authors whose work of ``task`` this reviewer was ever handed, in any version and however it ended."""
    return PeerAllocation.objects.filter(reviewer=reviewer, submission__task=task).values("submission__author")


def peer_refusal(reviewer: User, task: EvidenceTask) -> str:
    """Why ``reviewer`` may not receive peer work of ``task`` yet, or "" when they may."""
    texts = Submission.objects.submitted().filter(task=task, author=reviewer).values_list("text", flat=True)
    if not any(real_characters(text) >= settings.EVIDENCE_MIN_SUBMISSION_CHARS for text in texts):
        # A version kept from before the minimum (".") does not open the gate either.
        return _("먼저 이 과제를 제출해야 동료의 작업을 받을 수 있습니다.")
    examples = CalibrationExample.objects.filter(task=task, is_active=True)
    if examples.exists() and not CalibrationReview.objects.filter(example__in=examples, reviewer=reviewer).exists():
        return _("먼저 연습 예시 하나를 검토해 참고 검토와 비교해 보세요. 그다음에 동료 작업을 받을 수 있습니다.")
    return ""


@transaction.atomic(savepoint=False)
def expire_leases(*, now: datetime | None = None) -> int:
    """End every lease whose time has run out, with an audit entry each; return how many."""
    now = now or timezone.now()
    expired = list(PeerAllocation.objects.select_for_update()
                   .filter(completed_at__isnull=True, ended_at__isnull=True, expires_at__lte=now))
    for allocation in expired:
        allocation.ended_at, allocation.end = now, PeerAllocation.End.EXPIRED
        allocation.save(update_fields=["ended_at", "end"])
        audit.record(actor=None, action="peer.lease_expired", target=allocation.submission,
                     detail={"allocation": allocation.pk, "reviewer": allocation.reviewer_id})
    return len(expired)


@transaction.atomic(savepoint=False)
def release_leases_of_leaver(*, actor: User, reviewer: User, cohort: Cohort) -> int:
    """End the live leases a person held on work of ``cohort``'s learners when they leave it (the work goes back
    to the pool); called inside the caller's transaction. Return how many."""
    now = timezone.now()
    leases = list(PeerAllocation.objects.live(now).select_for_update()
                  .filter(reviewer=reviewer, submission__author__in=members_of(cohort)))
    for allocation in leases:
        allocation.ended_at, allocation.end = now, PeerAllocation.End.RETURNED
        allocation.return_reason = _("기수에서 나가 돌려줌")
        allocation.save(update_fields=["ended_at", "end", "return_reason"])
        audit.record(actor=actor, action="peer.lease_released", target=allocation.submission,
                     reason=allocation.return_reason, detail={"allocation": allocation.pk, "reviewer": reviewer.pk})
    return len(leases)


def refuse_over_cap(reviewer: User, task: EvidenceTask, now: datetime) -> None:
    """One learner holds or has done at most ``EVIDENCE_PEER_CAP`` peer reviews of a task (0: no cap), so a keen
    few do not take every classmate's work."""
    cap = settings.EVIDENCE_PEER_CAP
    if cap and PeerAllocation.objects.counting(now).filter(reviewer=reviewer, submission__task=task).count() >= cap:
        raise Conflict(_("이 과제의 동료 검토는 한 사람이 %(n)d건까지 맡습니다. 이미 그만큼 맡았습니다.") % {"n": cap})


class NoPeerWork(NotFound):
    """Nothing to review right now: a normal state of the task page, not a missing page."""


@transaction.atomic(durable=True)
def allocate_peer_work(*, reviewer: User, task: EvidenceTask) -> PeerAllocation:
    """Hand the reviewer one classmate's submission on a lease, just in time.

    The live lease, if any, is returned again. Otherwise the submission with the
    fewest reviews done or under way comes first, then the oldest, so the
    workload spreads and late submitters are reviewed too.
    """
    get_user_model().objects.select_for_update().filter(pk=reviewer.pk).first()
    now = timezone.now()
    expire_leases(now=now)
    refusal = peer_refusal(reviewer, task)
    if refusal:
        raise Conflict(refusal)
    live = PeerAllocation.objects.live(now).filter(reviewer=reviewer, submission__task=task).first()
    if live is not None:
        return live
    refuse_over_cap(reviewer, task, now)
    classmates = members_of(Cohort.objects.attended_by(reviewer))
    candidate = (
        latest_submitted(task).filter(author__in=classmates).exclude(author=reviewer)
        .exclude(author__in=handed_authors(reviewer, task))
        .annotate(load=Count("allocations", filter=Q(allocations__completed_at__isnull=False)
                             | Q(allocations__ended_at__isnull=True, allocations__expires_at__gt=now), distinct=True))
        .order_by("load", "submitted_at", "pk").first()
    )
    if candidate is None:
        raise NoPeerWork(_("지금은 검토할 제출이 없습니다. 동료가 제출하면 여기서 받을 수 있습니다."))
    allocation = PeerAllocation.objects.create(submission=candidate, reviewer=reviewer, expires_at=now + lease_length())
    audit.record(actor=reviewer, action="peer.lease_given", target=candidate,
                 detail={"allocation": allocation.pk, "expires_at": allocation.expires_at.isoformat()})
    _notice_after_commit(allocation)
    return allocation


def _notice_after_commit(allocation: PeerAllocation) -> None:
    from .tasks import notice_peer_allocated

    transaction.on_commit(lambda: notice_peer_allocated.enqueue(allocation_id=allocation.pk))


@transaction.atomic(durable=True)
def give_back(*, reviewer: User, allocation: PeerAllocation, reason: str) -> PeerAllocation:
    """Return a live lease unreviewed, with a reason; once per task. That author is not handed again."""
    allocation = PeerAllocation.objects.select_for_update().select_related("submission").get(pk=allocation.pk)
    if allocation.reviewer_id != reviewer.pk:
        raise NotFound(_("그런 동료 작업은 없습니다."))
    now = timezone.now()
    if not allocation.is_live(now):
        raise Conflict(_("이 동료 작업은 이미 검토했거나 끝났습니다."))
    if not reason.strip():
        raise TutorError(_("돌려주는 이유를 적어 주세요."))
    if PeerAllocation.objects.filter(reviewer=reviewer, submission__task=allocation.submission.task_id,
                                     end=PeerAllocation.End.RETURNED).exists():
        raise Conflict(_("이 과제의 동료 작업은 이미 한 번 돌려주었습니다. 이번 것은 검토해 주세요."))
    allocation.ended_at, allocation.end, allocation.return_reason = now, PeerAllocation.End.RETURNED, reason.strip()[:500]
    allocation.save(update_fields=["ended_at", "end", "return_reason"])
    audit.record(actor=reviewer, action="peer.lease_returned", target=allocation.submission,
                 reason=allocation.return_reason, detail={"allocation": allocation.pk})
    return allocation


@transaction.atomic(durable=True)
def assign_peer(*, instructor: User, submission: Submission, reviewer: User) -> PeerAllocation:
    """An instructor hands a waiting submission to a learner of any cohort they teach, on a lease.

    The same gates hold as for a learner asking: submitted the task, practised
    where asked, never the same author twice.
    """
    if not access.may_assign_reviewer(instructor, author=submission.author, reviewer=reviewer):
        raise NotFound(_("그런 학습자는 없습니다."))
    now = timezone.now()
    expire_leases(now=now)
    refusal = peer_refusal(reviewer, submission.task)
    if refusal:
        raise Conflict(_("%(name)s: %(why)s") % {"name": reviewer.get_username(), "why": refusal})
    if PeerAllocation.objects.filter(reviewer=reviewer, submission__task=submission.task,
                                     submission__author=submission.author).exists():
        raise Conflict(_("이 학습자는 이미 이 작성자의 작업을 받은 적이 있습니다."))
    refuse_over_cap(reviewer, submission.task, now)
    allocation = PeerAllocation.objects.create(submission=submission, reviewer=reviewer, assigned_by=instructor,
                                               expires_at=now + lease_length())
    audit.record(actor=instructor, action="peer.assign", target=submission,
                 detail={"reviewer": reviewer.pk, "allocation": allocation.pk})
    _notice_after_commit(allocation)
    return allocation


@transaction.atomic(durable=True)
def reproduce_run(*, reviewer: User, allocation: PeerAllocation, run: LabRun) -> Reproduction:
    """Re-run an attached lab run in the sandbox for the reviewer, marked as a reproduction: it is kept out of
    the reviewer's own runs and writes no completion fact."""
    if allocation.reviewer_id != reviewer.pk or not allocation.submission.lab_runs.filter(pk=run.pk).exists():
        raise NotFound(_("그런 실행 기록은 없습니다."))
    existing = allocation.reproductions.filter(original=run).first()
    if existing is not None:
        return existing
    if not allocation.is_live(timezone.now()):
        raise Conflict(_("이 동료 작업은 기한이 지났거나 끝나서 재현할 수 없습니다."))
    # The server asks for the re-run itself, under a key no client can write, with the original's own code and
    # step: a run the reviewer made beforehand can never stand in for it.
    rerun = request_run(user=reviewer, lab=run.lab, code=run.code, step=run.step, purpose=LabRun.Purpose.REPRODUCTION,
                        idempotency_key=server_run_key("reproduce", allocation.pk, run.pk), made_by_server=True)
    if rerun.purpose != LabRun.Purpose.REPRODUCTION or rerun.code_digest != run.code_digest:
        raise Conflict(_("재현 실행을 만들 수 없습니다. 잠시 뒤 다시 시도해 주세요."))
    reproduction = Reproduction.objects.create(allocation=allocation, original=run, rerun=rerun,
                                               status=Reproduction.Status.PENDING)
    audit.record(actor=reviewer, action="peer.reproduce", target=allocation.submission,
                 detail={"reproduction": reproduction.pk, "original": run.pk, "rerun": rerun.pk})
    return reproduction


def _checks(run: LabRun) -> dict[str, bool]:
    return {str(check.get("id")): bool(check.get("passed")) for check in run.check_results}


def compare_runs(original: LabRun, rerun: LabRun) -> tuple[list[str], list[str]]:
    """Which results differ (the code, status, exit code, stdout, stderr, checks) and what changed since the
    original (the lab's version, a fixture's version). "code" means the re-run ran other code than the original
    (by its recorded digest or by the code itself): then it was no reproduction at all."""
    code = [] if (original.code_digest == rerun.code_digest
                  and code_digest(original.code) == code_digest(rerun.code)) else ["code"]
    differences = code + [name for name in ("status", "exit_code", "stdout", "stderr")
                   if getattr(original, name) != getattr(rerun, name)]
    if _checks(original) != _checks(rerun):
        differences.append("checks")
    changed = ["lab"] if original.lab_version != rerun.lab_version else []
    for slug in sorted(set(original.fixture_versions) | set(rerun.fixture_versions)):
        before, after = original.fixture_versions.get(slug) or {}, rerun.fixture_versions.get(slug) or {}
        if before.get("number") != after.get("number") or before.get("digest") != after.get("digest"):
            changed.append(f"fixture:{slug}")
    return differences, changed


def settle_reproductions_of_rerun(*, run_id: int) -> int:
    """Settle every pending reproduction whose re-run is ``run_id`` (the labs app says when a run ends)."""
    pending = list(Reproduction.objects.filter(rerun_id=run_id, status=Reproduction.Status.PENDING))
    for reproduction in pending:
        settle_reproduction(reproduction=reproduction)
    return len(pending)


@transaction.atomic(savepoint=True)
def settle_reproduction(*, reproduction: Reproduction) -> Reproduction:
    """Once the re-run has finished, record what matched and what changed since the original run."""
    if reproduction.status != Reproduction.Status.PENDING or reproduction.rerun_id is None:
        return reproduction
    rerun = LabRun.objects.get(pk=reproduction.rerun_id)
    if not rerun.is_finished:
        return reproduction
    original = LabRun.objects.get(pk=reproduction.original_id)
    reproduction.differences, reproduction.changed_since = compare_runs(original, rerun)
    if rerun.status in {LabRun.Status.REFUSED, LabRun.Status.FAILED} or "code" in reproduction.differences:
        # Other code than the original's proves nothing about the author's run either way.
        reproduction.status = Reproduction.Status.COULD_NOT_RUN
    elif reproduction.differences:
        reproduction.status = Reproduction.Status.DIFFERED
    else:
        reproduction.status = Reproduction.Status.REPRODUCED
    reproduction.save(update_fields=["status", "differences", "changed_since"])
    audit.record(actor=None, action="peer.reproduction_settled", target=reproduction.allocation.submission,
                 detail={"reproduction": reproduction.pk, "status": reproduction.status,
                         "differences": reproduction.differences, "changed_since": reproduction.changed_since})
    return reproduction
