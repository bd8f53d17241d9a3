"""Writes about cohorts and their people: create a cohort, roles, removal, roster, invitations, join codes.

Every function is keyword-only, takes the acting person, asks ``tutor.access``
and writes its audit entry in the same transaction. Mail goes through
``tutor.mail.services.queue_mail`` (sent by the worker after commit, once).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AnonymousUser, Group, User
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tutor import access, audit, extensions
from tutor.access import Perm
from tutor.errors import Conflict, NotFound, TutorError
from tutor.models import Cohort, Invitation, Membership
from tutor.roles import CohortRole, Role

from . import roster as roster_csv
from .hooks import MembershipListener

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud in a classroom
JOIN_CODE_LENGTH = 8


class Invalid(TutorError):
    status = 422
    code = "invalid_input"
    title = "입력이 올바르지 않습니다"


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def site_url(base_url: str = "") -> str:
    """Where links in mail point: the request's own address, else ``SITE_URL``, else the local server."""
    return (base_url or getattr(settings, "SITE_URL", "") or "http://127.0.0.1:8000").rstrip("/")


def _refuse(actor: User | AnonymousUser, perm: Perm, cohort: Cohort) -> None:
    if not access.may(actor, perm, cohort):
        raise NotFound(_("그런 기수는 없습니다."), target=cohort, reason=f"기수 권한 없음: {perm}")


def _role(value: str) -> str:
    if value not in CohortRole.values:
        raise Invalid(_("역할은 %(roles)s 중 하나여야 합니다.") % {"roles": ", ".join(CohortRole.values)})
    return value


# Cohorts


@transaction.atomic(durable=True)
def create_cohort(*, actor: User, name: str) -> Cohort:
    """A new cohort with a join code; the person who creates it is its instructor."""
    if not access.may_create_cohort(actor):
        raise NotFound(_("찾을 수 없습니다."), reason="기수 만들기: 강사만")
    name = " ".join(name.split())
    if not name or len(name) > 100:
        raise Invalid(_("기수 이름을 1~100자로 적어 주세요."))
    if Cohort.objects.filter(name=name).exists():
        raise Conflict(_("같은 이름의 기수가 이미 있습니다."))
    cohort = Cohort.objects.create(name=name, join_code=new_join_code())
    now = timezone.now()
    Membership.objects.create(cohort=cohort, user=actor, role=CohortRole.INSTRUCTOR, joined_at=now)
    audit.record(actor=actor, action="cohort.create", target=cohort, after={"name": name})
    access.forget(actor)
    return cohort


@transaction.atomic(durable=True)
def set_join_code(*, actor: User, cohort: Cohort, enabled: bool) -> Cohort:
    """Make a new join code (the old one stops working) or turn self sign-up off."""
    _refuse(actor, Perm.ENROL, cohort)
    cohort.join_code = new_join_code() if enabled else ""
    cohort.save(update_fields=["join_code"])
    audit.record(actor=actor, action="cohort.join_code", target=cohort, after={"enabled": enabled})
    return cohort


# Members


def _membership(cohort: Cohort, user: User) -> Membership:
    membership = Membership.objects.select_for_update().filter(cohort=cohort, user=user).first()
    if membership is None:
        raise NotFound(_("이 기수에 그런 사람은 없습니다."))
    return membership


def _instructors_left(cohort: Cohort, *, without: User) -> bool:
    return Membership.objects.active().filter(cohort=cohort, role=CohortRole.INSTRUCTOR).exclude(user=without).exists()


