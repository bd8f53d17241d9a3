"""Numbers and bodies: a bad number is a Korean refusal or a 422 (never a 500); an oversized body is 413."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from exercises.evidence import services as evidence_services
from exercises.evidence.models import EvidenceTask, Submission
from lessons.models import Lesson
from tests.conftest import signed_in
from tutor.models import Cohort
from tutor.numbers import MAX_ID, BoundedIntegerField, int_or_none

pytestmark = pytest.mark.django_db

BAD_NUMBERS = ["²", "٣", "１２", "-1", "1e3", "0x10", "9" * 5000, str(MAX_ID + 1), str(2**64), " ", "abc"]


def id_routes() -> list[str]:
    """Every URL pattern of the site (pages and API) that takes a numeric id, as a template."""
    found: list[str] = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern, route)
            elif isinstance(pattern, URLPattern) and not route.startswith("/admin/") and re.search(r"<(id|int):|_id>", route):
                found.append(route.lstrip("^").rstrip("$"))

    walk(get_resolver(), "/")
    return found


def fill(route: str, value: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?[a-z_]+>", value, route)


def client_that_never_raises(user: User) -> Client:
    client = signed_in(user)
    client.raise_request_exception = False
    return client


def test_the_id_routes_cover_pages_and_the_api() -> None:
    """The walk below finds id routes in both halves of the site (so the test per route is not vacuous)."""
    routes = id_routes()
    assert len(routes) >= 20
    assert any(route.startswith("/api/") for route in routes) and any(not r.startswith("/api/") for r in routes)


# One test per route, so parallel test processes share them (all routes in one test took 21 s of CPU).
@pytest.mark.parametrize("route", id_routes())
def test_every_id_in_a_path_refuses_bad_numbers_without_a_500(route: str, course: list[Lesson], learner: User,
                                                              instructor: User) -> None:
    """Superscripts, other scripts' digits, huge and out-of-range numbers in any id path: 404 or 422."""
    for user in (learner, instructor):
        client = client_that_never_raises(user)
        for bad in BAD_NUMBERS:
            for method in (client.get, client.post):
                response = method(fill(route, bad))
                assert response.status_code < 500, (route, bad[:30], response.status_code)
                assert response.status_code != 200 or method is client.post, (route, bad[:30])


def test_int_or_none_accepts_only_ascii_digits_in_range() -> None:
    """The one parser: ASCII digits within the range, nothing else."""
    assert int_or_none("42") == 42 and int_or_none(" 7 ") == 7
    for bad in BAD_NUMBERS:
        assert int_or_none(bad) is None
    assert int_or_none("11", high=10) is None and int_or_none("0", low=1) is None


def test_the_form_field_gives_a_korean_error_for_a_superscript() -> None:
    """A form with a number field says in Korean what is wrong, for each kind of bad number."""
    field = BoundedIntegerField(min_value=1, max_value=100)
    for bad, message in (("²", "숫자(0–9)"), ("１２", "숫자(0–9)"), ("0", "이상"), ("101", "이하"), ("9" * 5000, "숫자(0–9)")):
        with pytest.raises(Exception) as caught:
            field.clean(bad)
        assert message in " ".join(caught.value.messages)  # type: ignore[attr-defined]
    assert field.clean("12") == 12


@pytest.fixture
def submission(course: list[Lesson], learner: User) -> Submission:
    task = EvidenceTask.objects.get(slug="afs-practice")
    evidence_services.save_draft(author=learner, task=task, text="증거", run_ids=[], lines=[])
    return evidence_services.submit(author=learner, task=task, submit_key="num-1")


def test_instructor_forms_refuse_bad_numbers_in_korean(submission: Submission, instructor: User) -> None:
    """Reviewer id, minimum and cohort filter: a bad number is refused (404 / Korean message), never 500."""
    client = client_that_never_raises(instructor)
    cohort = Cohort.objects.taught_by(instructor).filter(pk__in=Cohort.objects.attended_by(submission.author)).get()
    for bad in BAD_NUMBERS:
        assign = client.post(reverse("evidence:assign", args=[submission.pk]), {"reviewer": bad})
        assert assign.status_code == 404 and "학습자" in assign.content.decode()
        minimum = client.post(reverse("evidence:cohort-minimum", args=[cohort.pk, submission.task.slug]),
                              {"minimum": bad, "reason": "x"})
        assert minimum.status_code in {400, 409} and "<h1" in minimum.content.decode()
        assert client.get(reverse("evidence:queue"), {"cohort": bad}).status_code == 200


def test_cited_lines_refuse_bad_numbers_in_korean(course: list[Lesson], learner: User) -> None:
    """Evidence draft lines: "²" or a 5,000-digit number is a Korean 400, and the draft text is kept."""
    client = client_that_never_raises(learner)
    for bad in ("²", "9" * 5000, "１"):
        response = client.post(reverse("evidence:draft", args=["afs-practice"]), {"text": "초안", "lines": bad})
        assert response.status_code == 400 and "숫자" in response.content.decode()


def test_api_numbers_outside_the_schema_get_422(course: list[Lesson], learner: User) -> None:
    """The self-report's confidence as a superscript or a huge number: 422 problem+json."""
    client = client_that_never_raises(learner)
    url = "/api/lessons/answer-from-sources/self-checks/x/understood"
    for bad in ("²", 10**400, "9" * 5000, 2**64):
        response = client.post(url, json.dumps({"confidence": bad}), content_type="application/json")
        assert response.status_code in {404, 422}, (str(bad)[:20], response.status_code)
        assert response["Content-Type"].startswith("application/problem+json")


def test_a_json_body_over_the_limit_is_413_problem_json(learner: User, settings) -> None:
    """A 3 MiB JSON body is refused before it is read: 413 with a Korean problem+json."""
    client = client_that_never_raises(learner)
    body = json.dumps({"source": "가" * (3 * 1024 * 1024 // 3 + 10), "claims": ["x"]})
    response = client.post("/api/grounding/suggest", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/problem+json")
    assert json.loads(response.content)["code"] == "too_large"


def test_a_form_body_over_the_limit_is_a_korean_413_page(course: list[Lesson], learner: User) -> None:
    """The same limit on a page's form: a Korean 413 page, not Django's bare 400."""
    client = client_that_never_raises(learner)
    response = client.post(reverse("evidence:draft", args=["afs-practice"]), {"text": "가" * (3 * 1024 * 1024)})
    assert response.status_code == 413 and "너무 큽니다" in response.content.decode()
