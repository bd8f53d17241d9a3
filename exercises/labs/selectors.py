"""Reads of the labs app that depend on who asks."""

from __future__ import annotations

import socket
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Max, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.content import SLUG
from lessons.selectors import access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import NotFound

from .models import Lab, LabRun, SandboxHealth


def labs_of_lesson(lesson_id: int) -> QuerySet[Lab]:
    return Lab.objects.active().filter(lesson_id=lesson_id).order_by("order", "slug")


def access_lab(user: AnyUser, slug: str) -> Lab:
    """Return an active lab of a lesson ``user`` may read; labs need sign-in."""
    access.require_sign_in(user)
    lab = Lab.objects.active().select_related("lesson").filter(slug=slug).first() if SLUG.match(slug) else None
    if lab is None:
        raise NotFound(_("그런 실습은 없습니다."))
    access_lesson(user, lab.lesson.slug)
    return lab


def access_run(user: AnyUser, run_id: int) -> LabRun:
    """Return a run to its owner or an instructor of the owner; 404 to everybody else."""
    access.require_sign_in(user)
    run = LabRun.objects.select_related("lab__lesson", "user").filter(pk=run_id).first()
    if run is None:
        raise NotFound(_("그런 실행 기록은 없습니다."))
    if not access.may_see_records_of(user, run.user):
        raise NotFound(_("그런 실행 기록은 없습니다."), target=run, reason="남의 실행 기록")
    return run


def runs_of(user: User, lab: Lab, *, limit: int = 20) -> list[LabRun]:
    return list(LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id")[:limit])


def latest_code(user: User, lab: Lab) -> str:
    """What the editor opens with: the learner's last run of this lab, else the starter code."""
    last = LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id").values_list("code", flat=True).first()
    return last if last is not None else lab.starter_code


def latest_prediction(user: User, lab: Lab) -> str:
    return (LabRun.objects.of(user).own_work().filter(lab=lab).exclude(prediction="")
            .order_by("-created_at", "-id").values_list("prediction", flat=True).first() or "")


def this_host() -> str:
    return socket.gethostname()


def _latest_by(field: str, rows: QuerySet[SandboxHealth]) -> list[SandboxHealth]:
    latest_ids = rows.values(field).annotate(last=Max("id")).values("last")
    return list(SandboxHealth.objects.filter(pk__in=Subquery(latest_ids)).order_by("-checked_at", "-id"))


def _verdict(rows: QuerySet[SandboxHealth]) -> SandboxHealth | None:
    """A passing check of a live worker if there is one; else the newest live failure; else,
    when no worker is alive, the latest check of each host (a passing one first)."""
    cutoff = timezone.now() - timedelta(seconds=settings.LAB_WORKER_SILENT_AFTER_SECONDS)
    live = _latest_by("worker", rows.filter(seen_at__gte=cutoff))
    candidates = live or _latest_by("host", rows)
    return next((health for health in candidates if health.ok), candidates[0] if candidates else None)


def host_health(host: str) -> SandboxHealth | None:
    """This host's sandbox as its workers found it: passing while any live worker's check passed."""
    return _verdict(SandboxHealth.objects.filter(host=host))


def sandbox_health() -> SandboxHealth | None:
    """What decides whether the site accepts runs (``None`` when no worker has checked yet).

    One failing worker or host must not block runs that a healthy one can take.
    """
    return _verdict(SandboxHealth.objects.all())
