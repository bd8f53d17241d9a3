"""Answer groups: claims no check could judge are gathered across learners and cohorts; an instructor of a
learner in the group judges it once and every learner's feedback carries that verdict with the basis 강사 판정."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from exercises.grounding import services
from exercises.grounding.models import Attempt, ClaimGroup, Exercise, GroupJudgement
from tests.conftest import join, signed_in
from tests.exercises.grounding.helpers import typed
from tutor.models import AuditEntry, Cohort
from tutor.roles import CohortRole, Role

pytestmark = pytest.mark.django_db
# A claim the source does not address, with nothing any automatic check can hold it to.
GUESS_A = "독서 모임은 책방 이층 모임방에서 열립니다 (5)."
GUESS_B = "**독서 모임은** 책방 이층 모임방에서 열립니다."
ELSEWHERE = "독서 모임은, 책방 이층 모임방에서 열립니다!"


def submit(user: User, exercise: Exercise, text: str, judgement: str, key: str, lines: str = "") -> Attempt:
    attempt = services.start_attempt(user=user, exercise=exercise, answer_text=text, variant_key="", idempotency_key=key)
    services.mark_claims(user=attempt.user, attempt=attempt, marks=typed({c.pk: {"judgement": judgement, "question": "", "lines": lines}
                                                 for c in attempt.claims.all()}))
    return services.submit_attempt(user=attempt.user, attempt=attempt)


def only_claim(attempt: Attempt) -> dict:
    attempt.refresh_from_db()
    assert attempt.feedback is not None
    return attempt.feedback["claims"][0]


@pytest.fixture
def other_cohort_learner(make_user: Callable[..., User]) -> User:
    user = make_user("elsewhere", in_cohort=False)
    join(Cohort.objects.create(name="다른 기수"), user)
    return user


@pytest.fixture
def other_instructor(make_user: Callable[..., User]) -> User:
    user = make_user("teacher2", Role.INSTRUCTOR, in_cohort=False)
    join(Cohort.objects.create(name="셋째 기수"), user, CohortRole.INSTRUCTOR)
    return user


def test_similar_claims_group_across_learners_and_one_judgement_backs_all(
        learner: User, other_learner: User, other_cohort_learner: User, instructor: User, bookshop: Exercise) -> None:
    """Two learners' claims that differ only in emphasis, citation and spacing, plus a learner of another cohort,
    fall in one group; until judged each sees 강사 확인 대기; the instructor's judgement gives every one of them
    맞음 or 다시 보기 with the basis 강사 판정, and so does a later attempt."""
    first = submit(learner, bookshop, GUESS_A, "no_data", "a")
    second = submit(other_learner, bookshop, GUESS_B, "grounded", "b", lines="5")
    third = submit(other_cohort_learner, bookshop, ELSEWHERE, "no_data", "c")
    for attempt in (first, second, third):
        item = only_claim(attempt)
        assert item["verdict"] == "unchecked" and item["basis"] == "강사 확인 대기", item
    assert ClaimGroup.objects.count() == 1
    group = ClaimGroup.objects.get()
    assert group.claims.count() == 3
    listed = signed_in(instructor).get("/api/grounding/exercises/bookshop/groups").json()["groups"]
    assert [(g["claims"], g["learners"]) for g in listed] == [(3, 3)], "counts span every cohort"
    assert set(listed[0]["examples"]) == {GUESS_A, GUESS_B.replace("**", "")}, "example texts come only from the instructor's learners"

    services.judge_group(actor=instructor, group=group, relation="silent", lines=[],
                         explanation="안내문은 모임을 어디서 여는지 말하지 않습니다.")
    right, wrong, elsewhere = only_claim(first), only_claim(second), only_claim(third)
    assert right["verdict"] == "right" and right["check"] == "group_judgement" and right["key_version"] == 1
    assert right["basis"].startswith("강사 판정")
    assert wrong["verdict"] == "review" and wrong["basis"].startswith("강사 판정")
    assert elsewhere["verdict"] == "right", "the judgement backs learners of every cohort"
    assert any(c["name"] == "group_judgement" for c in right["checks"])
    later = submit(learner, bookshop, GUESS_B, "no_data", "d")
    assert only_claim(later)["verdict"] == "right" and only_claim(later)["check"] == "group_judgement"
    entry = AuditEntry.objects.filter(action="grounding.group_judgement").get()
    assert entry.actor == instructor and entry.after is not None and entry.after["relation"] == "silent"


def test_a_revised_judgement_is_a_new_version_and_the_feedback_says_it_changed(
        learner: User, instructor: User, bookshop: Exercise) -> None:
    """Revising makes version 2 (version 1 stays), flips the learner's verdict, and their feedback says it changed."""
    attempt = submit(learner, bookshop, GUESS_A, "grounded", "a", lines="5")
    group = ClaimGroup.objects.get()
    services.judge_group(actor=instructor, group=group, relation="restates", lines=[5], explanation="5번 줄의 모임 안내와 같다고 보았습니다.")
    assert only_claim(attempt)["verdict"] == "right"
    services.judge_group(actor=instructor, group=group, relation="silent", lines=[], explanation="모임 장소는 원문에 없습니다.")
    item = only_claim(attempt)
    assert item["verdict"] == "review" and item["key_version"] == 2 and "판 1 → 판 2" in item["changed"]
    assert list(GroupJudgement.objects.values_list("version", flat=True).order_by("version")) == [1, 2]
    assert AuditEntry.objects.filter(action="grounding.group_judgement").count() == 2
    page = signed_in(learner).get(f"/exercises/attempts/{attempt.pk}/").content.decode()
    assert "강사 판정" in page and "판정이 바뀌었습니다" in page


