"""Keys follow their fixture version: a key written for one version backs no verdict on a version that changed a
line it rests on, until an author or instructor confirms it (audited) or an instructor judges the claim's group."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from exercises.grounding import services
from exercises.grounding.models import Attempt, ClaimGroup, Exercise, Question, SampleAnswer
from lessons.models import Fixture, FixtureVersion
from lessons.services import create_fixture_version
from tests.conftest import signed_in
from tests.exercises.grounding.helpers import typed
from tutor.errors import NotFound
from tutor.models import AuditEntry

pytestmark = pytest.mark.django_db
OLD = "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다."
# The Saturday hours change: the shop now closes at 15시 on Saturdays, so "열려 있습니다" at 17시 is contradicted.
NEW = "영업시간은 화요일부터 금요일은 11시부터 18시까지, 토요일은 11시부터 15시까지입니다."
STALE = "확인 안 됨 — 자료가 바뀌어 답안 키를 다시 확인하는 중"


def admin_post(client: Client, fixture: Fixture, text: str, **extra: str):
    return client.post(f"/admin/lessons/fixture/{fixture.pk}/change/", {
        "title": fixture.title, "text": text, "reason": "토요일 영업시간 변경 (가상)",
        "versions-TOTAL_FORMS": "0", "versions-INITIAL_FORMS": "0", **extra,
    })


def change_saturday_through_admin(fixture_admin: User) -> Fixture:
    """The issue's case: the fixture admin changes line 2 and confirms the held-back change."""
    fixture_admin.is_staff = True
    fixture_admin.save()
    notice = Fixture.objects.select_related("current_version").get(slug="bookshop-notice")
    assert notice.current_version is not None
    client = signed_in(fixture_admin)
    text = notice.current_version.text.replace(OLD, NEW)
    held = admin_post(client, notice, text).content.decode()
    assert "바뀌는 줄(2번)에 기대는 곳이" in held
    assert admin_post(client, notice, text, confirm_changed_lines="on").status_code == 302
    notice.refresh_from_db()
    return notice


def mark_and_submit(user: User, exercise: Exercise, text: str, marks: list[tuple[str, str]], key: str) -> Attempt:
    attempt = services.start_attempt(user=user, exercise=exercise, answer_text=text, variant_key="", idempotency_key=key)
    claims = list(attempt.claims.all())
    services.mark_claims(user=attempt.user, attempt=attempt, marks=typed({c.pk: {"judgement": j, "lines": lines}
                                                 for c, (j, lines) in zip(claims, marks, strict=True)}))
    services.submit_attempt(user=attempt.user, attempt=attempt)
    attempt.refresh_from_db()
    return attempt


def feedback_of(attempt: Attempt) -> dict:
    assert attempt.feedback is not None
    return attempt.feedback


def test_keys_are_pinned_to_the_version_they_were_loaded_for(bookshop: Exercise) -> None:
    """Loading records the fixture version on every question key, variant and sample."""
    assert set(Question.objects.filter(exercise=bookshop).values_list("fixture_version", flat=True)) == {1}
    assert set(SampleAnswer.objects.filter(exercise=bookshop).values_list("fixture_version", flat=True)) == {1}
    assert bookshop.variants.get().fixture_version == 1


def test_after_the_saturday_change_a_correct_no_data_mark_is_not_told_to_look_again(
        bookshop: Exercise, fixture_admin: User, learner: User) -> None:
    """The issue's case: after the admin changes and confirms line 2, a learner who marks the sample's
    "네, 열려 있습니다." 자료없음 (now right) is not told 다시 보기 or "판단은 근거입니다", sees the stale-key basis,
    and no explanation puts the new line inside the old conclusion."""
    change_saturday_through_admin(fixture_admin)
    attempt = mark_and_submit(learner, Exercise.objects.get(slug="bookshop"), "가. 네, 열려 있습니다.",
                              [("no_data", "2")], "sat")
    assert attempt.fixture_version.number == 2
    item = feedback_of(attempt)["claims"][0]
    assert item["verdict"] == "unchecked" and item["basis"] == STALE, item
    assert item["explanation"] == "" and not item["checks"]
    page = signed_in(learner).get(f"/exercises/attempts/{attempt.pk}/").content.decode()
    assert STALE in page and "다시 보기</span>" not in page and "판단은 근거입니다" not in page
    assert "토요일 17시가 듭니다" not in page and "영업시간에 토요일 17시" not in page
    api = signed_in(learner).get(f"/api/grounding/attempts/{attempt.pk}/feedback").json()
    assert api["claims"][0]["basis"] == STALE and api["claims"][0]["explanation"] == ""
    assert all(not q.get("explanation") for q in feedback_of(attempt)["questions"].values()
               if q.get("stale")), "stale question keys give no explanation either"


