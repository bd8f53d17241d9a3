"""Pages of the notices app: my notices, the unread count in the header, preferences, unsubscribe."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tutor.accounts.views import private
from tutor.forms import cleaned
from tutor.http import SignedInRequest

from . import selectors, services
from .forms import MarkReadForm, PreferencesForm
from .models import Kind


@login_required
@require_safe
def notice_list(request: SignedInRequest) -> HttpResponse:
    return private(render(request, "notices/list.html", {
        "notices": selectors.notices_of(request.user),
        "form": PreferencesForm(initial_modes=services.preferences_of(request.user)),
    }))


@require_safe
def unread_badge(request: HttpRequest) -> HttpResponse:
    """The header's unread count, fetched by htmx after the page (so no page pays a query for it)."""
    return private(render(request, "notices/_badge.html", {"unread": selectors.unread_count(request.user)}))


@login_required
@require_POST
def mark_read(request: SignedInRequest) -> HttpResponse:
    services.mark_read(user=request.user, **cleaned(MarkReadForm(request.POST)))
    return redirect("notices:list")


@login_required
@require_POST
def preferences(request: SignedInRequest) -> HttpResponse:
    form = PreferencesForm(request.POST, initial_modes=services.preferences_of(request.user))
    if form.is_valid():
        services.set_preferences(user=request.user, modes=form.cleaned_data)
        messages.success(request, "알림 설정을 저장했습니다.")
        return redirect("notices:list")
    return private(render(request, "notices/list.html", {
        "notices": selectors.notices_of(request.user), "form": form}, status=422))


@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A mail's link: works signed out. GET shows one button; the POST turns that kind of mail off."""
    user, kind = services.read_unsubscribe_token(token)
    done = False
    if request.method == "POST":
        services.unsubscribe(token=token)
        done = True
    return private(render(request, "notices/unsubscribe.html",
                          {"kind_label": Kind(kind).label, "done": done, "token": token}))