def test_bad_judgements_are_refused_with_a_korean_message(learner: User, instructor: User, bookshop: Exercise) -> None:
    """No explanation, a line outside the source, or 원문과 같음 with no line: refused, nothing saved."""
    submit(learner, bookshop, GUESS_A, "grounded", "a", lines="5")
    group = ClaimGroup.objects.get()
    client = signed_in(instructor)
    url = f"/exercises/bookshop/groups/{group.pk}/judgement/"
    for data, message in (({"relation": "silent", "lines": "", "explanation": ""}, "필수"),
                          ({"relation": "restates", "lines": "99", "explanation": "있음"}, "99번 줄은 없습니다"),
                          ({"relation": "restates", "lines": "", "explanation": "있음"}, "줄 번호를 적어")):
        response = client.post(url, data)
        assert response.status_code == 400 and message in response.content.decode(), data
    api = client.post(f"/api/grounding/exercises/bookshop/groups/{group.pk}/judgement",
                      {"relation": "restates", "lines": [], "explanation": "x"}, content_type="application/json")
    assert api.status_code == 400 and api["Content-Type"].startswith("application/problem+json")
    assert not GroupJudgement.objects.exists()


def test_instructor_page_and_api_list_groups_largest_first(learner: User, other_learner: User, instructor: User,
                                                          bookshop: Exercise) -> None:
    """The instructor sees the groups of their learners' claims, the biggest first, and judges through the page."""
    submit(learner, bookshop, GUESS_A, "no_data", "a")
    submit(other_learner, bookshop, GUESS_B, "no_data", "b")
    submit(learner, bookshop, "독서 모임에서는 매달 다른 책을 함께 읽습니다.", "no_data", "c")
    client = signed_in(instructor)
    body = client.get("/api/grounding/exercises/bookshop/groups").json()
    assert [g["claims"] for g in body["groups"]] == [2, 1]
    assert body["groups"][0]["examples"] and body["groups"][0]["judgement"] is None
    assert "주장 묶음" in client.get("/").content.decode(), "linked from the instructor's navigation"
    index = client.get("/exercises/answer-groups/")
    assert index.status_code == 200 and "/exercises/bookshop/groups/" in index.content.decode()
    page = client.get("/exercises/bookshop/groups/").content.decode()
    assert "주장 2개 · 학습자 2명" in page and 'name="relation"' in page
    group_id = body["groups"][0]["id"]
    posted = client.post(f"/exercises/bookshop/groups/{group_id}/judgement/",
                         {"relation": "silent", "lines": "", "explanation": "원문에 모임 장소 이야기는 없습니다."})
    assert posted.status_code == 302
    judged = client.post(f"/api/grounding/exercises/bookshop/groups/{group_id}/judgement",
                         {"relation": "silent", "lines": [], "explanation": "모임 장소는 안내문에 없습니다."},
                         content_type="application/json")
    assert judged.status_code == 201 and judged.json()["judgement"]["version"] == 2


def test_nobody_but_an_instructor_of_a_learner_with_attempts_sees_or_judges_groups(
        learner: User, instructor: User, other_instructor: User, bookshop: Exercise) -> None:
    """The learner, another cohort's instructor and a visitor get 404 from the page, the judgement form and the API."""
    submit(learner, bookshop, GUESS_A, "no_data", "a")
    group = ClaimGroup.objects.get()
    for client in (signed_in(learner), signed_in(other_instructor), Client()):
        assert client.get("/api/grounding/exercises/bookshop/groups").status_code == 404
        assert client.post(f"/api/grounding/exercises/bookshop/groups/{group.pk}/judgement",
                           {"relation": "silent", "lines": [], "explanation": "x"},
                           content_type="application/json").status_code == 404
        assert client.get("/exercises/bookshop/groups/").status_code == 404
        assert client.post(f"/exercises/bookshop/groups/{group.pk}/judgement/",
                           {"relation": "silent", "lines": "", "explanation": "x"}).status_code == 404
        index = client.get("/exercises/answer-groups/")
        assert index.status_code == 404 or "/exercises/bookshop/groups/" not in index.content.decode()
    assert signed_in(learner).get("/exercises/answer-groups/").status_code == 404
    assert Client().get("/exercises/answer-groups/").status_code == 404
    assert signed_in(instructor).get("/api/grounding/exercises/venue-rental/groups").status_code == 404, \
        "an exercise none of their learners attempted"
    assert not GroupJudgement.objects.exists()