@transaction.atomic(durable=True)
def add_member(*, actor: User, cohort: Cohort, identifier: str, role: str) -> Membership:
    """Add an existing account (by username or e-mail address) as an active member with ``role``."""
    _refuse(actor, Perm.MANAGE_ROLES, cohort)
    role = _role(role)
    identifier = identifier.strip()
    person = (User.objects.filter(username=identifier, is_active=True).first()
              or User.objects.filter(email__iexact=identifier, is_active=True).order_by("pk").first()
              if identifier else None)
    if person is None:
        raise NotFound(_("그런 계정이 없습니다. 새 사람은 명단 올리기로 초대하세요."))
    membership = Membership.objects.select_for_update().filter(cohort=cohort, user=person).first()
    before = None if membership is None else {"role": membership.role, "status": membership.status}
    if membership is None:
        membership = Membership(cohort=cohort, user=person)
    membership.role, membership.status = role, Membership.Status.ACTIVE
    membership.joined_at = membership.joined_at or timezone.now()
    membership.removed_at = None
    membership.save()
    audit.record(actor=actor, action="cohort.member_add", target=cohort, before=before,
                 after={"role": role, "status": membership.status}, detail={"user": person.pk})
    access.forget(person)
    return membership


@transaction.atomic(durable=True)
def set_role(*, actor: User, cohort: Cohort, user: User, role: str) -> Membership:
    """Change a member's role; the cohort always keeps at least one active instructor."""
    _refuse(actor, Perm.MANAGE_ROLES, cohort)
    role = _role(role)
    membership = _membership(cohort, user)
    if membership.status == Membership.Status.REMOVED:
        raise NotFound(_("이 기수에 그런 사람은 없습니다."))
    if (membership.role == CohortRole.INSTRUCTOR and role != CohortRole.INSTRUCTOR
            and not _instructors_left(cohort, without=user)):
        raise Conflict(_("기수에는 강사가 한 명 이상 있어야 합니다."))
    before = {"role": membership.role}
    membership.role = role
    membership.save(update_fields=["role"])
    audit.record(actor=actor, action="cohort.role", target=cohort, before=before, after={"role": role},
                 detail={"user": user.pk})
    access.forget(user)
    return membership


def _leave(*, actor: User, membership: Membership) -> None:
    """Mark the membership removed and let each app let go of what the person held there (peer leases)."""
    membership.status, membership.removed_at = Membership.Status.REMOVED, timezone.now()
    membership.save(update_fields=["status", "removed_at"])
    for app in extensions.providers(MembershipListener):
        app.member_left(actor=actor, user=membership.user, cohort=membership.cohort)
    access.forget(membership.user)


@transaction.atomic(durable=True)
def remove_member(*, actor: User, cohort: Cohort, user: User) -> Membership:
    """Take someone out of the cohort; their records stay. Learners need enrolment rights, staff need roles."""
    _refuse(actor, Perm.ENROL, cohort)
    membership = _membership(cohort, user)
    if membership.role != CohortRole.LEARNER:
        _refuse(actor, Perm.MANAGE_ROLES, cohort)
        if membership.role == CohortRole.INSTRUCTOR and not _instructors_left(cohort, without=user):
            raise Conflict(_("기수에는 강사가 한 명 이상 있어야 합니다."))
    if membership.status == Membership.Status.REMOVED:
        return membership
    before = {"role": membership.role, "status": membership.status}
    _leave(actor=actor, membership=membership)
    audit.record(actor=actor, action="cohort.member_remove", target=cohort, before=before,
                 after={"status": membership.status}, detail={"user": user.pk})
    return membership


@transaction.atomic(durable=True)
def move_learner(*, actor: User, cohort: Cohort, user: User, to: Cohort) -> Membership:
    """Move a learner to another cohort the actor enrols in; their records stay with them."""
    _refuse(actor, Perm.ENROL, cohort)
    _refuse(actor, Perm.ENROL, to)
    membership = _membership(cohort, user)
    if membership.role != CohortRole.LEARNER or membership.status != Membership.Status.ACTIVE:
        raise NotFound(_("이 기수에 그런 학습자는 없습니다."))
    if to.pk == cohort.pk:
        raise Invalid(_("다른 기수를 고르세요."))
    target = Membership.objects.select_for_update().filter(cohort=to, user=user).first()
    if target is not None and target.status == Membership.Status.ACTIVE:
        raise Conflict(_("이미 그 기수에 있습니다."))
    _leave(actor=actor, membership=membership)
    target = target or Membership(cohort=to, user=user, role=CohortRole.LEARNER)
    target.role, target.status, target.student_id = CohortRole.LEARNER, Membership.Status.ACTIVE, membership.student_id
    target.joined_at, target.removed_at = timezone.now(), None
    target.save()
    audit.record(actor=actor, action="cohort.member_move", target=cohort, detail={"user": user.pk, "to": to.pk})
    return target


