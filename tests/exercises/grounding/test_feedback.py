"""Feedback gives 맞음 / 다시 보기 only where a named check backs it, and 확인 안 됨 otherwise."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from exercises.grounding import services
from exercises.grounding.feedback import claim_feedback
from exercises.grounding.models import Attempt, Exercise
from tests.exercises.grounding.helpers import typed

BOOKSHOP = [
    "가람책방 이용 안내 (가상 자료)",
    "영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다.",
    "일요일과 월요일은 쉽니다.",
    "지하철 가람역 2번 출구에서 걸어서 5분 거리입니다.",
    "이달의 행사: 둘째 토요일 오후 3시 독서 모임 (정원 12명)",
    "행사 참가 신청은 누리집 신청서로 받습니다.",
    "행사 신청은 담당자 확인 뒤 확정되며, 확정되면 문자로 알려 드립니다.",
    "독서 모임 참가비는 무료입니다.",
    "문의는 책방 계산대나 누리집 게시판으로 해 주세요.",
]
VISIT = {"key": "visit-1700", "text": "토요일 오후 5시(17시)에 가면 책방이 열려 있나요?", "judgement": "grounded",
         "evidence": [2, 3], "required": [2], "explanation": "2번 줄.", "facts": []}
PARKING = {"key": "parking-free", "text": "차를 가져가면 주차는 무료인가요?", "judgement": "no_data",
           "evidence": [], "required": [], "explanation": "주차 이야기 없음.", "facts": []}


def feedback(text: str, judgement: str, cited: list[int], question: dict | None = None, key: dict | None = None) -> dict:
    return claim_feedback(text=text, judgement=judgement, cited=cited, question=question, key=key, lines=BOOKSHOP)


def start(user: User, exercise: Exercise, text: str, key: str = "k", variant: str = "") -> Attempt:
    return services.start_attempt(user=user, exercise=exercise, answer_text=text, variant_key=variant, idempotency_key=key)


def test_a_contradicted_claim_marked_no_data_is_right_by_the_value_check() -> None:
    """"참가비는 5,000원" against "참가비는 무료", and "토요일에는 밤 9시까지 영업" against 11~18시 (a closing time against
    hours given as a range): 자료없음 is 맞음, backed by the value check, not 다시 보기."""
    item = feedback("독서 모임 참가비는 5,000원입니다.", "no_data", [8], question=VISIT)
    assert item["verdict"] == "right"
    assert [c["name"] for c in item["checks"]] == ["values"] and "원문과 어긋남" in item["checks"][0]["reason"]
    wrong = feedback("독서 모임 참가비는 5,000원입니다.", "grounded", [8], question=VISIT)
    assert wrong["verdict"] == "review"
    hours = feedback("토요일에는 밤 9시까지 영업합니다.", "no_data", [2], question=VISIT)
    assert hours["verdict"] == "right" and [c["name"] for c in hours["checks"]] == ["values"]


def test_a_restating_claim_is_never_listed_as_missed_because_of_its_question() -> None:
    """"독서 모임 참가비는 무료" citing line 8 repeats it: 맞음 by the verbatim check, whatever question it sits under."""
    item = feedback("독서 모임 참가비는 무료입니다 (8).", "grounded", [8], question=PARKING)
    assert item["verdict"] == "right" and [c["name"] for c in item["checks"]] == ["verbatim"]
    assert feedback("독서 모임 참가비는 무료입니다.", "no_data", [8])["verdict"] == "review"
    paraphrase = feedback("참가비 없이 독서 모임에 갈 수 있습니다.", "grounded", [8])
    assert paraphrase["verdict"] == "unchecked" and paraphrase["checks"] == []
    assert paraphrase["compare"] == [[8, BOOKSHOP[7]]]


def test_a_fragment_of_a_line_is_not_verbatim() -> None:
    """"확정되면 문자로 알려 드립니다" drops "담당자 확인 뒤": only a whole line or sentence counts as repeated."""
    from exercises.grounding.engine import verbatim_line

    assert verbatim_line(BOOKSHOP, "확정되면 문자로 알려 드립니다.", [7]) is None
    assert verbatim_line(BOOKSHOP, "행사 신청은 담당자 확인 뒤 확정되며, 확정되면 문자로 알려 드립니다 (7번 줄)", [7]) == 7


def test_without_a_backing_check_the_feedback_says_unchecked_and_shows_the_source() -> None:
    """No check applies: 확인 안 됨, with the question's lines and explanation beside the judgement."""
    item = feedback("문을 닫기까지 한 시간쯤 여유가 있습니다.", "grounded", [2], question=VISIT)
    assert item["verdict"] == "unchecked" and item["check"] == "" and item["basis"] == ""
    assert [n for n, _ in item["compare"]] == [2, 3] and item["explanation"] == "2번 줄."


