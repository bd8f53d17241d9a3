"""What the author may see of their reviews is one rule: the queryset's ``seen_by_author()`` and one review's
``seen_by_author`` agree on every kind, released or not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from exercises.evidence import services
from exercises.evidence.models import EvidenceTask, Review
from tests.exercises.evidence.helpers import levels, submitted

pytestmark = pytest.mark.django_db


def test_the_queryset_and_the_single_review_say_the_same(learner: User, other_learner: User, instructor: User,
                                                          task: EvidenceTask, make_user) -> None:
    """Self-reviews are seen at once; peer and instructor reviews only once released."""
    mine = submitted(learner, task, "검토받을 증거 글입니다. 2번 줄을 인용했습니다.")
    services.record_review(reviewer=learner, submission=mine, kind="self", judgements=levels(mine, 0), comment="")
    from exercises.evidence import peer

    for name in ("peer-a", "peer-b"):
        reviewer = make_user(name)
        submitted(reviewer, task, f"{name}의 증거 글입니다. 충분히 길게 적었습니다.")
        peer.assign_peer(instructor=instructor, submission=mine, reviewer=reviewer)
        services.record_review(reviewer=reviewer, submission=mine, kind="peer", judgements=levels(mine, 0), comment="")
    services.record_review(reviewer=instructor, submission=mine, kind="instructor", judgements=levels(mine, 0),
                           comment="")
    Review.objects.filter(submission=mine, reviewer__username="peer-a").update(released_at=timezone.now())
    reviews = list(Review.objects.filter(submission=mine))
    seen = set(Review.objects.filter(submission=mine).seen_by_author().values_list("pk", flat=True))
    assert {r.pk for r in reviews if r.seen_by_author} == seen
    assert sorted(r.kind for r in reviews if r.pk in seen) == ["peer", "self"]