# Invitations


def _issue(*, user: User, membership: Membership | None, actor: User | None, now: datetime
           ) -> tuple[Invitation, str]:
    raw = secrets.token_urlsafe(32)
    Invitation.objects.filter(user=user, membership=membership, used_at__isnull=True,
                              revoked_at__isnull=True).update(revoked_at=now)
    invitation = Invitation.objects.create(
        user=user, membership=membership, digest=token_digest(raw), sent_by=actor,
        expires_at=now + timedelta(days=settings.INVITATION_EXPIRY_DAYS))
    return invitation, raw


def invitation_link(raw: str, base_url: str) -> str:
    return site_url(base_url) + reverse("tutor:invitation", args=[raw])


def _mail_invitation(*, invitation: Invitation, raw: str, base_url: str, actor: User | AnonymousUser | None,
                     cohort: Cohort | None) -> None:
    from tutor.mail.services import queue_mail

    user = invitation.user
    link = invitation_link(raw, base_url)
    days = settings.INVITATION_EXPIRY_DAYS
    if cohort is None:
        subject = _("[근거 튜터] 강사 계정에 초대합니다")
        opening = _("근거 튜터의 강사 계정이 만들어졌습니다.")
    else:
        subject = _("[근거 튜터] %(cohort)s 기수에 초대합니다") % {"cohort": cohort.name}
        opening = _("근거 튜터의 '%(cohort)s' 기수에 초대되었습니다.") % {"cohort": cohort.name}
    body = "\n".join([
        _("%(name)s 님, 안녕하세요.") % {"name": user.first_name or user.get_username()},
        "",
        opening,
        _("아래 링크를 열어 비밀번호를 정하면 바로 로그인되어 시작할 수 있습니다."),
        "",
        link,
        "",
        _("아이디: %(username)s (이메일 주소로도 로그인할 수 있습니다)") % {"username": user.get_username()},
        _("이 링크는 %(days)d일 동안 한 번만 쓸 수 있습니다. 기한이 지나면 강사에게 다시 보내 달라고 하세요.")
        % {"days": days},
        _("초대받은 적이 없다면 이 메일을 무시하세요."),
    ])
    queue_mail(to=user.email, subject=subject, body=body, key=f"invitation:{invitation.pk}", actor=actor)


@transaction.atomic(durable=True)
def resend_invitation(*, actor: User, cohort: Cohort, user: User, base_url: str = "") -> Invitation:
    """Send a fresh link to someone invited who has not joined yet; the earlier link stops working."""
    _refuse(actor, Perm.ENROL, cohort)
    membership = _membership(cohort, user)
    if membership.status != Membership.Status.INVITED:
        raise Conflict(_("초대를 기다리는 사람에게만 다시 보낼 수 있습니다."))
    now = timezone.now()
    invitation, raw = _issue(user=user, membership=membership, actor=actor, now=now)
    membership.invited_at = now
    membership.save(update_fields=["invited_at"])
    _mail_invitation(invitation=invitation, raw=raw, base_url=base_url, actor=actor, cohort=cohort)
    audit.record(actor=actor, action="invitation.resend", target=cohort, detail={"user": user.pk})
    return invitation


def _unused_username(email: str, taken: set[str]) -> str:
    base = email.lower()[:140]
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


