"""A review form a peer can use, the instructor's grid and waiting list, per-cohort settings that load_course never
overwrites, citations limited to the rubric, and API schemas that carry the version numbers."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import peer, selectors, services
from exercises.evidence.models import (
    CohortTaskSetting,
    EvidenceTask,
    Review,
    RubricVersion,
)
from lessons.content import ContentError
from lessons.models import Lesson
from lessons.services import load_course
from tests.conftest import join, signed_in
from tests.exercises.evidence.helpers import levels, submitted
from tutor.errors import TutorError
from tutor.models import Cohort
from tutor.rendering import render_inline_markdown
from tutor.roles import Role


def test_every_level_of_every_rubric_has_a_description(course: list[Lesson]) -> None:
    for rubric in RubricVersion.objects.filter(task__is_active=True):
        for criterion in rubric.criteria:
            assert all(level["description"].strip() for level in criterion["levels"]), (rubric, criterion["key"])


def test_a_level_without_description_is_refused_when_loading(tmp_path) -> None:
    from exercises.evidence.content import read_tasks

    (tmp_path / "evidence.yaml").write_text(
        "tasks:\n  - slug: t1\n    kind: practice\n    title: T\n    rubric:\n      criteria:\n"
        "        - key: c\n          title: C\n          levels:\n"
        "            - {key: a, label: 부족, description: 설명}\n            - {key: b, label: 충족}\n",
        encoding="utf-8")
    with pytest.raises(ContentError, match="설명"):
        read_tasks(tmp_path)


def test_the_peer_form_shows_level_descriptions_and_says_instructors_see_names(learner: User, other_learner: User,
                                                                               task: EvidenceTask) -> None:
    theirs = submitted(other_learner, task)
    submitted(learner, task, "내 글")
    peer.allocate_peer_work(reviewer=learner, task=task)
    page = signed_in(learner).get(reverse("evidence:submission", args=[theirs.pk])).content.decode()
    for level in theirs.rubric_version.criteria[0]["levels"]:
        assert render_inline_markdown(level["description"]) in page  # `code` in a description renders as code
    assert "강사는 작성자와 검토자 이름을 모두 봅니다" in page
    assert "기준 × 검토자" not in page


def test_the_instructor_sees_a_criteria_by_reviewers_grid_and_the_disagreeing_criterion(
        learner: User, other_learner: User, instructor: User, task: EvidenceTask) -> None:
    mine = submitted(learner, task)
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    first = mine.rubric_version.criteria[0]
    services.record_review(reviewer=other_learner, submission=mine, kind="peer", judgements=levels(mine, 0),
                           comment="", citations={first["key"]: "둘째 문단"})
    judged = levels(mine, 0) | {first["key"]: first["levels"][-1]["key"]}
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=judged, comment="")
    page = signed_in(instructor).get(reverse("evidence:submission", args=[mine.pk])).content.decode()
    assert "기준 × 검토자" in page and "동료 검토 · other" in page and "둘째 문단" in page
    assert f"검토끼리 다르게 판단한 기준: {first['title']}" in page
    assert selectors.disagreeing_criteria(list(mine.reviews.all())) == [first["title"]]
    author_page = signed_in(learner).get(reverse("evidence:submission", args=[mine.pk])).content.decode()
    assert "기준 × 검토자" not in author_page and "other" not in author_page


def test_citations_belong_to_the_rubrics_criteria(learner: User, instructor: User, task: EvidenceTask) -> None:
    """Made-up criterion keys or oversized citations are refused, by service and API, and nothing is stored."""
    mine = submitted(learner, task)
    made_up = {f"made-up-{n}": "x" * 500 for n in range(40)}
    with pytest.raises(TutorError, match="기준표에 없는"):
        services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                               comment="", citations=made_up)
    response = signed_in(instructor).post(f"/api/evidence/submissions/{mine.pk}/reviews",
                                          {"judgements": levels(mine, 0), "citations": made_up},
                                          content_type="application/json")
    assert response.status_code == 400 and "기준표에 없는" in response.json()["detail"]
    first = mine.rubric_version.criteria[0]["key"]
    with pytest.raises(TutorError, match="500자"):
        services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                               comment="", citations={first: "가" * 501})
    assert not Review.objects.exists()


def test_api_schemas_carry_standard_changed_and_version_numbers(learner: User, instructor: User,
                                                                course: list[Lesson]) -> None:
    task = EvidenceTask.objects.get(slug="tc-practice")
    mine = submitted(learner, task)
    services.record_review(reviewer=learner, submission=mine, kind="self", judgements=levels(mine, 0), comment="")
    body = signed_in(learner).get(f"/api/evidence/submissions/{mine.pk}").json()
    assert body["rubric_version"] == 1 and body["standard_changed"] is False
    assert body["fixture_version"] == mine.fixture_version.number
    review = body["reviews"][0]
    assert review["rubric_version"] == 1 and review["standard_changed"] is False and review["fixture_version"] == 1
    criteria = [dict(c, title=c["title"] + " (고침)") for c in task.current_rubric.criteria]
    task.current_rubric = RubricVersion.objects.create(task=task, number=2, criteria=criteria, digest="new")
    task.save()
    body = signed_in(learner).get(f"/api/evidence/submissions/{mine.pk}").json()
    assert body["standard_changed"] is True and body["reviews"][0]["standard_changed"] is True
    assert body["rubric_version"] == 1


def test_load_course_never_overwrites_a_cohort_setting(learner: User, instructor: User, cohort: Cohort,
                                                       task: EvidenceTask) -> None:
    services.set_min_peer_reviews(instructor=instructor, task=task, cohort=cohort, minimum=3, reason="더 많이")
    load_course(content_dir=settings.CONTENT_DIR)
    assert CohortTaskSetting.objects.get(cohort=cohort, task=task).min_peer_reviews == 3
    mine = submitted(learner, task)
    assert selectors.peer_minimum(mine) == 3
    task.refresh_from_db()
    assert task.default_min_peer_reviews == 1


def test_a_cohort_of_one_has_working_actions(make_user, instructor: User, task: EvidenceTask) -> None:
    """A lone learner shows on the waiting list; the instructor can assign a learner of another cohort they teach,
    review it themselves, or lower that cohort's minimum."""
    solo_cohort = Cohort.objects.create(name="혼자 기수")
    join(solo_cohort, instructor, "instructor")
    solo = make_user("solo", in_cohort=False)
    join(solo_cohort, solo)
    mine = submitted(solo, task)
    helper = make_user("helper")  # in the instructor's other cohort
    client = signed_in(instructor)
    page = client.get(reverse("evidence:queue")).content.decode()
    assert "혼자 기수" in page and "직접 검토하기" in page and "배정할 수 있는 학습자가 없습니다" in page
    submitted(helper, task, "도우미 글")
    page = client.get(reverse("evidence:queue")).content.decode()
    assert '<option value="helper">' in page and "<select" not in page.split("모든 제출")[0]
    assert client.post(reverse("evidence:assign", args=[mine.pk]), {"reviewer": "x' OR 1"}).status_code == 404
    assert client.post(reverse("evidence:assign", args=[mine.pk]), {"reviewer_name": "nobody"}).status_code == 404
    assert client.post(reverse("evidence:assign", args=[mine.pk]), {"reviewer_name": "helper"}).status_code == 302
    assert mine.allocations.get().reviewer == helper
    assert client.post(reverse("evidence:cohort-minimum", args=[solo_cohort.pk, task.slug]),
                       {"minimum": "0", "reason": "혼자라서"}).status_code == 302
    waiting = {group.cohort.name: group.rows for group in selectors.waiting_list(instructor)}
    assert waiting["혼자 기수"] == []
    other = make_user("other-teacher", Role.INSTRUCTOR, in_cohort=False)
    assert signed_in(other).post(reverse("evidence:cohort-minimum", args=[solo_cohort.pk, task.slug]),
                                 {"minimum": "3", "reason": "x"}).status_code == 404
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="직접 검토")


