"""Reads of the labs app that depend on who asks."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet
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


def runs_of(user: AbstractBaseUser, lab: Lab, *, limit: int = 20) -> list[LabRun]:
    return list(LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id")[:limit])


def latest_code(user: AbstractBaseUser, lab: Lab) -> str:
    """What the editor opens with: the learner's last run of this lab, else the starter code."""
    last = LabRun.objects.of(user).own_work().filter(lab=lab).order_by("-created_at", "-id").values_list("code", flat=True).first()
    return last if last is not None else lab.starter_code


def latest_prediction(user: AbstractBaseUser, lab: Lab) -> str:
    return (LabRun.objects.of(user).own_work().filter(lab=lab).exclude(prediction="")
            .order_by("-created_at", "-id").values_list("prediction", flat=True).first() or "")


def sandbox_health() -> SandboxHealth | None:
    return SandboxHealth.objects.order_by("-checked_at", "-id").first()
