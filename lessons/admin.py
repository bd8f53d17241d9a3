"""Admin for lessons and fictional fixtures.

Publication goes through ``set_lesson_published`` and fixture edits through
``create_fixture_version``, so the admin writes the same audit entries and
versions as every other path. Lesson text itself is edited in git, not here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from tutor.admin import ReadOnlyAdmin, staff
from tutor.models import AuditEntry

from .fixture_changes import changed_numbers
from .fixture_checks import personal_data_findings, refusal_message
from .fixture_refs import affected_by, uses_of
from .models import Fixture, FixtureVersion, Lesson, LessonVersion
from .services import create_fixture_version, set_lesson_published


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "slug", "order", "is_published", "current_version"]
    list_filter = ["is_published"]
    readonly_fields = ["course", "slug", "order", "is_published", "current_version"]
    actions = ["publish", "unpublish"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="선택한 레슨 게시")
    def publish(self, request: HttpRequest, queryset: Any) -> None:
        self._set(request, queryset, True)

    @admin.action(description="선택한 레슨 게시 중단")
    def unpublish(self, request: HttpRequest, queryset: Any) -> None:
        self._set(request, queryset, False)

    def _set(self, request: HttpRequest, queryset: Any, published: bool) -> None:
        with transaction.atomic():
            for lesson in queryset:
                set_lesson_published(lesson=lesson, published=published, actor=staff(request), reason="관리 화면에서 변경")
        self.message_user(request, "게시 상태를 바꾸고 감사 기록을 남겼습니다.", messages.SUCCESS)


@admin.register(LessonVersion)
class LessonVersionAdmin(ReadOnlyAdmin):
    list_display = ["title", "lesson", "number", "created_at"]


class FixtureForm(forms.ModelForm):
    """Edit a fixture's text; a change that reaches lines keys or texts rest on must be confirmed first."""

    text = forms.CharField(label="내용 (가상 자료)", widget=forms.Textarea(attrs={"rows": 14}))
    reason = forms.CharField(label="고친 이유", max_length=300)
    confirm_changed_lines = forms.BooleanField(
        label="바뀐 줄에 기대는 답안 키와 글을 확인했습니다", required=False,
        help_text="바뀐 줄을 가리키는 곳이 있으면 저장 전에 목록을 보여 드립니다. 확인한 뒤 이 칸을 고르고 다시 저장하세요.")

    class Meta:
        model = Fixture
        fields = ["title"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.current_version:
            self.fields["text"].initial = self.instance.current_version.text

    def clean_text(self) -> str:
        text = self.cleaned_data["text"].replace("\r\n", "\n")
        findings = personal_data_findings(text)
        if findings:
            raise forms.ValidationError(refusal_message(findings))
        return text

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        current = self.instance.current_version if self.instance.pk else None
        text = cleaned.get("text")
        if current is None or text is None or cleaned.get("confirm_changed_lines"):
            return cleaned
        changed = changed_numbers(current.text, text)
        affected = affected_by(uses_of(self.instance), changed)
        if affected:
            raise forms.ValidationError(
                [f"바뀌는 줄({', '.join(map(str, sorted(changed)))}번)에 기대는 곳이 {len(affected)}군데 있습니다. "
                 "아래를 확인하고, 그대로 저장하려면 '확인했습니다' 칸을 고르세요. 저장하면 바뀐 줄에 기대는 답안 키는 "
                 "작성자나 강사가 새 판에 맞는지 다시 확인할 때까지 학습자의 판정에 쓰이지 않습니다."]
                + [f"{use.kind} · {use.label} — " + (f"{', '.join(map(str, sorted(use.lines)))}번 줄"
                                                    if use.lines is not None else "자료 전체")
                   for use in affected])
        return cleaned


class FixtureVersionInline(admin.TabularInline):
    """The fixture's versions, newest first, each with the reason it was changed; fits a 1280 px screen
    (the digest is shortened, the diff folds away and wraps)."""

    model = FixtureVersion
    fields = ("number", "origin", "created_by", "created_at", "reason", "short_digest", "diff")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["-number"]

    class Media:
        css = {"all": ["css/admin-fixtures.css"]}

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="고친 이유")
    def reason(self, version: FixtureVersion) -> str:
        entry = (AuditEntry.objects.about(version.fixture).filter(action="fixture.version", detail__number=version.number)
                 .order_by("-at").first())
        return entry.reason if entry and entry.reason else "-"

    @admin.display(description="SHA-256")
    def short_digest(self, version: FixtureVersion) -> str:
        return format_html('<code class="digest-short" title="{}">{}…</code>', version.digest, version.digest[:12])

    @admin.display(description="이전 판과 달라진 점")
    def diff(self, version: FixtureVersion) -> str:
        if not version.diff_from_previous:
            return "-"
        return format_html('<details class="fixture-diff"><summary>{}</summary><pre>{}</pre></details>',
                           f"{len(version.diff_from_previous.splitlines())}줄 보기", version.diff_from_previous)


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    form = FixtureForm
    list_display = ["title", "slug", "is_fictional", "current_version"]
    readonly_fields = ["slug", "lesson", "is_fictional", "uses"]

    @admin.display(description="사용처 (이 자료에 기대는 곳)")
    def uses(self, fixture: Fixture) -> str:
        found = uses_of(fixture) if fixture.pk else []
        if not found:
            return "-"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{} · {} — {}</li>",
            ((u.kind, u.label, f"{', '.join(map(str, sorted(u.lines)))}번 줄" if u.lines is not None else "자료 전체")
             for u in found)))
    inlines = [FixtureVersionInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Fixture, form: FixtureForm, change: bool) -> None:
        with transaction.atomic():
            obj.save()
            text = form.cleaned_data["text"]
            if obj.current_version is None or obj.current_version.text != text:
                create_fixture_version(
                    fixture=obj, text=text, origin=FixtureVersion.Origin.ADMIN, actor=staff(request),
                    reason=form.cleaned_data["reason"],
                )