def test_api_never_names_peers_to_peers(learner: User, other_learner: User, task: EvidenceTask) -> None:
    theirs = submitted(other_learner, task)
    submitted(learner, task, "내 글")
    peer.allocate_peer_work(reviewer=learner, task=task)
    body = signed_in(learner).get(f"/api/evidence/submissions/{theirs.pk}").json()
    assert body["author"] == "익명 동료" and "other" not in json.dumps(body, ensure_ascii=False)


def test_gates_seen_from_the_other_side(learner: User, other_learner: User, instructor: User, make_user,
                                        task: EvidenceTask) -> None:
    """A peer holding a lease can neither release, resolve nor assign; an instructor cannot hand work to a learner
    of a cohort they do not teach."""
    mine = submitted(learner, task)
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    review = services.record_review(reviewer=other_learner, submission=mine, kind="peer", judgements=levels(mine, 0),
                                    comment="")
    as_peer = signed_in(other_learner)
    assert as_peer.post(reverse("evidence:release", args=[mine.pk])).status_code == 404
    assert as_peer.post(reverse("evidence:release-review", args=[review.pk])).status_code == 404
    assert as_peer.post(reverse("evidence:resolve-disagreement", args=[mine.pk]), {"reason": "x"}).status_code == 404
    assert as_peer.post(reverse("evidence:assign", args=[mine.pk]), {"reviewer": other_learner.pk}).status_code == 404
    stranger = make_user("stranger", in_cohort=False)
    join(Cohort.objects.create(name="남의 기수"), stranger)
    submitted(stranger, task, "남의 글")
    response = signed_in(instructor).post(reverse("evidence:assign", args=[mine.pk]), {"reviewer": stranger.pk})
    assert response.status_code == 404 and not mine.allocations.filter(reviewer=stranger).exists()
    review.refresh_from_db()
    assert review.released_at is None