def _taken_usernames(emails: list[str]) -> set[str]:
    names = {e.lower()[:140] for e in emails}
    found = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    for name in list(found):
        found |= set(User.objects.filter(username__startswith=f"{name}-").values_list("username", flat=True))
    return found


@transaction.atomic(durable=True)
def add_instructor_account(*, email: str, name: str, base_url: str = "") -> tuple[User, Invitation]:
    """For ``manage.py add_instructor``: an instructor account (may create cohorts) and its invitation mail."""
    try:
        roster_csv.validate_email(email)
    except roster_csv.ValidationError:
        raise Invalid(_("이메일 주소가 올바르지 않습니다.")) from None
    if User.objects.filter(email__iexact=email).exists():
        raise Conflict(_("이 이메일 주소의 계정이 이미 있습니다."))
    user = User(username=_unused_username(email, _taken_usernames([email])), email=email, first_name=name[:150])
    user.set_unusable_password()
    user.save()
    user.groups.add(Group.objects.get_or_create(name=Role.INSTRUCTOR.value)[0])
    invitation, raw = _issue(user=user, membership=None, actor=None, now=timezone.now())
    _mail_invitation(invitation=invitation, raw=raw, base_url=base_url, actor=None, cohort=None)
    audit.record(actor=None, action="account.instructor_add", target=user)
    return user, invitation


@dataclass
class RosterResult:
    rows: list[roster_csv.RosterRow]
    invited: int = 0
    already_member: int = 0
    errors: list[dict[str, object]] = field(default_factory=list)
    written: bool = False


def _roster_rows(cohort: Cohort, text: str) -> tuple[list[roster_csv.RosterRow], dict[str, User]]:
    rows = roster_csv.parse(text, max_rows=settings.ROSTER_MAX_ROWS)
    emails = [row.key for row in rows if not row.problem]
    accounts: dict[str, User] = {}
    for user in (User.objects.annotate(email_key=Lower("email")).filter(email_key__in=emails).order_by("pk")):
        accounts.setdefault(user.email_key, user)
    members = dict(Membership.objects.filter(cohort=cohort, user__in=[u.pk for u in accounts.values()])
                   .values_list("user_id", "status"))
    for row in rows:
        account = accounts.get(row.key)
        if not row.problem and account is not None and members.get(account.pk) in (Membership.Status.ACTIVE,
                                                                                   Membership.Status.INVITED):
            row.already_member = True
    return rows, accounts


def import_roster(*, actor: User, cohort: Cohort, text: str, dry_run: bool, base_url: str = "") -> RosterResult:
    """Preview (``dry_run``) or enrol a roster: every row's problem is listed, and if any row has one nothing is
    written. Otherwise each new person gets an account without a password, an invited membership and a mail."""
    _refuse(actor, Perm.ENROL, cohort)
    rows, accounts = _roster_rows(cohort, text)
    result = RosterResult(rows=rows, already_member=sum(1 for row in rows if row.already_member),
                          errors=[{"row": row.row, "message": row.problem} for row in rows if row.problem])
    if dry_run or result.errors:
        result.invited = sum(1 for row in rows if not row.problem and not row.already_member)
        return result
    with transaction.atomic(durable=True):
        result.invited = _enrol(actor=actor, cohort=cohort, rows=[r for r in rows if not r.already_member],
                                accounts=accounts, base_url=base_url)
        audit.record(actor=actor, action="cohort.roster", target=cohort,
                     detail={"invited": result.invited, "already_member": result.already_member})
    result.written = True
    return result


