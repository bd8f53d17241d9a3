"""Pages where instructors run their cohorts, and where invited people and join-code visitors come in."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tutor import access
from tutor.access import Perm
from tutor.errors import NotFound, TutorError
from tutor.http import SignedInRequest

from . import selectors, services
from .forms import (
    CohortForm,
    InvitationForm,
    JoinCodeForm,
    JoinForm,
    MemberForm,
    MoveForm,
    RoleForm,
    RosterConfirmForm,
    RosterUploadForm,
    SignUpForm,
)
from .roster import RosterUnreadable


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@login_required
@require_http_methods(["GET", "POST"])
def cohort_list(request: SignedInRequest) -> HttpResponse:
    """The cohorts I teach or assist, and (for instructors) a form to create one."""
    if not access.is_instructor(request.user):
        raise NotFound(_("찾을 수 없습니다."), reason="기수 목록: 강사·조교만")
    may_create = access.may_create_cohort(request.user)
    form = CohortForm(request.POST or None)
    if request.method == "POST" and may_create and form.is_valid():
        try:
            cohort = services.create_cohort(actor=request.user, name=form.cleaned_data["name"])
        except NotFound:
            raise
        except TutorError as exc:
            form.add_error("name", exc.detail)
        else:
            messages.success(request, _("'%(name)s' 기수를 만들었습니다. 명단을 올려 학습자를 초대하세요.")
                             % {"name": cohort.name})
            return redirect("cohorts:detail", cohort_id=cohort.pk)
    return render(request, "cohorts/list.html", {
        "rows": selectors.teaching_cohorts(request.user), "form": form, "may_create": may_create})


@login_required
@require_http_methods(["GET", "HEAD"])
def cohort_detail(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """Members with role and status; instructors also see the forms that change them."""
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.READ_PROGRESS)
    may_enrol = access.may(request.user, Perm.ENROL, cohort)
    targets = [(c.pk, c.name) for c in selectors.enrol_targets(request.user, cohort)] if may_enrol else []
    return render(request, "cohorts/detail.html", {
        "cohort": cohort, "members": selectors.members_of(request.user, cohort),
        "may_enrol": may_enrol, "may_manage_roles": access.may(request.user, Perm.MANAGE_ROLES, cohort),
        "member_form": MemberForm(), "role_choices": RoleForm().fields["role"].choices,  # type: ignore[attr-defined]
        "move_targets": targets,
        "sign_up_link": request.build_absolute_uri("/account/sign-up/") + f"?code={cohort.join_code}"
        if cohort.join_code else "",
    })


def _act(request: SignedInRequest, cohort_id: int, perm: Perm, done: str, action: object) -> HttpResponse:
    """Run one change of the members page; a refusal other than 404 comes back as a message on the page."""
    cohort = selectors.access_cohort(request.user, cohort_id, perm)
    try:
        action(cohort)  # type: ignore[operator]
    except NotFound:
        raise
    except TutorError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return redirect("cohorts:detail", cohort_id=cohort.pk)


@login_required
@require_POST
def add_member(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    form = MemberForm(request.POST)
    if not form.is_valid():
        selectors.access_cohort(request.user, cohort_id, Perm.MANAGE_ROLES)
        messages.error(request, _("아이디나 이메일과 역할을 확인하세요."))
        return redirect("cohorts:detail", cohort_id=cohort_id)
    return _act(request, cohort_id, Perm.MANAGE_ROLES, _("구성원을 더했습니다."),
                lambda cohort: services.add_member(actor=request.user, cohort=cohort,
                                                   identifier=form.cleaned_data["identifier"],
                                                   role=form.cleaned_data["role"]))


@login_required
@require_POST
def change_role(request: SignedInRequest, cohort_id: int, username: str) -> HttpResponse:
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.MANAGE_ROLES)
    person = selectors.access_member(request.user, cohort, username)
    form = RoleForm(request.POST)
    role = form.cleaned_data["role"] if form.is_valid() else ""
    return _act(request, cohort_id, Perm.MANAGE_ROLES, _("역할을 바꿨습니다."),
                lambda c: services.set_role(actor=request.user, cohort=c, user=person, role=role))


@login_required
@require_POST
def remove_member(request: SignedInRequest, cohort_id: int, username: str) -> HttpResponse:
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.ENROL)
    person = selectors.access_member(request.user, cohort, username)
    return _act(request, cohort_id, Perm.ENROL, _("기수에서 뺐습니다. 그 사람의 기록은 그대로 남습니다."),
                lambda c: services.remove_member(actor=request.user, cohort=c, user=person))


@login_required
@require_POST
def move_member(request: SignedInRequest, cohort_id: int, username: str) -> HttpResponse:
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.ENROL)
    person = selectors.access_member(request.user, cohort, username)
    form = MoveForm(request.POST, targets=[(c.pk, c.name) for c in selectors.enrol_targets(request.user, cohort)])
    if not form.is_valid():
        messages.error(request, _("옮길 기수를 고르세요."))
        return redirect("cohorts:detail", cohort_id=cohort.pk)
    to = selectors.access_cohort(request.user, form.cleaned_data["to"], Perm.ENROL)
    return _act(request, cohort_id, Perm.ENROL, _("%(cohort)s 기수로 옮겼습니다.") % {"cohort": to.name},
                lambda c: services.move_learner(actor=request.user, cohort=c, user=person, to=to))


@login_required
@require_POST
def resend_invitation(request: SignedInRequest, cohort_id: int, username: str) -> HttpResponse:
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.ENROL)
    person = selectors.access_member(request.user, cohort, username)
    return _act(request, cohort_id, Perm.ENROL, _("초대 메일을 다시 보냈습니다. 먼저 보낸 링크는 이제 쓸 수 없습니다."),
                lambda c: services.resend_invitation(actor=request.user, cohort=c, user=person,
                                                     base_url=_base_url(request)))


@login_required
@require_POST
def join_code(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    form = JoinCodeForm(request.POST)
    # the form is read inside the action, after the cohort's access: a stranger's odd value is still a 404
    off = form.is_valid() and not form.enabled()
    done = _("참여 코드를 껐습니다.") if off else _("새 참여 코드를 만들었습니다. 예전 코드는 이제 쓸 수 없습니다.")
    return _act(request, cohort_id, Perm.ENROL, done,
                lambda c: services.set_join_code(actor=request.user, cohort=c, enabled=form.enabled()))


@login_required
@require_http_methods(["GET", "POST"])
def roster(request: SignedInRequest, cohort_id: int) -> HttpResponse:
    """Upload a CSV, see every row's problem, then send the invitations (nothing is written before that)."""
    cohort = selectors.access_cohort(request.user, cohort_id, Perm.ENROL)
    upload = RosterUploadForm()
    context: dict[str, object] = {"cohort": cohort, "upload": upload}
    if request.method == "POST":
        confirm = RosterConfirmForm(request.POST)
        sending = "send" in request.POST and confirm.is_valid()
        try:
            if sending:
                text = confirm.cleaned_data["text"]
            else:
                upload = RosterUploadForm(request.POST, request.FILES)
                context["upload"] = upload
                if not upload.is_valid():
                    return render(request, "cohorts/roster.html", context, status=422)
                text = services.roster_csv.decode(upload.cleaned_data["file"].read())
            result = services.import_roster(actor=request.user, cohort=cohort, text=text, dry_run=not sending,
                                            base_url=_base_url(request))
        except RosterUnreadable as exc:
            upload.add_error(None, exc.detail) if not sending else messages.error(request, exc.detail)
            return render(request, "cohorts/roster.html", context, status=422)
        if result.written:
            messages.success(request, _("%(n)d명에게 초대 메일을 보냈습니다. (이미 있는 사람 %(m)d명은 건너뜀)")
                             % {"n": result.invited, "m": result.already_member})
            return redirect("cohorts:detail", cohort_id=cohort.pk)
        context.update({"result": result, "confirm": RosterConfirmForm(initial={"text": text})})
        return render(request, "cohorts/roster.html", context, status=422 if result.errors else 200)
    return render(request, "cohorts/roster.html", context)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Set a password from an invitation link; the person lands signed in (and in the cohort)."""
    live = services.live_invitation(token)
    if live is None:
        raise NotFound(_("초대 링크가 맞지 않거나 기한이 지났거나 이미 쓰였습니다. 강사에게 다시 보내 달라고 하세요."))
    form = InvitationForm(live.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        used = services.accept_invitation(token=token, password=form.cleaned_data["new_password1"])
        login(request, used.user, backend=settings.AUTHENTICATION_BACKENDS[0])
        cohort = used.membership.cohort if used.membership else None
        if cohort is not None:
            messages.success(request, _("'%(cohort)s' 기수에 들어왔습니다. 환영합니다!") % {"cohort": cohort.name})
            if access.may(used.user, Perm.READ_PROGRESS, cohort):
                return redirect("cohorts:detail", cohort_id=cohort.pk)
        else:
            messages.success(request, _("비밀번호를 정했습니다. 이제 기수를 만들 수 있습니다."))
            return redirect("cohorts:list")
        return redirect("lessons:home")
    cohort = live.membership.cohort if live.membership else None
    return render(request, "cohorts/invitation.html", {"form": form, "invited": live.user, "cohort": cohort})


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """Join with a code: a signed-in person joins at once; a visitor gets a confirmation link by mail."""
    code = request.GET.get("code", "")[:16]
    if request.user.is_authenticated:
        join = JoinForm(request.POST or None, initial={"code": code})
        if request.method == "POST" and join.is_valid():
            try:
                membership = services.join_with_code(user=request.user, code=join.cleaned_data["code"])
            except NotFound as exc:
                join.add_error("code", exc.detail)
            else:
                messages.success(request, _("'%(cohort)s' 기수에 들어왔습니다.") % {"cohort": membership.cohort.name})
                return redirect("lessons:home")
        return render(request, "cohorts/sign_up.html", {"join": join})
    form = SignUpForm(request.POST or None, initial={"code": code}, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            services.sign_up_with_code(code=form.cleaned_data["code"], name=form.cleaned_data["name"],
                                       email=form.cleaned_data["email"], base_url=_base_url(request))
        except services.Invalid as exc:
            form.add_error("code", exc.detail)
        else:
            return render(request, "cohorts/sign_up_sent.html", {"email": form.cleaned_data["email"]})
    return render(request, "cohorts/sign_up.html", {"form": form})
