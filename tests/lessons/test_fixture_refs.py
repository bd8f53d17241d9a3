"""Texts point at fixture lines instead of copying them: every page fills them from the version in use, and the
fixture admin shows where a fixture is used and asks before saving a change that reaches lines something rests on."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from exercises.grounding import services as grounding
from exercises.grounding.models import Exercise
from lessons.fixture_refs import lines_referred, references_in, resolve, versions_for
from lessons.models import Fixture, FixtureVersion, Lesson
from lessons.services import create_fixture_version
from tests.conftest import signed_in
from tests.exercises.grounding.helpers import typed

pytestmark = pytest.mark.django_db
OLD = "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다."
NEW = "영업시간은 화요일부터 토요일까지, 12시부터 19시까지입니다."
ANSWER = "네, 토요일에는 18시까지 영업하므로 17시에 방문하실 수 있습니다. (2)"


@pytest.fixture
def notice(course: list[Lesson]) -> Fixture:
    return Fixture.objects.select_related("current_version").get(slug="bookshop-notice")


def change_hours(fixture: Fixture) -> FixtureVersion:
    assert fixture.current_version is not None
    return create_fixture_version(fixture=fixture, text=fixture.current_version.text.replace(OLD, NEW),
                                  origin=FixtureVersion.Origin.ADMIN, actor=None, reason="영업시간 변경 (가상)")


def test_references_are_filled_escaped_and_never_quote_a_missing_line(notice: Fixture) -> None:
    """[[N]] quotes the text's own fixture, [[slug:N]] a named one, [[slug]] shows it all; a line that is gone
    says so; in markup the line is escaped."""
    version = notice.current_version
    assert version is not None
    versions = {"bookshop-notice": version}
    assert resolve("줄: [[2]]", {}, own=version) == f"줄: “{OLD}”"
    assert resolve("[[bookshop-notice:3]]", versions) == "“일요일과 월요일은 쉽니다.”"
    assert resolve("[[bookshop-notice]]", versions).splitlines()[1] == f"2 {OLD}"
    assert "99번 줄이 없습니다" in resolve("[[99]]", {}, own=version)
    assert resolve("x = [[1]]", {}) == "x = [[1]]", "brackets that name no fixture are code, left alone"
    planted = FixtureVersion(fixture=notice, number=9, text="<script>alert(1)</script>")
    assert "<script>" not in resolve("[[1]]", {}, own=planted, html=True)
    in_attribute = resolve('<img alt="[[bookshop-notice:2]]"> [[bookshop-notice:2]]', versions, html=True)
    assert in_attribute.startswith('<img alt="[[bookshop-notice:2]]"> <q class="fixture-ref"'), in_attribute
    assert lines_referred("[[2]] 와 [[bookshop-notice:7]]", "bookshop-notice", own=True) == {2, 7}
    assert lines_referred("[[bookshop-notice]]", "bookshop-notice") is None


def judged(user: User, exercise: Exercise, key: str):
    """An attempt whose claims are all linked to the opening-hours question, so its explanation is shown."""
    attempt = grounding.start_attempt(user=user, exercise=exercise, answer_text=ANSWER, variant_key="",
                                      idempotency_key=key)
    grounding.mark_claims(user=attempt.user, attempt=attempt, marks=typed({c.pk: {"judgement": "grounded", "question": "visit-1700",
                                                         "lines": "2"} for c in attempt.claims.all()}))
    grounding.submit_attempt(user=attempt.user, attempt=attempt)
    return attempt


def test_pages_show_the_line_of_the_version_in_use(notice: Fixture, learner: User, instructor: User) -> None:
    """After the hours change, the lesson text and the task instructions quote the new line; an attempt made
    before the change keeps explaining with the line it was judged against; a new one gets no explanation from the
    key written for the old line (it says the key is being checked again) until someone confirms the key, and then
    its explanation quotes the new line."""
    exercise = Exercise.objects.get(slug="bookshop")
    before = judged(learner, exercise, "before")
    change_hours(notice)
    client = signed_in(learner)
    lesson = client.get("/lessons/answer-from-sources/").content.decode()
    assert f"2 {NEW}" in lesson and f"<q class=\"fixture-ref\" title=\"bookshop-notice 판 2, 2번 줄\">{NEW}" in lesson
    assert "[[" not in lesson
    visitor = Client().get("/lessons/answer-from-sources/").content.decode()
    assert f"2 {NEW}" in visitor and f"2 {OLD}" not in visitor
    task = client.get("/evidence/afs-explain/").content.decode()
    assert "[[" not in task
    assert '4번 줄(<q class="fixture-ref" title="bookshop-notice 판 2, 4번 줄">지하철 가람역' in task
    old_feedback = client.get(f"/exercises/attempts/{before.pk}/").content.decode()
    assert f"2번 줄은 영업하는 요일과 시간을 밝힙니다: “{OLD}”" in old_feedback and NEW not in old_feedback
    after = judged(learner, Exercise.objects.get(slug="bookshop"), "after")
    api = client.get(f"/api/grounding/attempts/{after.pk}/feedback").json()
    assert all(c["explanation"] == "" and c["verdict"] == "unchecked" for c in api["claims"]), api
    assert "자료가 바뀌어 답안 키를 다시 확인하는 중" in client.get(f"/exercises/attempts/{after.pk}/").content.decode()
    grounding.confirm_keys(actor=instructor, exercise=Exercise.objects.get(slug="bookshop"),
                           reason="토요일 영업시간이 바뀌어도 17시는 여전히 영업시간 안")
    api = client.get(f"/api/grounding/attempts/{after.pk}/feedback").json()
    explanations = " ".join(c.get("explanation", "") for c in api["claims"])
    assert NEW in explanations and "[[" not in explanations


def admin_post(client: Client, fixture: Fixture, text: str, **extra: str):
    return client.post(f"/admin/lessons/fixture/{fixture.pk}/change/", {
        "title": fixture.title, "text": text, "reason": "가상 자료 손질",
        "versions-TOTAL_FORMS": "0", "versions-INITIAL_FORMS": "0", **extra,
    })


def test_the_admin_shows_uses_and_asks_before_changing_a_line_they_rest_on(notice: Fixture,
                                                                          fixture_admin: User) -> None:
    """The change form lists the lesson, the exercise's keys and the task resting on the fixture; saving a changed
    line that keys rest on is held back with the list until confirmed; so is a new line, which may name what a key
    says the source lacks."""
    fixture_admin.is_staff = True
    fixture_admin.save()
    client = signed_in(fixture_admin)
    form = client.get(f"/admin/lessons/fixture/{notice.pk}/change/").content.decode()
    assert "사용처" in form and "근거 연습 답안 키" in form and "남길 증거 과제" in form and "레슨 본문" in form
    assert "check_judgements.py" in form, "a file that copies the lines word for word is listed as resting on them"
    assert notice.current_version is not None
    text = notice.current_version.text.replace(OLD, NEW)
    held = admin_post(client, notice, text)
    page = held.content.decode()
    assert held.status_code == 200 and "바뀌는 줄(2번)에 기대는 곳이" in page and "2번 줄" in page
    notice.refresh_from_db()
    assert notice.current_version.text.count(OLD) == 1, "nothing saved before confirmation"
    assert admin_post(client, notice, text, confirm_changed_lines="on").status_code == 302
    notice.refresh_from_db()
    assert NEW in notice.current_version.text
    variant = Fixture.objects.select_related("current_version").get(slug="bookshop-notice-variant")
    added = variant.current_version.text.rstrip("\n") + "\n주말에는 어린이 책 코너를 엽니다.\n"
    held_new = admin_post(client, variant, added)
    # a new line may name what a key says the source lacks (parking): the keys that the source is silent rest on it
    assert held_new.status_code == 200 and "주차" in held_new.content.decode(), "a new line is held for silence keys"
    assert admin_post(client, variant, added, confirm_changed_lines="on").status_code == 302


def test_every_reference_in_the_course_names_a_line_that_exists(course: list[Lesson]) -> None:
    """Each [[…]] in the course's lessons, keys, variants, sample claims, tasks and labs resolves to a real line."""
    from exercises.evidence.models import EvidenceTask
    from exercises.labs.models import Lab

    texts: list[tuple[str, str, FixtureVersion | None]] = []
    for lesson in course:
        assert lesson.current_version is not None
        texts += [(lesson.slug, part["html"], None) for part in lesson.current_version.parts]
    for exercise in Exercise.objects.active().select_related("fixture__current_version"):
        own = exercise.fixture.current_version
        texts += [(exercise.slug, q.explanation, own) for q in exercise.questions.all()]
        for variant in exercise.variants.select_related("fixture__current_version"):
            texts += [(variant.key, o.get("explanation", ""), variant.fixture.current_version)
                      for o in variant.overrides.values()]
        for sample in exercise.samples.all():
            texts += [(sample.key, c.get("explanation", ""), own) for c in sample.claims]
    for task in EvidenceTask.objects.active().select_related("fixture__current_version"):
        texts.append((task.slug, task.instructions_html, task.fixture.current_version if task.fixture else None))
    texts += [(lab.slug, lab.instructions_html, None) for lab in Lab.objects.active()]
    fixtures = set(Fixture.objects.values_list("slug", flat=True))
    checked = 0
    for where, text, own in texts:
        for ref in references_in(text):
            if ref.slug is None and own is None:
                continue  # code like [[1]] in a lesson: no fixture is the text's own
            assert ref.slug is None or ref.slug in fixtures, (where, ref)
            checked += 1
        shown = resolve(text, versions_for(text), own=own)
        assert "줄이 없습니다" not in shown, where
    assert checked >= 15, "the bookshop texts point at their lines"
