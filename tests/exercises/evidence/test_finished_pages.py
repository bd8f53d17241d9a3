"""Issue 22's evidence pages without a browser: the preview reads only, the cohort-minimum page asks before it
changes anything, a reproduction's status answers only its reviewer, and pages that change after a submit are
never cached."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from exercises.evidence import selectors
from exercises.evidence.models import EvidenceTask, PeerAllocation, Submission
from tests.conftest import signed_in
from tests.exercises.evidence.helpers import submitted
from tutor.models import AuditEntry, Cohort
from tutor.roles import Role


def test_preview_renders_markdown_safely_and_saves_nothing(learner: User, task: EvidenceTask) -> None:  # noqa: F811
    """The preview turns ## into a heading below the page's own, drops raw HTML and writes no draft or audit entry."""
    client = signed_in(learner)
    drafts, entries = Submission.objects.count(), AuditEntry.objects.count()
    response = client.post(reverse("evidence:preview"),
                           {"text": "## 고친 점 요약\n\n<script>alert(1)</script>\n\n- `assert`"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h4>고친 점 요약</h4>" in page and "<code>assert</code>" in page
    assert "<script>" not in page
    assert (Submission.objects.count(), AuditEntry.objects.count()) == (drafts, entries)


def test_preview_refuses_a_visitor_and_too_long_text(learner: User, client) -> None:
    """A visitor is sent to sign in; an over-long text gets a Korean message, not a 500."""
    assert client.post(reverse("evidence:preview"), {"text": "x"}).status_code == 302
    page = signed_in(learner).post(reverse("evidence:preview"), {"text": "가" * 20001}).content.decode()
    assert "너무 길어" in page


def test_the_cohort_minimum_page_changes_nothing_until_confirmed(make_user, learner: User, instructor: User,
                                                                 cohort: Cohort, task: EvidenceTask) -> None:  # noqa: F811
    """GET shows the task, the cohort and the change and changes nothing; another cohort's instructor gets 404
    for the page as for the change; the change's message names the task and the page offers 되돌리기."""
    submitted(learner, task)
    client = signed_in(instructor)
    url = reverse("evidence:cohort-minimum", args=[cohort.pk, task.slug])
    before = selectors.cohort_peer_minimum(cohort, task)
    page = client.get(url, {"minimum": "0"}).content.decode()
    assert task.title in page and cohort.name in page and f"{before}개에서 0개로" in page
    assert selectors.cohort_peer_minimum(cohort, task) == before
    other = make_user("other-teacher", Role.INSTRUCTOR, in_cohort=False)
    assert signed_in(other).get(url, {"minimum": "0"}).status_code == 404
    done = client.post(url, {"minimum": "0", "reason": "시간 부족"}, follow=True).content.decode()
    assert task.title in done and f"{before}개에서 0개로" in done and f"되돌리기: 다시 {before}개로" in done
    assert selectors.cohort_peer_minimum(cohort, task) == 0


def test_reproduction_status_answers_only_its_reviewer(learner: User, other_learner: User, make_user,
                                                       task: EvidenceTask) -> None:  # noqa: F811
    """The polled fragment is the lease holder's; the author and a stranger get 404."""
    theirs = submitted(other_learner, task)
    run_url = reverse("evidence:reproduction", args=[theirs.pk, 999999])
    PeerAllocation.objects.create(submission=theirs, reviewer=learner,
                                  expires_at=timezone.now() + datetime.timedelta(hours=1))
    assert signed_in(learner).get(run_url).status_code == 404  # no such attached run
    assert signed_in(other_learner).get(run_url).status_code == 404
    assert signed_in(make_user("stranger")).get(run_url).status_code == 404


def test_task_and_submission_pages_are_never_cached(learner: User, task: EvidenceTask) -> None:  # noqa: F811
    """So Back after 제출하기 fetches the page again and shows the submitted version."""
    mine = submitted(learner, task)
    client = signed_in(learner)
    for url in (reverse("evidence:task", args=[task.slug]), reverse("evidence:submission", args=[mine.pk])):
        assert "no-store" in client.get(url)["Cache-Control"]
