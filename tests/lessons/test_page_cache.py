"""Visitors' lesson pages come from the page cache, but never older than the data and never anyone else's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from exercises.labs.models import Lab
from lessons import revision
from lessons.models import Lesson
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db
URL = "/lessons/answer-from-sources/"


@pytest.fixture(autouse=True)
def revision_row() -> None:
    # A transactional test's flush empties every table, the revision's row too (a site never flushes):
    # put it back, as the migration made it. (tests/conftest.py empties the page cache before each test.)
    revision.install(connection)


def visit(client: Client, url: str = URL) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_a_second_visitor_gets_the_same_page_for_one_query(course: list[Lesson]) -> None:
    """The rendered page is kept: the next visitor's request reads only the content revision."""
    first, rendering = visit(Client())
    second, cached = visit(Client())
    assert second == first and cached == 1 < rendering
    assert "csrfmiddlewaretoken" not in first and "X-CSRFToken" not in first, "nothing personal in a shared page"


def test_a_change_to_what_the_page_lists_shows_at_once(course: list[Lesson]) -> None:
    """Renaming a lab listed on the lesson is a new page for the very next visitor, with no waiting for expiry."""
    lab = Lab.objects.select_related("lesson").get(slug="replay-retry")
    url = f"/lessons/{lab.lesson.slug}/"
    assert lab.title in visit(Client(), url)[0]
    Lab.objects.filter(pk=lab.pk).update(title="새 이름의 실습 <b>굵게</b>")
    page, _count = visit(Client(), url)
    assert "새 이름의 실습 &lt;b&gt;굵게&lt;/b&gt;" in page
    Lab.objects.filter(pk=lab.pk).update(is_active=False)
    assert "새 이름의 실습" not in visit(Client(), url)[0]


def test_signed_in_readers_and_visitors_never_share_a_page(course: list[Lesson], learner: User) -> None:
    """A signed-in reader's page (their name, their token) is never kept, and they never get a visitor's page."""
    member = signed_in(learner)
    mine, _count = visit(member)
    assert learner.username in mine
    visitors, _count = visit(Client())
    assert learner.username not in visitors and "로그인</a>" in visitors
    again, _count = visit(member)
    assert learner.username in again and "로그인</a>하면" not in again


def test_a_visitor_with_a_session_or_a_query_is_rendered_afresh(course: list[Lesson]) -> None:
    """A cookie may carry a message for this visitor, and a query string ends up in links: neither is shared."""
    visit(Client())
    with_cookie = Client()
    with_cookie.cookies["sessionid"] = "x"
    _page, queries_with_cookie = visit(with_cookie)
    _page, queries_plain = visit(Client())
    assert queries_with_cookie > queries_plain
    page, _count = visit(Client(), URL + "?next=%3Cscript%3E")
    assert "<script>" not in page
    assert "%3Cscript%3E" not in visit(Client())[0]


def test_the_database_raises_the_revision_on_any_write_to_content(course: list[Lesson]) -> None:
    """Every watched table has its triggers, and a raw SQL write (no ORM, no service) still raises the revision."""
    assert revision.watched_without_triggers(connection) == []
    before = revision.current()
    with connection.cursor() as cursor:
        cursor.execute("UPDATE labs_lab SET title = title")
    assert before is not None and (revision.current() or 0) > before