def test_a_key_on_lines_that_did_not_change_still_backs_its_verdict(bookshop: Exercise, learner: User) -> None:
    """Changing line 2 leaves the key of "독서 모임 참가비는 무료입니다 (8)." (line 8) in force."""
    notice = Fixture.objects.select_related("current_version").get(slug="bookshop-notice")
    assert notice.current_version is not None
    create_fixture_version(fixture=notice, text=notice.current_version.text.replace(OLD, NEW),
                           origin=FixtureVersion.Origin.ADMIN, actor=None, reason="토요일 영업시간 변경 (가상)")
    attempt = mark_and_submit(learner, bookshop, "독서 모임 참가비는 무료입니다 (8).", [("grounded", "8")], "fee")
    item = feedback_of(attempt)["claims"][0]
    assert item["verdict"] == "right" and item["checks"][0]["name"] == "claim_key", item


def test_confirming_keys_is_audited_and_for_authors_and_instructors_only(
        bookshop: Exercise, fixture_admin: User, learner: User, instructor: User) -> None:
    """A learner cannot confirm; an instructor's confirmation pins the keys to version 2, writes an audit entry,
    and the submitted attempt on version 2 is backed by its key again."""
    change_saturday_through_admin(fixture_admin)
    attempt = mark_and_submit(learner, Exercise.objects.get(slug="bookshop"), "가. 네, 열려 있습니다.",
                              [("grounded", "2")], "sat")
    assert feedback_of(attempt)["claims"][0]["verdict"] == "unchecked"
    with pytest.raises(NotFound):
        services.confirm_keys(actor=learner, exercise=bookshop, reason="확인")
    services.confirm_keys(actor=instructor, exercise=bookshop, reason="토요일 17시 질문의 키를 다시 읽음")
    assert set(Question.objects.filter(exercise=bookshop).values_list("fixture_version", flat=True)) == {2}
    entry = AuditEntry.objects.get(action="grounding.keys_confirmed")
    assert entry.actor == instructor and entry.reason == "토요일 17시 질문의 키를 다시 읽음"
    attempt.refresh_from_db()
    assert feedback_of(attempt)["claims"][0]["verdict"] == "right"


def test_an_instructor_rewrites_a_stale_key_by_judging_the_group(
        bookshop: Exercise, fixture_admin: User, learner: User, instructor: User) -> None:
    """The stale-key claim waits in an answer group; the instructor's judgement (contradicts, line 2) gives the
    learner's 자료없음 맞음 with the basis 강사 판정."""
    change_saturday_through_admin(fixture_admin)
    attempt = mark_and_submit(learner, Exercise.objects.get(slug="bookshop"), "가. 네, 열려 있습니다.",
                              [("no_data", "2")], "sat")
    group = ClaimGroup.objects.get()
    assert group.fixture_version.number == 2
    services.judge_group(actor=instructor, group=group, relation="contradicts", lines=[2],
                         explanation="바뀐 2번 줄로는 토요일 15시에 문을 닫으니 17시에는 열려 있지 않습니다.")
    attempt.refresh_from_db()
    item = feedback_of(attempt)["claims"][0]
    assert item["verdict"] == "right" and item["check"] == "group_judgement", item


def test_the_held_back_list_names_texts_that_cite_the_line_by_number_and_the_variant(
        course: list, fixture_admin: User) -> None:
    """Changing line 2 is held back with every text that names or restates it: the lesson's rows that say
    "2번 줄" or its hours, the variant notice that copies it, and the keys; changing line 4 lists the rubric
    criterion whose levels say "4번·8번 줄"."""
    fixture_admin.is_staff = True
    fixture_admin.save()
    notice = Fixture.objects.select_related("current_version").get(slug="bookshop-notice")
    assert notice.current_version is not None
    page = admin_post(signed_in(fixture_admin), notice, notice.current_version.text.replace(OLD, NEW)).content.decode()
    assert "다른 가상 자료 (줄을 그대로 옮김)" in page and "bookshop-notice-variant" in page
    assert "레슨 본문 (줄 번호나 값으로 가리킴)" in page and "토요일에는 20시까지 영업한다" in page
    assert "근거 연습 답안 키" in page and "— 2번 줄" in page
    walk = notice.current_version.text.replace("걸어서 5분", "걸어서 7분")
    rubric_page = admin_post(signed_in(fixture_admin), notice, walk).content.decode()
    assert "기준표 (줄 번호나 값으로 가리킴)" in rubric_page and "설명한 세 가지가 단원 내용과 맞는가" in rubric_page, \
        "the rubric criterion that names lines 4 and 8 is listed when line 4 changes"


