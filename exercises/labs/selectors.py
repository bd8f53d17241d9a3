"""Reads of the labs app that depend on who asks."""

from __future__ import annotations

import socket

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Max, QuerySet, Subquery
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
    if run is None or not access.may_see_records_of(user, run.user):
        raise NotFound(_("그런 실행 기록은 없습니다."))
    return run


def runs_of(user: AbstractBaseUser, lab: Lab, *, limit: int = 20) -> list[LabRun]:
    return list(LabRun.objects.of(user).filter(lab=lab).order_by("-created_at", "-id")[:limit])


def latest_code(user: AbstractBaseUser, lab: Lab) -> str:
    """What the editor opens with: the learner's last run of this lab, else the starter code."""
    last = LabRun.objects.of(user).filter(lab=lab).order_by("-created_at", "-id").values_list("code", flat=True).first()
    return last if last is not None else lab.starter_code


def latest_prediction(user: AbstractBaseUser, lab: Lab) -> str:
    return (LabRun.objects.of(user).filter(lab=lab).exclude(prediction="")
            .order_by("-created_at", "-id").values_list("prediction", flat=True).first() or "")


def this_host() -> str:
    return socket.gethostname()


def latest_health_per_host() -> list[SandboxHealth]:
    """The latest self-test of each host that ever ran a worker, newest first."""
    latest_ids = SandboxHealth.objects.values("host").annotate(last=Max("id")).values("last")
    return list(SandboxHealth.objects.filter(pk__in=Subquery(latest_ids)).order_by("-checked_at", "-id"))


def host_health(host: str) -> SandboxHealth | None:
    """The latest self-test on ``host``: its worker takes runs only while this passed."""
    return SandboxHealth.objects.filter(host=host).order_by("-checked_at", "-id").first()


def sandbox_health() -> SandboxHealth | None:
    """What decides whether the site accepts runs: a passing host's latest check, if any host
    passes; otherwise the latest failure (``None`` when no worker has checked yet).

    One failing host must not block runs that a healthy host can take.
    """
    per_host = latest_health_per_host()
    return next((health for health in per_host if health.ok), per_host[0] if per_host else None)
