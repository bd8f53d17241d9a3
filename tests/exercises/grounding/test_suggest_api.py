"""The ``POST /api/grounding/suggest`` contract, including bad input."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import signed_in
from tutor.services import issue_api_token

URL = "/api/grounding/suggest"
SOURCE = "가람책방 안내\n영업시간은 화요일부터 토요일까지, 11시부터 18시까지입니다.\n일요일과 월요일은 쉽니다."


def post(client: Client, body: object, **extra: str):
    return client.post(URL, body, content_type="application/json", **extra)


@pytest.mark.django_db
def test_contract_shape(learner: User) -> None:
    """Each result has the issue's fields (claim, lines best first, hint, cue, not_found) and ``basis``, the
    reason a 근거 hint is shown (empty otherwise)."""
    response = post(signed_in(learner), {"source": SOURCE, "claims": ["토요일 오후 5시에 열어요.", "주차는 무료예요."]})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["claim"] for r in results] == ["토요일 오후 5시에 열어요.", "주차는 무료예요."]
    for result in results:
        assert set(result) == {"claim", "lines", "hint", "cue", "not_found", "basis"}
        assert (result["basis"] != "") == (result["hint"] == "근거")
        assert result["hint"] in {"근거", "보류", "주장 아님", "모름"}
        assert len(result["lines"]) <= 5
        scores = [line["score"] for line in result["lines"]]
        assert scores == sorted(scores, reverse=True)
        assert all(1 <= line["line"] <= 3 and isinstance(line["line"], int) for line in result["lines"])
    assert results[0]["lines"][0]["line"] == 2
    assert "주차" in results[1]["not_found"] and results[1]["hint"] != "자료없음"


@pytest.mark.django_db
def test_hints_never_say_no_data_and_set_aside_greetings_and_advice(learner: User) -> None:
    """An invented claim gets 모름 with what was not found; a sign-off and advice get 주장 아님."""
    claims = ["주차 요금은 3,000원입니다.", "도움이 되셨길 바랍니다.", "방문 전에 전화로 확인해 보시길 권합니다."]
    results = post(signed_in(learner), {"source": SOURCE, "claims": claims}).json()["results"]
    assert results[0]["hint"] == "모름" and "3,000원" in results[0]["not_found"]
    assert [r["hint"] for r in results[1:]] == ["주장 아님", "주장 아님"]


@pytest.mark.django_db
def test_token_client_without_csrf(learner: User) -> None:
    _, raw = issue_api_token(user=learner, name="t")
    response = post(Client(enforce_csrf_checks=True), {"source": SOURCE, "claims": ["일요일은 쉽니다."]},
                    HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert response.status_code == 200


@pytest.mark.django_db
def test_session_client_needs_csrf(learner: User) -> None:
    response = post(signed_in(learner, enforce_csrf_checks=True), {"source": SOURCE, "claims": []})
    assert response.status_code == 403


@pytest.mark.django_db
def test_anonymous_is_401(client: Client) -> None:
    assert post(client, {"source": SOURCE, "claims": []}).status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("body", [
    {"source": "", "claims": ["a"]},
    {"source": "   \n  ", "claims": ["a"]},
    {"source": "\n".join(["줄"] * 31), "claims": ["a"]},
    {"source": SOURCE, "claims": ["a"] * 11},
    {"source": "가" * 201, "claims": ["a"]},
    {"source": "\n".join(["가" * 150] * 21), "claims": ["a"]},
    {"source": SOURCE, "claims": ["가" * 201]},
    {"source": SOURCE, "claims": "한 문장"},
    {"source": 123, "claims": ["a"]},
    {"source": SOURCE, "claims": [1, 2]},
    {"source": SOURCE},
    {"claims": ["a"]},
    [],
])
def test_bad_input_is_422_with_a_message(learner: User, body: object) -> None:
    response = post(signed_in(learner), body)
    assert response.status_code == 422, response.content
    problem = response.json()
    assert problem["code"] == "invalid_input" and problem["errors"] and problem["detail"]


@pytest.mark.django_db
def test_malformed_json_is_refused_not_500(learner: User) -> None:
    response = signed_in(learner).post(URL, "{not json", content_type="application/json")
    assert response.status_code in (400, 422)


@pytest.mark.django_db
def test_limits_are_in_the_openapi_schema(client: Client) -> None:
    """The suggest limits (source length, claim count and length) are published in OpenAPI."""
    schema = client.get("/api/openapi.json").json()
    body = schema["components"]["schemas"]["SuggestIn"]["properties"]
    assert body["source"]["maxLength"] == 2000
    assert body["claims"]["maxItems"] == 10 and body["claims"]["items"]["maxLength"] == 200
    responses = schema["paths"]["/api/grounding/suggest"]["post"]["responses"]
    assert "422" in responses and "429" in responses


@pytest.mark.django_db
def test_suggest_is_rate_limited_per_user_with_retry_after(learner: User, other_learner: User, settings,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the allowance a user gets 429 with Retry-After; another user is not affected."""
    from django.core.cache import cache

    from exercises.grounding import services

    cache.clear()
    monkeypatch.setattr(services, "clock", lambda: 1_800_000_030.0)  # mid-window: no minute boundary
    settings.GROUNDING_SUGGEST_PER_MINUTE = 2
    client = signed_in(learner)
    body = {"source": SOURCE, "claims": ["일요일은 쉽니다."]}
    assert [post(client, body).status_code for _ in range(2)] == [200, 200]
    refused = post(client, body)
    assert refused.status_code == 429 and refused["Retry-After"] == "31"
    assert "1분에 2번까지" in refused.json()["detail"]
    assert post(signed_in(other_learner), body).status_code == 200


def test_a_bad_allowance_setting_is_a_system_check_error(settings) -> None:
    from exercises.grounding.checks import suggest_allowance_is_positive

    settings.GROUNDING_SUGGEST_PER_MINUTE = 0
    assert [e.id for e in suggest_allowance_is_positive(None)] == ["grounding.E001"]
    settings.GROUNDING_SUGGEST_PER_MINUTE = 30
    assert suggest_allowance_is_positive(None) == []
