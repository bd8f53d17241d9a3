"""``/api/me/…``: my to-do, my notices, my notice settings. Only ever the asker's own."""

from __future__ import annotations

from ninja import Router

from tutor.http import ApiRequest

from . import registry, selectors, services
from .schemas import NoticeOut, NoticeSettingsIn, ReadIn, TodoOut

router = Router(tags=["할 일과 알림"])


@router.get("/todo", response=list[TodoOut], summary="내 할 일 (학습자와 강사·조교)")
def todo(request: ApiRequest) -> list[dict]:
    return [{"kind": item.kind, "title": item.title, "url": item.url, "due_at": item.due_at, "count": item.count}
            for item in registry.todo_for(request.auth)]


@router.get("/notices", response=list[NoticeOut], summary="내 알림 (최근 50개)")
def notices(request: ApiRequest) -> list[dict]:
    return [{"id": n.pk, "kind": n.kind, "title": n.title, "body": n.body, "url": n.url,
             "created_at": n.created_at, "read": n.read_at is not None} for n in selectors.notices_of(request.auth)]


@router.post("/notices/read", response=dict, summary="알림 읽음 표시 (내 알림만)")
def read(request: ApiRequest, payload: ReadIn) -> dict:
    return {"marked": services.mark_read(user=request.auth, ids=payload.ids),
            "unread": selectors.unread_count(request.auth)}


@router.put("/notice-settings", response=dict[str, str], summary="종류별 메일 설정 (immediate, daily, off)")
def notice_settings(request: ApiRequest, payload: NoticeSettingsIn) -> dict[str, str]:
    modes = {kind: mode for kind, mode in payload.dict().items() if mode is not None}
    return services.set_preferences(user=request.auth, modes=modes)
