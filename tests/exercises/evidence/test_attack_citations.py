"""Draft citations are pinned to the fixture version they were picked on: when the fixture admin edits a cited line
(or moves it), the draft and the submitted version warn, naming the line and the change, instead of silently
pointing at other text."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from exercises.evidence import selectors, services
from exercises.evidence.models import EvidenceTask, Submission
from lessons.models import Lesson
from lessons.services import create_fixture_version
from tests.conftest import signed_in
from tutor.models import AuditEntry


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """A task with a source fixture (afs-practice has none): citations are pinned to the fixture version and the fixture is then edited."""
    return EvidenceTask.objects.exclude(fixture=None).first()


def page_of(user: User, url: str) -> str:
    return html.unescape(signed_in(user).get(url).content.decode())


def test_an_edited_cited_line_is_warned_about_on_the_draft_and_the_submission(
        learner: User, instructor: User, fixture_admin: User, task: EvidenceTask) -> None:
    """The learner cites line 2; the fixture admin then edits line 2. The draft names line 2, its old text and the
    new one; the picker still shows the text the number was chosen on; autosaving keeps the pin; the submitted
    version shows the old text with the same warning to its instructor."""
    old = task.fixture.current_version
    lines = old.text.splitlines()
    services.save_draft(author=learner, task=task, text="2번 줄을 근거로 판단합니다.", run_ids=[], lines=[2])
    edited = [*lines]
    edited[1] = "관리자가 바꾼 전혀 다른 내용"
    new = create_fixture_version(fixture=task.fixture, text="\n".join(edited), origin="admin", actor=fixture_admin,
                                 reason="고침")
    task_url = reverse("evidence:task", args=[task.slug])
    page = page_of(learner, task_url)
    assert "인용한 줄이 바뀌었습니다" in page
    assert f"2번 줄 “{lines[1]}”" in page and "지금 2번 줄: “관리자가 바꾼 전혀 다른 내용”" in page
    assert f"인용은 가상 자료 판 {old.number}에서 골랐고, 지금 비교하는 판은 {new.number}입니다." in page
    assert lines[1] in page.split('class="source-lines"')[1], "the picker shows the pinned version's text"
    signed_in(learner).post(reverse("evidence:draft", args=[task.slug]),
                            {"text": "2번 줄을 근거로 판단합니다. 더 적음", "lines": "2"})
    draft = Submission.objects.get(author=learner)
    assert draft.cited_fixture_version == old, "an autosave never moves the citations silently"
    submission = services.submit(author=learner, task=task, submit_key="s")
    assert submission.fixture_version == new and submission.cited_fixture_version == old
    for person in (learner, instructor):
        shown = page_of(person, reverse("evidence:submission", args=[submission.pk]))
        assert "인용한 줄이 바뀌었습니다" in shown and f"2. {lines[1]}" in shown
        assert "2. 관리자가 바꾼 전혀 다른 내용" not in shown
        assert signed_in(person).get(f"/api/evidence/submissions/{submission.pk}").json()["cited_lines_changed"] == [2]


def test_a_line_inserted_above_is_named_and_moving_the_citations_needs_the_authors_word(
        learner: User, task: EvidenceTask) -> None:
    """A line inserted above the cited one makes its number hold other text: the warning says where the cited text
    is now. Only the author's explicit confirmation moves the citations to the new version (audited)."""
    old = task.fixture.current_version
    lines = old.text.splitlines()
    services.save_draft(author=learner, task=task, text="증거", run_ids=[], lines=[2])
    create_fixture_version(fixture=task.fixture, text="\n".join([lines[0], "끼워 넣은 줄", *lines[1:]]),
                           origin="admin", actor=None, reason="줄 추가")
    citations = selectors.citations_of(Submission.objects.get(author=learner))
    assert [(c.number, c.changed, c.new_number, c.new_text) for c in citations.lines] == [(2, True, 3, "끼워 넣은 줄")]
    assert "같은 글이 이제 3번 줄에 있습니다" in page_of(learner, reverse("evidence:task", args=[task.slug]))
    signed_in(learner).post(reverse("evidence:draft", args=[task.slug]),
                            {"text": "증거", "lines": "3", "move_citations": "on"})
    draft = Submission.objects.get(author=learner)
    assert draft.cited_fixture_version == task.fixture.current_version and draft.cited_lines == [3]
    assert not selectors.citations_of(draft).changed
    assert AuditEntry.objects.filter(action="evidence.citations_moved", actor=learner).exists()