def _enrol(*, actor: User, cohort: Cohort, rows: list[roster_csv.RosterRow], accounts: dict[str, User],
           base_url: str) -> int:
    """Bulk writes, a fixed number of queries whatever the roster's length, then one mail per person."""
    now = timezone.now()
    taken = _taken_usernames([row.key for row in rows if row.key not in accounts])
    unusable = make_password(None)
    new_users = [User(username=_unused_username(row.key, taken), email=row.email, first_name=row.name,
                      password=unusable) for row in rows if row.key not in accounts]
    try:
        for user in User.objects.bulk_create(new_users):
            accounts[user.email.lower()] = user
    except IntegrityError:
        raise Conflict(_("같은 때에 다른 사람이 같은 계정을 만들었습니다. 다시 올려 주세요.")) from None
    by_user = {m.user_id: m for m in Membership.objects.select_for_update().filter(
        cohort=cohort, user__in=[accounts[row.key].pk for row in rows])}
    fresh, again = [], []
    for row in rows:
        user = accounts[row.key]
        membership = by_user.get(user.pk)
        if membership is None:
            fresh.append(Membership(cohort=cohort, user=user, role=CohortRole.LEARNER, status=Membership.Status.INVITED,
                                    student_id=row.student_id, invited_at=now))
        else:  # removed earlier: invited again as a learner
            membership.role, membership.status, membership.invited_at = (CohortRole.LEARNER,
                                                                         Membership.Status.INVITED, now)
            membership.student_id, membership.removed_at = row.student_id or membership.student_id, None
            again.append(membership)
    Membership.objects.bulk_create(fresh)
    Membership.objects.bulk_update(again, ["role", "status", "invited_at", "student_id", "removed_at"])
    memberships = fresh + again
    Invitation.objects.filter(membership__in=again, used_at__isnull=True, revoked_at__isnull=True).update(revoked_at=now)
    expires = now + timedelta(days=settings.INVITATION_EXPIRY_DAYS)
    invitations = Invitation.objects.bulk_create([
        Invitation(user=m.user, membership=m, digest=PENDING + secrets.token_hex(16), sent_by=actor, expires_at=expires)
        for m in memberships])
    ids = [invitation.pk for invitation in invitations]
    transaction.on_commit(lambda: _enqueue_invitations(ids, site_url(base_url)))
    return len(memberships)


# A roster's invitations are written in the request with a placeholder instead of a digest; the worker gives
# each its token and mail (``send_invitations``), so 500 rows cost the request a few bulk queries.
PENDING = "pending:"


def _enqueue_invitations(ids: list[int], base_url: str) -> None:
    from .tasks import send_invitations as task

    task.enqueue(invitation_ids=ids, base_url=base_url)


def send_invitations(*, invitation_ids: list[int], base_url: str) -> int:
    """In the worker: give each pending invitation its token and queue its mail, once (a retried task finds
    them no longer pending and sends nothing more). Return how many were sent."""
    sent = 0
    for invitation_id in invitation_ids:
        with transaction.atomic():
            raw = secrets.token_urlsafe(32)
            issued = Invitation.objects.filter(pk=invitation_id, digest__startswith=PENDING, used_at__isnull=True,
                                               revoked_at__isnull=True).update(digest=token_digest(raw))
            if not issued:
                continue
            invitation = (Invitation.objects.select_related("user", "membership__cohort", "sent_by")
                          .get(pk=invitation_id))
            cohort = invitation.membership.cohort if invitation.membership else None
            _mail_invitation(invitation=invitation, raw=raw, base_url=base_url, actor=invitation.sent_by,
                             cohort=cohort)
            sent += 1
    return sent


@transaction.atomic(durable=True)
def accept_invitation(*, token: str, password: str) -> Invitation:
    """Use a live invitation: set the password, make the membership active; the link dies. The view signs in."""
    invitation = (Invitation.objects.select_for_update(of=("self",)).select_related("user", "membership__cohort")
                  .filter(digest=token_digest(token)).first() if token else None)
    now = timezone.now()
    if invitation is None or invitation.used_at or invitation.revoked_at or invitation.expires_at <= now:
        raise NotFound(_("초대 링크가 맞지 않거나 기한이 지났거나 이미 쓰였습니다. 강사에게 다시 보내 달라고 하세요."))
    user = invitation.user
    user.set_password(password)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    membership = invitation.membership
    if membership is not None and membership.status == Membership.Status.INVITED:
        membership.status, membership.joined_at = Membership.Status.ACTIVE, now
        membership.save(update_fields=["status", "joined_at"])
    audit.record(actor=user, action="invitation.accept", target=invitation,
                 detail={"cohort": membership.cohort_id if membership else None})
    access.forget(user)
    return invitation