def test_the_instructor_page_lists_stale_keys_and_confirms_them(
        bookshop: Exercise, fixture_admin: User, learner: User, instructor: User) -> None:
    """After the change the instructor's group page lists the keys resting on line 2 (not the others); confirming
    needs a reason (Korean message, nothing changed) and then empties the list; a learner's POST is 404."""
    change_saturday_through_admin(fixture_admin)
    mark_and_submit(learner, Exercise.objects.get(slug="bookshop"), "가. 네, 열려 있습니다.", [("no_data", "2")], "sat")
    client = signed_in(instructor)
    page = client.get("/exercises/bookshop/groups/").content.decode()
    assert "원문이 바뀌어 다시 확인할 답안 키" in page and "토요일 오후 5시(17시)에 가면" in page
    assert "독서 모임 신청서를 내면" not in page.split("stale-keys-title")[1].split("</ul>")[0]
    assert signed_in(learner).post("/exercises/bookshop/keys/confirm/", {"reason": "확인"}).status_code == 404
    refused = client.post("/exercises/bookshop/keys/confirm/", {"reason": " "})
    assert refused.status_code == 400 and "한 문장으로 적어 주세요" in refused.content.decode()
    assert not AuditEntry.objects.filter(action="grounding.keys_confirmed").exists()
    assert client.post("/exercises/bookshop/keys/confirm/", {"reason": "바뀐 2번 줄을 읽고 키를 다시 확인함"}).status_code == 302
    assert "원문이 바뀌어 다시 확인할 답안 키" not in client.get("/exercises/bookshop/groups/").content.decode()


def test_a_key_that_the_source_is_silent_rests_on_every_line(
        bookshop: Exercise, fixture_admin: User, learner: User, instructor: User) -> None:
    """"주차는 무료입니다" marked 자료없음 rests on the parking question's key: the source says nothing of parking. A line
    added anywhere may name it, so after the fixture gains one the key backs no verdict (확인 안 됨, nothing of the old
    explanation's "아홉 줄") and the instructor's list names it, until it is confirmed; a key on line 8 stays in force."""
    notice = Fixture.objects.select_related("current_version").get(slug="bookshop-notice")
    assert notice.current_version is not None
    create_fixture_version(fixture=notice, text=notice.current_version.text.rstrip("\n") + "\n책방 뒤 공터에 차를 세울 수 있습니다.",
                           origin=FixtureVersion.Origin.ADMIN, actor=None, reason="주차 안내 추가 (가상)")
    exercise = Exercise.objects.get(slug="bookshop")
    parking = mark_and_submit(learner, exercise, "주차는 무료입니다.", [("no_data", "")], "park")
    item = feedback_of(parking)["claims"][0]
    assert item["verdict"] == "unchecked" and "아홉 줄" not in str(item), item
    fee = mark_and_submit(learner, exercise, "독서 모임 참가비는 무료입니다 (8).", [("grounded", "8")], "fee")
    assert feedback_of(fee)["claims"][0]["verdict"] == "right"
    page = signed_in(instructor).get("/exercises/bookshop/groups/").content.decode()
    assert "차를 가져가면 주차는 무료인가요?" in page.split('id="stale-keys-title"')[1].split("</ul>")[0]


def test_which_keys_say_the_source_is_silent() -> None:
    """A key rests on every line when it says the source lacks something: relation 원문에 없음, 자료없음 on no line of
    its own, or a 근거 claim on no line that says the source is silent. A contradiction key rests on its line."""
    from exercises.grounding.groups import says_silent_key

    assert says_silent_key({"relation": "silent", "judgement": "no_data", "lines": []})
    assert says_silent_key({"judgement": "no_data", "evidence": [], "required": []})
    assert says_silent_key({"judgement": "grounded", "relation": "restates", "lines": [],
                            "text": "안내문에는 주차 이야기가 없습니다."})
    assert not says_silent_key({"judgement": "no_data", "relation": "contradicts", "lines": [2]})
    assert not says_silent_key({"judgement": "grounded", "relation": "restates", "lines": [8], "text": "참가비는 무료입니다."})
