"""CSV exports keep the record: formulas neutralised (OWASP), a UTF-8 BOM, the version numbers people see, every
version's reviews, one column per criterion with flags, resolutions and reproductions; a gradebook of three
tracks and never a total."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import exports, peer, services
from exercises.evidence.models import EvidenceTask
from lessons.models import Lesson
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import levels, submitted


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """A task late in the course (not afs-practice), so its rubric's database id is not its version number."""
    return EvidenceTask.objects.get(slug="tc-practice")


def download(user: User, name: str = "evidence:export") -> tuple[bytes, list[dict[str, str]]]:
    response = signed_in(user).get(reverse(name))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return response.content, list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize("hostile", ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"])
def test_cells_that_start_a_formula_are_neutralised(hostile: str) -> None:
    assert exports.neutralise(hostile) == "'" + hostile
    assert exports.neutralise("2번 줄 = 근거") == "2번 줄 = 근거"


def test_the_review_csv_has_a_bom_and_neutralises_comments(learner: User, instructor: User, task: EvidenceTask) -> None:
    mine = submitted(learner, task, "=1+1 글")
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="=HYPERLINK(\"http://evil\",\"클릭\")")
    body, rows = download(instructor)
    assert body.startswith(b"\xef\xbb\xbf")
    assert rows[0]["comment"] == "'=HYPERLINK(\"http://evil\",\"클릭\")"
    assert all(not value.startswith(("=", "+", "-", "@")) for row in rows for value in row.values() if value)


def test_the_review_csv_keeps_every_version_with_its_version_numbers(learner: User, other_learner: User,
                                                                     instructor: User, task: EvidenceTask) -> None:
    first = submitted(learner, task, "판 1 글")
    services.record_review(reviewer=instructor, submission=first, kind="instructor", judgements=levels(first, 0),
                           comment="첫 판 검토")
    submitted(other_learner, task, "동료 글")
    peer.allocate_peer_work(reviewer=other_learner, task=task)
    services.record_review(reviewer=other_learner, submission=first, kind="peer", judgements=levels(first, -1),
                           comment="")
    criterion = first.rubric_version.criteria[0]
    services.release_reviews(instructor=instructor, submission=first)
    review = first.reviews.get(kind="peer")
    flag = services.flag_criterion(author=learner, review=review, criterion=criterion["key"], reason="인용이 있어요")
    services.resolve_flag(instructor=instructor, flag=flag, resolution="맞습니다")
    services.resolve_disagreement(instructor=instructor, submission=first, reason="강사 판단을 따릅니다")
    second = submitted(learner, task, "판 2 글")
    assert str(first.rubric_version.pk) != "1"
    _body, rows = download(instructor)
    mine = [row for row in rows if row["learner"] == "learner"]
    assert {row["version"] for row in mine} == {"1", "2"}
    assert {row["rubric_version"] for row in mine} == {str(first.rubric_version.number)} == {"1"}
    assert any(row["comment"] == "첫 판 검토" for row in mine), "version 1's reviews survive a resubmission"
    column = f"{task.slug}:{criterion['key']}"
    assert column in rows[0] and {row[column] for row in mine if row["review_kind"] == "instructor"} == {
        criterion["levels"][0]["label"]}
    peer_row = next(row for row in mine if row["review_kind"] == "peer")
    assert peer_row["flags"] == f"{criterion['key']}: 인용이 있어요 -> 맞습니다"
    assert peer_row["disagreement_resolution"] == "강사 판단을 따릅니다"
    assert peer_row["reviewer"] == "other" and "reproduction" in peer_row
    assert next(row for row in mine if row["version"] == "2")["review_kind"] == "" and second.version == 2


def test_the_gradebook_has_one_column_per_track_and_no_total(learner: User, instructor: User,
                                                             task: EvidenceTask) -> None:
    mine = submitted(learner, task, "내 글")
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, -1),
                           comment="")
    body, rows = download(instructor, "evidence:gradebook")
    assert body.startswith(b"\xef\xbb\xbf")
    header = list(rows[0])
    assert header == ["learner", "cohorts", "lesson", "completion", "self_report", "review_levels"]
    assert not any(word in name.lower() for name in header for word in ("total", "sum", "합계", "총점", "score"))
    lesson_row = next(row for row in rows if row["lesson"] == task.lesson.slug)
    assert "instructor (공개 전)" in lesson_row["review_levels"] and "근거 부족 / 보류" in lesson_row["review_levels"]
    assert signed_in(learner).get(reverse("evidence:gradebook")).status_code == 404