def test_the_service_itself_refuses_someone_who_teaches_nobody_in_the_group(
        learner: User, other_instructor: User, bookshop: Exercise) -> None:
    """judge_group checks the policy too: another cohort's instructor gets NotFound and nothing is written."""
    from tutor.errors import NotFound

    submit(learner, bookshop, GUESS_A, "no_data", "a")
    with pytest.raises(NotFound):
        services.judge_group(actor=other_instructor, group=ClaimGroup.objects.get(), relation="silent", lines=[],
                             explanation="없음")
    assert not GroupJudgement.objects.exists()


def test_the_to_do_names_waiting_groups_to_the_teacher_and_judged_claims_to_the_learner(
        learner: User, other_learner: User, instructor: User, bookshop: Exercise) -> None:
    """Before a judgement the instructor's to-do lists the exercise's waiting groups and the learner's lists
    nothing; after it the instructor's has none left and the learner's links to the attempt that changed."""
    first = submit(learner, bookshop, GUESS_A, "no_data", "a")
    submit(other_learner, bookshop, GUESS_B, "grounded", "b", lines="5")
    teacher_todo = signed_in(instructor).get("/api/me/todo").json()
    assert [i["kind"] for i in teacher_todo if i["kind"] == "answer_group"] == ["answer_group"]
    assert not [i for i in signed_in(learner).get("/api/me/todo").json() if i["kind"] == "claim_judged"]
    services.judge_group(actor=instructor, group=ClaimGroup.objects.get(), relation="silent", lines=[],
                         explanation="안내문은 모임 장소를 말하지 않습니다.")
    assert not [i for i in signed_in(instructor).get("/api/me/todo").json() if i["kind"] == "answer_group"]
    judged = [i for i in signed_in(learner).get("/api/me/todo").json() if i["kind"] == "claim_judged"]
    assert [i["url"] for i in judged] == [reverse("grounding:attempt", args=[first.pk])]


def test_a_learners_hidden_characters_reach_the_instructor_as_marks(
        learner: User, other_learner: User, instructor: User, bookshop: Exercise) -> None:
    """Trojan Source in a pasted answer: a bidi override and a zero-width space in a learner's claim are shown
    to the instructor on the answer-groups page as visible marks, never as the raw characters."""
    hostile = "독서 모임은 책방 이층 \u202e모임방\u202c에서\u200b 열립니다."
    submit(learner, bookshop, hostile, "no_data", "a")
    submit(other_learner, bookshop, hostile, "no_data", "b")
    page = signed_in(instructor).get("/exercises/bookshop/groups/").content.decode()
    assert "\u202e" not in page and "\u200b" not in page
    assert "⟨U+202E⟩" in page and "⟨U+200B⟩" in page


@pytest.mark.parametrize(("same", "other"), [
    (["토요일 오전 10시부터 오후 6시까지 운영합니다.", "토요일은 10:00~18:00 운영해요 (2)", "- **토요일**: 10시부터 6시까지 운영"],
     ["토요일은 10시부터 6시까지 운영하지 않습니다.", "토요일은 11시부터 6시까지 운영합니다.",
      "토요일은 10시부터 6시까지 운영할 수도 있어요."]),
    (["참가비는 3,000원입니다.", "참가비는 3천 원이에요!", "참가비: 3000원"], ["참가비는 4,000원입니다.", "참가비는 없습니다."]),
    (["주차는 되고 반려견은 안 돼요."], ["주차는 안 되고 반려견은 돼요."]),
    (["입장은 10시부터예요.", "입장은 오전 10시부터입니다."], ["입장은 10시까지예요."]),
], ids=["hours", "fee", "which-is-denied", "from-or-until"])
def test_a_group_takes_the_same_fact_in_other_spellings_and_no_other_fact(same: list[str], other: list[str]) -> None:
    """Claims group by content, not spelling: endings, particles, emphasis, citations and number formats
    (10시 / 10:00, 3,000원 / 3천 원) do not part them; a negation, a hedge, another value, another word denied or a
    time's other role (부터 / 까지) does."""
    from exercises.grounding.groups import signature

    assert len({signature(text) for text in same}) == 1
    assert not {signature(text) for text in other} & {signature(same[0])}
    assert len({signature(text) for text in other}) == len(other)


def test_a_claim_that_says_something_only_of_its_question_groups_only_with_claims_linked_to_that_question() -> None:
    """"네, 참가할 수 있어요" answers "can an adult join?" and "can a five-year-old join?" alike, with opposite right
    answers: it joins no group while linked to no question, and groups per question once linked. A claim that names
    a value or two things groups as before, linked or not."""
    from exercises.grounding.groups import signature

    assert signature("네, 참가할 수 있어요.") is None
    assert signature("네, 참가할 수 있어요.", "q1") == signature("네 참가할 수 있어요", "q1")
    assert signature("네, 참가할 수 있어요.", "q1") != signature("네, 참가할 수 있어요.", "q2")
    assert signature("참가비는 3,000원입니다.") == signature("참가비는 3천 원이에요!", "q1") is not None
