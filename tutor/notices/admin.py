"""Staff see notices and the daily runs read-only (who was told what, which worker ran a day's job)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import DailyRun, Notice


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Notice)
class NoticeAdmin(ReadOnly):
    list_display = ["created_at", "user", "kind", "title", "read_at"]
    list_filter = ["kind"]
    search_fields = ["key", "user__username"]


@admin.register(DailyRun)
class DailyRunAdmin(ReadOnly):
    list_display = ["date", "job", "claimed_by", "claimed_at"]
