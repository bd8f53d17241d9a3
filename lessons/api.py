"""JSON API of the lessons app: the same selectors and services as the pages."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from ninja import Router

from tutor.api import ANYONE
from tutor.http import ApiRequest, VisitorApiRequest

from . import selectors, services
from .models import Lesson, SelfReport
from .schemas import (
    LessonDetailOut,
    LessonOut,
    ProgressOut,
    SelfCheckAnswerOut,
    SelfReportOut,
    UnderstoodIn,
)
from .selectors import LessonProgress

router = Router(tags=[str(_("레슨"))])

NOT_CERTIFIED = _("진도, 자기 점검, 검토는 서로 다른 기록이며 어느 것도 실력을 인증하지 않습니다.")


def _lesson_out(lesson: Lesson) -> dict:
    version = lesson.current_version
    assert version is not None  # the selectors return only lessons with a version
    return {
        "slug": lesson.slug,
        "title": version.title,
        "summary": version.summary,
        "order": lesson.order,
        "minutes": version.minutes,
        "version": version.number,
        "is_published": lesson.is_published,
        "url": reverse("lessons:detail", args=[lesson.slug]),
    }


@router.get("/lessons", response=list[LessonOut], auth=ANYONE, summary=str(_("레슨 목록")))
def list_lessons(request: VisitorApiRequest) -> list[dict]:
    return [_lesson_out(lesson) for lesson in selectors.visible_lessons(request.auth)]


@router.get("/lessons/{slug}", response=LessonDetailOut, auth=ANYONE, summary=str(_("레슨 하나 (해설 제외)")))
def get_lesson(request: VisitorApiRequest, slug: str) -> dict:
    lesson = selectors.access_lesson(request.auth, slug)
    version = lesson.current_version
    assert version is not None
    return {
        **_lesson_out(lesson),
        "objectives": version.objectives,
        "parts": selectors.quoted_parts(version, selectors.fixtures_quoted(version)),
        "self_checks": list(version.self_checks.values("key", "kind", "question")),
        "files": list(version.files.values_list("name", flat=True)),
        "notice": gettext("읽기는 숙달이 아닙니다.") + " " + str(NOT_CERTIFIED),
    }


@router.post("/lessons/{slug}/self-checks/{key}/answer", response=SelfCheckAnswerOut, summary=str(_("확인 문제의 답과 해설 (로그인 필요)")))
def reveal_answer(request: ApiRequest, slug: str, key: str) -> dict:
    """A POST, because revealing is recorded ("answer revealed" beside the reading record): GET never writes."""
    check = selectors.access_self_check(request.auth, slug, key)
    services.record_completion(user=request.auth, lesson=check.version.lesson, kind="answer_revealed", item=key)
    return {"key": check.key, "question": check.question, "answer": check.answer, "explanation": check.explanation}


@router.post("/lessons/{slug}/self-checks/{key}/understood", response=SelfReportOut, summary=str(_("'이해했어요' 자기 보고 (성적 아님)")))
def mark_understood(request: ApiRequest, slug: str, key: str, payload: UnderstoodIn) -> dict:
    check = selectors.access_self_check(request.auth, slug, key)
    report = services.report_understood(user=request.auth, self_check=check, confidence=payload.confidence)
    return _report_out(report)


def _report_out(report: SelfReport) -> dict:
    return {"key": report.self_check.key, "version": report.self_check.version.number,
            "understood_at": report.at, "confidence": report.confidence}


def _progress_out(entry: LessonProgress) -> dict:
    return {
        "lesson": entry.lesson.slug,
        "title": str(entry.lesson),
        "completion": {
            "opened_at": entry.opened_at,
            "parts_reached": entry.parts_reached,
            "parts_total": entry.parts_total,
            "answers_revealed": entry.answers_revealed,
            "labs_run": entry.labs_run,
            "exercises_attempted": entry.exercises_attempted,
        },
        "self_report": {
            "understood": len(entry.understood),
            "self_checks": entry.self_checks_total,
            "version": entry.lesson.current_version.number if entry.lesson.current_version else None,
            "standard_changed": entry.standard_changed,
            "earlier_versions": [{"version": n, "understood": k} for n, k in entry.earlier_versions],
            "reports": [_report_out(r) for r in entry.understood],
        },
        "review": {"records": entry.reviews},
    }


@router.get("/me/progress", response=ProgressOut, summary=str(_("내 학습 기록: 세 기록을 나란히")))
def my_progress(request: ApiRequest) -> dict:
    return {"notice": str(NOT_CERTIFIED), "lessons": [_progress_out(e) for e in selectors.progress_of(request.auth)]}
