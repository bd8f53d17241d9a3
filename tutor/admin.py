"""Admin for cohorts and the read-only audit log."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest

from . import services
from .forms import AdminSignInForm
from .models import AuditEntry, Cohort, IntegrityCheck, Membership

admin.site.site_header = "근거 튜터 관리"
admin.site.login_form = AdminSignInForm
admin.site.site_title = "근거 튜터 관리"


def staff(request: HttpRequest) -> User | None:
    """The signed-in staff member behind an admin request (the admin lets no visitor in)."""
    return request.user if isinstance(request.user, User) else None


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records that are written only by the site's own services (and for audit entries)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "status", "student_id", "joined_at", "removed_at"]
    readonly_fields = ["joined_at", "removed_at"]
    autocomplete_fields = ["user"]


@admin.register(Cohort)
class CohortAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    inlines = [MembershipInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        before = services.cohort_members(form.instance) if change else {}
        super().save_related(request, form, formsets, change)
        services.record_membership_change(actor=request.user, cohort=form.instance, before=before)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: an audit entry is never changed or deleted through the site. The list shows the last checks."""

    list_display = ["at", "seq", "actor", "action", "target_type", "target_label", "reason", "repeats"]
    list_filter = ["action", "target_type"]
    search_fields = ["target_label", "reason", "target_id"]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        latest = {kind: IntegrityCheck.objects.filter(kind=kind).first() for kind in IntegrityCheck.Kind.values}
        return super().changelist_view(request, {**(extra_context or {}), "integrity_checks": latest.values()})


@admin.register(IntegrityCheck)
class IntegrityCheckAdmin(ReadOnlyAdmin):
    """What ``verify_audit`` and ``verify_records`` found, newest first."""

    list_display = ["checked_at", "kind", "ok", "checked", "head_seq"]
    list_filter = ["kind", "ok"]
