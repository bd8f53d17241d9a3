"""From the attacker's side ("Trojan Source"): code, evidence and review text written by one person reach reviewers,
instructors and authors with every bidi control, zero-width or other format character, Hangul filler and variation
selector shown as a visible mark, never raw."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.template import engines
from django.urls import reverse

from exercises.evidence import exports, peer, services
from exercises.evidence.models import EvidenceTask, Submission
from exercises.labs.models import LabRun
from exercises.labs.services import request_run
from lessons.models import Lesson
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import insufficient
from tutor import text

HIDDEN = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u200d", "\u2060",
          "\ufeff", "\u00ad", "\U000e0041", "\u3164", "\u115f", "\u1160", "\uffa0", "\ufe0f", "\U000e0100", "\u034f"]


def test_the_classification_covers_every_hidden_kind_and_keeps_ordinary_text() -> None:
    """Each bidi control, zero-width and other Cf character (tag characters too), Hangul filler and variation
    selector is hidden; Korean, tabs, newlines and ordinary symbols are not; the minimum counts only real letters."""
    assert all(text.is_hidden(char) for char in HIDDEN)
    assert not any(text.is_hidden(char) for char in "가힣ㄱabc 123\t\n.,!?❤")
    assert text.visible("a\u202eb") == "a⟨U+202E⟩b"
    assert text.real_characters("가\u3164\u3164\u200b나.") == 2
    rendered = engines["django"].from_string("{{ value|visible }}").render({"value": "<b>\u202e</b>"})
    assert "&lt;b&gt;" in rendered and 'class="hidden-char"' in rendered and "⟨U+202E⟩" in rendered
    assert "\u202e" not in rendered


@pytest.fixture
def task(course: list[Lesson]) -> EvidenceTask:
    """tr-practice, not afs-practice: its lesson has a lab whose run output is attached, and calibration examples."""
    return EvidenceTask.objects.get(slug="tr-practice")


def test_hidden_characters_reach_no_reader_raw(learner: User, other_learner: User, instructor: User,
                                               task: EvidenceTask) -> None:
    """The author hides a bidi override in the attached code and the evidence, the peer a zero-width space and a
    Hangul filler in the review; the peer, the instructor and the author (reading the released review) each see
    marks such as ⟨U+202E⟩ and no raw hidden character, on the pages and in the CSV export."""
    lab = task.lesson.labs.first()
    code = "access = 'user\u202e \u2066// 관리자면\u2069 \u2066'  # 검사\nprint(access)"
    run = request_run(user=other_learner, lab=lab, code=code, step="run", idempotency_key="trojan")
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.OK, exit_code=0, stdout="결과\ufe0f\n")
    services.save_draft(author=other_learner, task=task, text="제 증거는 \u202e다니입합적 \u2067그대로\u2069입니다.",
                        run_ids=[run.pk], lines=[])
    theirs = services.submit(author=other_learner, task=task, submit_key="t")
    services.save_draft(author=learner, task=task, text="검토자의 증거 글", run_ids=[], lines=[])
    services.submit(author=learner, task=task, submit_key="l")
    example = task.calibration_examples.filter(is_active=True).first()
    judgements = insufficient(task)
    services.record_practice_review(reviewer=learner, example=example, judgements=judgements)
    peer.allocate_peer_work(reviewer=learner, task=task)
    first = task.current_rubric.criteria[0]["key"]
    services.record_review(reviewer=learner, submission=theirs, kind="peer", judgements=judgements,
                           comment="좋\u200b아요\u3164\u3164", citations={first: "2번\u202e 줄"})
    services.release_reviews(instructor=instructor, submission=theirs)
    pages = {
        "peer": signed_in(learner).get(reverse("evidence:submission", args=[theirs.pk])),
        "peer-run": signed_in(learner).get(reverse("evidence:attached-run", args=[theirs.pk, run.pk])),
        "instructor": signed_in(instructor).get(reverse("evidence:submission", args=[theirs.pk])),
        "instructor-run": signed_in(instructor).get(reverse("labs:run", args=[run.pk])),
        "author": signed_in(other_learner).get(reverse("evidence:submission", args=[theirs.pk])),
    }
    for name, response in pages.items():
        body = response.content.decode()
        assert response.status_code == 200, name
        assert not [char for char in HIDDEN if char in body], name
        assert "⟨U+202E⟩" in body, name
    for name in ("peer", "instructor", "author"):
        body = pages[name].content.decode()
        assert "⟨U+200B⟩" in body and "⟨U+3164⟩" in body, name
    csv = exports.to_csv(exports.review_rows(instructor))
    assert "⟨U+202E⟩" in csv and "⟨U+200B⟩" in csv and "\u202e" not in csv and "\u200b" not in csv
    assert Submission.objects.get(pk=theirs.pk).text.count("\u202e") == 1, "what was written is kept as written"