def test_an_answer_to_a_question_the_source_cannot_answer_is_not_grounded() -> None:
    """Linked to a 자료없음 question: an answer marked 근거 is 다시 보기, one saying the source is silent is 맞음."""
    assert feedback("주차는 무료입니다.", "grounded", [], question=PARKING)["verdict"] == "review"
    assert feedback("주차는 무료입니다.", "no_data", [], question=PARKING)["verdict"] == "right"
    silent = feedback("안내문에는 주차에 관한 내용이 없습니다.", "grounded", [], question=PARKING)
    assert silent["verdict"] == "right" and silent["check"] in ("silence", "question_silent")
    assert feedback("안내문에는 주차에 관한 내용이 없습니다.", "no_data", [], question=PARKING)["verdict"] == "unchecked"
    named = feedback("주차 요금은 안내문에 없습니다.", "grounded", [], question=PARKING)
    assert named["verdict"] == "right", "naming the source that holds nothing of it says the source is silent"
    assert feedback("주차는 책방 옆 공터에 있습니다.", "grounded", [], question=PARKING)["verdict"] == "review"


def test_citations_that_share_nothing_with_the_claim_hold_it_unchecked() -> None:
    """A cited line with no word or value in common with the claim is no proof of a wrong mark (a paraphrase
    shares none either): the claim stays 확인 안 됨 with what was not found, never 다시 보기 on that basis."""
    miss = feedback("토요일 17시에는 열려 있습니다.", "grounded", [6], question=VISIT)
    assert miss["verdict"] == "review" and miss["check"] == "question_evidence", "the question's lines still speak"
    unrelated = feedback("토요일 17시에는 열려 있습니다.", "grounded", [4])
    assert unrelated["verdict"] == "unchecked" and unrelated["check"] == "citation"
    assert "4번 줄" in unrelated["basis"] and "판단하지 않았습니다" in unrelated["basis"]


def test_a_negated_value_claim_is_not_a_conflict() -> None:
    """"여섯 시간은 어렵습니다" agrees with "최대 4시간": no value verdict against a correct 근거."""
    lines = ["대관 안내", "한 번 대관할 때 쓸 수 있는 시간은 최대 4시간입니다."]
    item = claim_feedback(text="여섯 시간은 어렵습니다 (2).", judgement="grounded", cited=[2], question=None,
                          key=None, lines=lines)
    assert item["verdict"] != "review"


def test_not_a_claim_is_set_aside_without_a_verdict() -> None:
    item = feedback("자료없음입니다.", "not_claim", [])
    assert item["verdict"] == "set_aside" and item["checks"] == []


def test_sample_answers_carry_a_key_for_every_claim(learner: User, bookshop: Exercise, venue: Exercise) -> None:
    """Starting from a sample answer gives every claim its curated key, so each gets an exact verdict."""
    for exercise in (bookshop, venue):
        for sample in exercise.samples.all():
            attempt = start(learner, exercise, sample.text, key=f"{exercise.slug}-{sample.key}", variant=sample.variant_key)
            assert all(claim.key is not None for claim in attempt.claims.all()), sample.key
            relations = {claim.key["relation"] for claim in attempt.claims.all()}
            assert relations
    relations = {k["relation"] for s in bookshop.samples.all() for k in s.claims}
    assert {"contradicts", "partial", "conditional", "silent", "restates"} <= relations


