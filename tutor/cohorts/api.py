"""JSON API of cohorts: the same selectors and services as the pages, so the same rules (forbidden is 404)."""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Router, Status

from tutor.access import Perm
from tutor.http import ApiRequest
from tutor.models import Membership

from . import selectors, services
from .roster import RosterUnreadable
from .schemas import CohortIn, CohortOut, JoinIn, MemberOut, MyCohortOut, RoleIn, RosterOut

router = Router(tags=["기수"])


@router.post("", response={201: CohortOut}, summary="기수 만들기 (만든 사람이 강사)")
def create_cohort(request: ApiRequest, payload: CohortIn) -> Status:
    cohort = services.create_cohort(actor=request.auth, name=payload.name)
    return Status(201, {"id": cohort.pk, "name": cohort.name, "join_code": cohort.join_code})


@router.get("", response=list[MyCohortOut], summary="내가 가르치거나 돕는 기수")
def my_cohorts(request: ApiRequest) -> list[dict]:
    return [{"id": row.cohort.pk, "name": row.cohort.name, "role": row.role}
            for row in selectors.teaching_cohorts(request.auth)]


@router.post("/join", response=MyCohortOut, summary="참여 코드로 기수에 들어가기")
def join(request: ApiRequest, payload: JoinIn) -> dict:
    membership = services.join_with_code(user=request.auth, code=payload.code)
    return {"id": membership.cohort_id, "name": membership.cohort.name, "role": membership.role}


@router.post("/{int:cohort_id}/roster", response={200: RosterOut, 422: dict},
             summary="명단 CSV(name,email[,student_id])로 초대하기; dry_run=1이면 미리 보기만",
             openapi_extra={"requestBody": {"content": {"text/csv": {"schema": {"type": "string"}}}}})
def roster(request: ApiRequest, cohort_id: int, dry_run: bool = False) -> HttpResponse | Status:
    from tutor.api import problem

    cohort = selectors.access_cohort(request.auth, cohort_id, Perm.ENROL)
    try:
        text = services.roster_csv.decode(request.body)
        result = services.import_roster(actor=request.auth, cohort=cohort, text=text, dry_run=dry_run,
                                        base_url=request.build_absolute_uri("/"))
    except RosterUnreadable as exc:
        return problem(request, status=422, code=exc.code, title=exc.title, detail=exc.detail)
    body = {"invited": result.invited if result.written or dry_run else 0, "already_member": result.already_member,
            "errors": result.errors}
    if result.errors and not dry_run:
        response = problem(request, status=422, code="roster_rejected", title="명단에 고칠 줄이 있습니다",
                           detail="아무도 초대하지 않았습니다. 표시된 줄을 고쳐 다시 올려 주세요.", errors=result.errors)
        return response
    return Status(200, body)


@router.get("/{int:cohort_id}/members", response=list[MemberOut], summary="기수 구성원 (강사·조교)")
def members(request: ApiRequest, cohort_id: int) -> list[Membership]:
    cohort = selectors.access_cohort(request.auth, cohort_id, Perm.READ_PROGRESS)
    return list(selectors.members_of(request.auth, cohort))


@router.put("/{int:cohort_id}/members/{username}", response=MemberOut, summary="구성원 역할 바꾸기 (강사)")
def change_role(request: ApiRequest, cohort_id: int, username: str, payload: RoleIn) -> Membership:
    cohort = selectors.access_cohort(request.auth, cohort_id, Perm.MANAGE_ROLES)
    person = selectors.access_member(request.auth, cohort, username)
    return services.set_role(actor=request.auth, cohort=cohort, user=person, role=payload.role)


@router.delete("/{int:cohort_id}/members/{username}", response={204: None}, summary="구성원 빼기 (기록은 남음)")
def remove(request: ApiRequest, cohort_id: int, username: str) -> Status:
    cohort = selectors.access_cohort(request.auth, cohort_id, Perm.ENROL)
    person = selectors.access_member(request.auth, cohort, username)
    services.remove_member(actor=request.auth, cohort=cohort, user=person)
    return Status(204, None)
