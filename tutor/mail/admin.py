"""Staff see outgoing mail and may put a failed message back in the queue."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from tutor.errors import TutorError

from . import services
from .models import OutboundMail


@admin.register(OutboundMail)
class OutboundMailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "to", "subject", "state", "attempts", "sent_at"]
    list_filter = ["state"]
    search_fields = ["to", "key"]
    readonly_fields = [field.name for field in OutboundMail._meta.fields]
    actions = ["requeue"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description="보내지 못한 메일 다시 보내기")
    def requeue(self, request: HttpRequest, queryset: QuerySet[OutboundMail]) -> None:
        for mail in queryset:
            try:
                services.requeue_mail(actor=request.user, mail_id=mail.pk)  # type: ignore[arg-type]
            except TutorError as exc:
                self.message_user(request, f"{mail}: {exc.detail}", messages.WARNING)