def live_invitation(token: str) -> Invitation | None:
    """The invitation behind a link if it can still be used (a read: the page shows the form or says why not)."""
    invitation = (Invitation.objects.select_related("user", "membership__cohort")
                  .filter(digest=token_digest(token)).first() if token else None)
    if invitation is None or invitation.used_at or invitation.revoked_at or invitation.expires_at <= timezone.now():
        return None
    return invitation


# Join codes


def _cohort_for_code(code: str) -> Cohort | None:
    code = code.strip().upper()
    if not code or len(code) > 16:
        return None
    return Cohort.objects.filter(join_code=code).first()


@transaction.atomic(durable=True)
def join_with_code(*, user: User, code: str) -> Membership:
    """A signed-in person joins a cohort as a learner with its join code (a member stays as they are)."""
    cohort = _cohort_for_code(code)
    if cohort is None:
        raise NotFound(_("참여 코드가 맞지 않거나 꺼져 있습니다."))
    membership = Membership.objects.select_for_update().filter(cohort=cohort, user=user).first()
    if membership is not None and membership.status == Membership.Status.REMOVED:
        raise NotFound(_("참여 코드가 맞지 않거나 꺼져 있습니다."), target=cohort, reason="제외된 구성원의 재참여")
    if membership is not None and membership.status == Membership.Status.ACTIVE:
        return membership
    membership = membership or Membership(cohort=cohort, user=user, role=CohortRole.LEARNER)
    membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
    membership.save()
    audit.record(actor=user, action="cohort.join", target=cohort, detail={"user": user.pk})
    access.forget(user)
    return membership


SIGN_UP_RESEND_AFTER = timedelta(minutes=10)


@transaction.atomic(durable=True)
def sign_up_with_code(*, code: str, name: str, email: str, base_url: str = "") -> Cohort:
    """A visitor signs up with a join code: a confirmation link goes to ``email``; following it sets the password
    and joins. The answer is the same whether or not the address has an account (nothing about it leaks)."""
    cohort = _cohort_for_code(code)
    if cohort is None:
        raise Invalid(_("참여 코드가 맞지 않거나 꺼져 있습니다."))
    email = email.strip()
    now = timezone.now()
    user = User.objects.filter(email__iexact=email).order_by("pk").first()
    if user is None:
        user = User(username=_unused_username(email, _taken_usernames([email])), email=email,
                    first_name=" ".join(name.split())[:150])
        user.set_unusable_password()
        user.save()
    elif not user.is_active:
        return cohort
    membership = Membership.objects.select_for_update().filter(cohort=cohort, user=user).first()
    if membership is not None and membership.status != Membership.Status.INVITED:
        return cohort  # already in it, or removed: nothing is sent, and the page says the same
    recent = Invitation.objects.filter(user=user, membership=membership, created_at__gt=now - SIGN_UP_RESEND_AFTER,
                                       used_at__isnull=True, revoked_at__isnull=True)
    if membership is not None and recent.exists():
        return cohort  # one mail per address and cohort every few minutes
    if membership is None:
        membership = Membership.objects.create(cohort=cohort, user=user, role=CohortRole.LEARNER,
                                               status=Membership.Status.INVITED, invited_at=now)
    invitation, raw = _issue(user=user, membership=membership, actor=None, now=now)
    _mail_invitation(invitation=invitation, raw=raw, base_url=base_url, actor=None, cohort=cohort)
    audit.record(actor=None, action="cohort.sign_up", target=cohort, detail={"user": user.pk})
    return cohort
