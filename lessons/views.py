"""Lesson pages. Views only parse HTTP and call selectors and services."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tutor import access
from tutor.forms import cleaned
from tutor.http import Request, SignedInRequest

from . import page_cache, selectors, services
from .forms import UnderstoodForm
from .models import (
    CompletionRecord,
    Course,
    PartKey,
    SelfReport,
)


@require_safe
def home(request: Request) -> HttpResponse:
    """A visitor's landing page; for a signed-in learner, a personal home: resume and each lesson's tracks."""
    context: dict = {"course": Course.objects.first()}
    if request.user.is_authenticated:
        progress = selectors.progress_of(request.user)
        context |= {"progress": progress, "resume": selectors.resume_point(request.user, progress)}
    else:
        context["lessons"] = selectors.visible_lessons(request.user)
    return render(request, "lessons/home.html", context)


@require_safe
def catalogue(request: Request) -> HttpResponse:
    def page() -> HttpResponse:
        lessons = selectors.visible_lessons(request.user)
        return render(request, "lessons/catalogue.html", {
            "course": Course.objects.first(), "lessons": lessons,
            "course_map": selectors.course_map(request.user, lessons),
        })

    return page_cache.for_visitors("catalogue", request, page)


@require_safe
def lesson_detail(request: Request, slug: str) -> HttpResponse:
    return page_cache.for_visitors(f"lesson:{slug}", request, lambda: _lesson_page(request, slug))


def _lesson_page(request: Request, slug: str) -> HttpResponse:
    lesson = selectors.access_lesson(request.user, slug)
    if request.user.is_authenticated:
        services.record_completion(user=request.user, lesson=lesson, kind=CompletionRecord.Kind.OPENED)
    version = lesson.current_version
    assert version is not None  # access_lesson returns only lessons with a version
    fixtures = selectors.fixtures_quoted(version)
    reports = selectors.reports_for(request.user, lesson)
    return render(
        request, "lessons/lesson_detail.html",
        {
            "lesson": lesson,
            "version": version,
            "parts": selectors.quoted_parts(version, fixtures),
            "self_checks": [(check, reports.get(check.key)) for check in version.self_checks.all()],
            "files": list(version.files.all()),
            "next_lesson": selectors.next_lesson(request.user, lesson),
            "required_lessons": selectors.required_lessons(request.user, lesson),
            "confidence_choices": SelfReport.Confidence.choices,
            "self_check_part": PartKey.SELF_CHECK.value,
            "explain_part": PartKey.EXPLAIN.value,
            "evidence_parts": [PartKey.PRACTICE.value, PartKey.TRANSFER.value, PartKey.EXPLAIN.value],
            "earlier_reports": selectors.earlier_reports_count(request.user, lesson),
        },
    )


@require_POST
def part_reached(request: SignedInRequest, slug: str, key: str) -> HttpResponse:
    """Record that the reader scrolled to a part (sent by lesson.js; a visitor's is ignored)."""
    if not request.user.is_authenticated or key not in PartKey.values:
        return HttpResponse(status=204)
    lesson = selectors.access_lesson(request.user, slug)
    services.record_completion(user=request.user, lesson=lesson, kind=CompletionRecord.Kind.PART_REACHED, item=key)
    return HttpResponse(status=204)


@require_http_methods(["GET", "HEAD", "POST"])
def self_check_answer(request: SignedInRequest, slug: str, key: str) -> HttpResponse:
    """Reveal an answer. Revealing is a POST, since it writes the "answer revealed" record: htmx gets the
    fragment, a browser without JavaScript is sent to the answer's own page. A GET only shows that page
    (a link, a reload, the redirect) and writes nothing."""
    check = selectors.access_self_check(request.user, slug, key)
    lesson = check.version.lesson
    if request.method == "POST":
        services.record_completion(user=request.user, lesson=lesson, kind=CompletionRecord.Kind.ANSWER_REVEALED,
                                   item=key)
        if not request.htmx:
            return redirect("lessons:answer", slug=slug, key=key)
    context = {
        "lesson": lesson,
        "check": check,
        "report": selectors.reports_for(request.user, lesson).get(key),
        "confidence_choices": SelfReport.Confidence.choices,
    }
    if request.htmx:
        return render(request, "lessons/lesson_detail.html#answer", context)
    return render(request, "lessons/self_check_answer.html", context)


@require_POST
def self_check_understood(request: SignedInRequest, slug: str, key: str) -> HttpResponse:
    check = selectors.access_self_check(request.user, slug, key)
    report = services.report_understood(user=request.user, self_check=check, **cleaned(UnderstoodForm(request.POST)))
    if request.htmx:
        return render(request, "lessons/lesson_detail.html#understood", {"report": report, "check": check})
    return redirect(reverse("lessons:detail", args=[slug]) + f"#check-{key}")


@require_safe
def lesson_file(request: Request, slug: str, name: str) -> HttpResponse:
    file = selectors.access_lesson_file(request.user, slug, name)
    response = HttpResponse(file.content, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file.name}"'
    return response


@require_safe
def lesson_diagram(request: Request, slug: str, digest: str, name: str) -> HttpResponse:
    """Serve a checked SVG as an image that can do nothing even when opened on its own."""
    diagram = selectors.access_diagram(request.user, slug, digest, name)
    response = HttpResponse(diagram.svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=86400"
    response.not_personal = True  # type: ignore[attr-defined]  # a published lesson's figure, named by its digest: the same for everyone
    return response


@login_required
@require_safe
def my_progress(request: SignedInRequest) -> HttpResponse:
    return render(
        request, "lessons/progress.html",
        {"progress": selectors.progress_of(request.user), "is_instructor": access.is_instructor(request.user)},
    )
