"""JSON API of the lessons app: the same selectors and services as the pages."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from ninja import Router

from tutor.api import ANYONE
from tutor.http import ApiRequest, VisitorApiRequest

from . import selectors, services
from .models import Lesson, SelfCheck, SelfReport
from .schemas import (
    NOT_CERTIFIED,
    LessonDetailOut,
    LessonOut,
    ProgressOut,
    SelfCheckAnswerOut,
    SelfReportOut,
    UnderstoodIn,
)

router = Router(tags=[str(_("레슨"))])


@router.get("/lessons", response=list[LessonOut], auth=ANYONE, summary=str(_("레슨 목록")))
def list_lessons(request: VisitorApiRequest) -> list[Lesson]:
    return list(selectors.visible_lessons(request.auth))


@router.get("/lessons/{slug}", response=LessonDetailOut, auth=ANYONE, summary=str(_("레슨 하나 (해설 제외)")))
def get_lesson(request: VisitorApiRequest, slug: str) -> Lesson:
    return selectors.access_lesson(request.auth, slug)


@router.post("/lessons/{slug}/self-checks/{key}/answer", response=SelfCheckAnswerOut, summary=str(_("확인 문제의 답과 해설 (로그인 필요)")))
def reveal_answer(request: ApiRequest, slug: str, key: str) -> SelfCheck:
    """A POST, because revealing is recorded ("answer revealed" beside the reading record): GET never writes."""
    check = selectors.access_self_check(request.auth, slug, key)
    services.record_completion(user=request.auth, lesson=check.version.lesson, kind="answer_revealed", item=key)
    return check


@router.post("/lessons/{slug}/self-checks/{key}/understood", response=SelfReportOut, summary=str(_("'이해했어요' 자기 보고 (성적 아님)")))
def mark_understood(request: ApiRequest, slug: str, key: str, payload: UnderstoodIn) -> SelfReport:
    check = selectors.access_self_check(request.auth, slug, key)
    return services.report_understood(user=request.auth, self_check=check, confidence=payload.confidence)


@router.get("/me/progress", response=ProgressOut, summary=str(_("내 학습 기록: 세 기록을 나란히")))
def my_progress(request: ApiRequest) -> dict[str, object]:
    return {"notice": str(NOT_CERTIFIED), "lessons": selectors.progress_of(request.auth)}