def test_claim_keys_judge_claims_not_questions(learner: User, bookshop: Exercise) -> None:
    """Sample B: the contradicted hours are right as 자료없음 with the reason, the free fee right as 근거."""
    sample = bookshop.samples.get(key="sample-b")
    attempt = start(learner, bookshop, sample.text, key="b")
    claims = {c.text: c for c in attempt.claims.all()}
    hours = claims["토요일에는 밤 9시까지 영업하니 17시 방문은 문제없습니다 (2)."]
    fee = claims["독서 모임 참가비는 무료입니다 (8)."]
    instant = claims["누리집 신청서를 내시면 바로 확정됩니다 (6)."]
    services.mark_claims(user=attempt.user, attempt=attempt, marks=typed({
        hours.pk: {"judgement": "no_data", "lines": "2"},
        fee.pk: {"judgement": "grounded", "lines": "8"},
        instant.pk: {"judgement": "grounded", "lines": "6"},
    }))
    result = services.submit_attempt(user=attempt.user, attempt=attempt).feedback
    by_order = {c["order"]: c for c in result["claims"]}
    assert by_order[hours.order]["verdict"] == "right" and by_order[hours.order]["relation_label"] == "원문과 어긋남"
    assert by_order[fee.order]["verdict"] == "right"
    assert by_order[instant.order]["verdict"] == "review" and by_order[instant.order]["expected"] == "pending"
    assert instant.order in result["summary"]["missed"] and fee.order not in result["summary"]["missed"]
    assert hours.order in result["summary"]["caught"]


def test_automatic_question_links_need_the_source_to_agree(learner: User, bookshop: Exercise) -> None:
    """The free fee is not linked to the parking question; a parking claim is; the hours to the visit question."""
    attempt = start(learner, bookshop, "독서 모임 참가비는 무료입니다. 주차는 무료입니다. 토요일은 18시까지 엽니다.")
    assert [c.question_key for c in attempt.claims.all()] == ["", "parking-free", "visit-1700"]


def test_old_feedback_stays_readable(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    """An attempt submitted before claim-level feedback keeps its stored feedback and its page renders."""
    attempt = start(learner, bookshop, "토요일은 18시까지 엽니다.")
    old = {"claims": [{"order": 1, "text": "토요일은 18시까지 엽니다.", "judgement": "grounded", "cited": [2],
                       "question": "visit-1700", "notes": [], "verdict": "agrees", "expected": "grounded",
                       "expected_label": "근거", "evidence": "acceptable", "irrelevant": [], "acceptable_lines": [2, 3],
                       "explanation": "옛 해설"}],
           "summary": {"claims": 1, "agreed": 1, "linked": 1, "caught": [], "missed": [], "unaddressed_questions": []},
           "questions": {}}
    Attempt.objects.filter(pk=attempt.pk).update(status="submitted", feedback=old)
    page = learner_client.get(reverse("grounding:attempt", args=[attempt.pk])).content.decode()
    assert "이전 방식" in page and "옛 해설" in page and "답안 키와 같습니다" in page


def test_claim_keys_stay_hidden_until_submission(learner_client: Client, learner: User, bookshop: Exercise) -> None:
    """Started from a sample, the marking page and the API show no claim key, only after submission."""
    sample = bookshop.samples.get(key="sample-b")
    attempt = start(learner, bookshop, sample.text, key="hidden")
    page = learner_client.get(reverse("grounding:attempt", args=[attempt.pk])).content.decode()
    api = learner_client.get(f"/api/grounding/attempts/{attempt.pk}").json()
    for key in sample.claims:
        assert escape(key["explanation"]) not in page and key["explanation"] not in str(api)
    assert "원문과 어긋남" not in page and all(c["keyed"] for c in api["claims"])
    assert learner_client.get(f"/api/grounding/attempts/{attempt.pk}/feedback").status_code == 409
