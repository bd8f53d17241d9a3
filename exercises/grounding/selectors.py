"""Reads of the grounding app that depend on who asks."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.content import SLUG
from lessons.fixture_refs import FixtureUse, lines_referred, resolve, use
from lessons.models import Fixture
from lessons.selectors import RecordLink, access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import Conflict, NotFound
from tutor.models import members_of
from tutor.notices.registry import TodoItem

from .models import Attempt, ClaimGroup, ClaimMark, Exercise, GroupJudgement, Variant


def exercises_of_lesson(lesson_id: int) -> QuerySet[Exercise]:
    return Exercise.objects.active().filter(lesson_id=lesson_id).order_by("order", "slug")


def access_exercise(user: AnyUser, slug: str) -> Exercise:
    """Return an active exercise of a lesson ``user`` may read; exercises need sign-in."""
    access.require_sign_in(user)
    exercise = (Exercise.objects.active().select_related("lesson", "fixture__current_version").filter(slug=slug).first()
                if SLUG.match(slug) else None)
    if exercise is None:
        raise NotFound(_("그런 연습은 없습니다."))
    access_lesson(user, exercise.lesson.slug)
    return exercise


def access_variant(exercise: Exercise, key: str) -> Variant | None:
    if not key:
        return None
    variant = exercise.variants.select_related("fixture__current_version").filter(key=key).first()
    if variant is None:
        raise NotFound(_("그런 변형은 없습니다."))
    return variant


def access_attempt(user: AnyUser, attempt_id: int) -> Attempt:
    """Return an attempt to its author or an instructor of the author; 404 to everybody else."""
    access.require_sign_in(user)
    attempt = (Attempt.objects.select_related("exercise__lesson", "fixture_version__fixture", "user")
               .filter(pk=attempt_id).first())
    if attempt is None:
        raise NotFound(_("그런 시도는 없습니다."))
    if not access.may_see_records_of(user, attempt.user):
        raise NotFound(_("그런 시도는 없습니다."), target=attempt, reason="남의 시도")
    return attempt


def access_own_draft(user: AnyUser, attempt_id: int) -> Attempt:
    """Only the author marks their own attempt; an instructor sees it but cannot change it."""
    attempt = access_attempt(user, attempt_id)
    if attempt.user_id != user.pk:
        raise NotFound(_("그런 시도는 없습니다."), target=attempt, reason="남의 시도 고치기")
    return attempt


def judged_count(attempt: Attempt) -> tuple[int, int]:
    """How many claims the attempt has, and how many the learner judged (주장 아님 counts as judged)."""
    marks = list(attempt.claims.values_list("judgement", flat=True))
    return len(marks), sum(1 for mark in marks if mark)


def unjudged_claims(attempt: Attempt) -> list[ClaimMark]:
    return list(attempt.claims.filter(judgement=""))


def attempts_of(user: User, exercise: Exercise) -> list[Attempt]:
    return list(Attempt.objects.of(user).filter(exercise=exercise).order_by("-number"))


def learner_attempts_for(viewer: AnyUser, exercise: Exercise, username: str) -> tuple[User, list[Attempt]]:
    """A learner's attempts, for their instructors (or themselves); 404 otherwise."""
    learner = User.objects.filter(username=username).first()
    if learner is None or not access.may_see_records_of(viewer, learner):
        raise NotFound(_("그런 학습자의 기록은 없습니다."))
    return learner, attempts_of(learner, exercise)


def submitted_feedback(attempt: Attempt) -> dict:
    """The stored feedback of a submitted attempt; before submission there is none to read."""
    if attempt.status != Attempt.Status.SUBMITTED or attempt.feedback is None:
        raise Conflict(_("제출한 뒤에 피드백을 볼 수 있습니다."))
    return with_lines_quoted(attempt.feedback, attempt)


def with_lines_quoted(feedback: dict, attempt: Attempt) -> dict:
    """The feedback with each explanation's line references filled from the fixture version the attempt used."""
    version = attempt.fixture_version

    def fill(value: object) -> object:
        if isinstance(value, dict):
            return {k: resolve(v, {}, own=version) if k == "explanation" and isinstance(v, str) else fill(v)
                    for k, v in value.items()}
        if isinstance(value, list):
            return [fill(item) for item in value]
        return value

    return fill(feedback)  # type: ignore[return-value]


def record_links_of(user: User) -> dict[int, list[RecordLink]]:
    """Per lesson, links to the learner's own grounding attempts, newest first (for 내 학습 기록)."""
    links: dict[int, list[RecordLink]] = {}
    attempts = Attempt.objects.of(user).select_related("exercise").order_by("-created_at", "-id")
    for attempt in attempts:
        links.setdefault(attempt.exercise.lesson_id, []).append(RecordLink(
            track="activity",
            label=_("근거 연습 %(title)s · 시도 %(n)d (%(status)s)") % {
                "title": attempt.exercise.title, "n": attempt.number, "status": attempt.get_status_display()},
            url=reverse("grounding:attempt", args=[attempt.pk]), at=attempt.created_at,
        ))
    return links


def fixture_uses(fixture: Fixture) -> list[FixtureUse]:
    """The keys resting on ``fixture``: each question's lines (evidence, required, and those its explanation
    quotes), each variant's overrides, and each sample claim's lines; a key that the source is silent rests on every
    line (``groups.says_silent_key``), as ``Pins.stale`` reads it."""
    from .groups import says_silent_key

    uses: list[FixtureUse] = []
    exercises = (Exercise.objects.active().filter(Q(fixture=fixture) | Q(variants__fixture=fixture)).distinct()
                 .prefetch_related("questions", "variants", "samples"))
    for exercise in exercises:
        own = exercise.fixture_id == fixture.pk
        variants = {v.key: v for v in exercise.variants.all() if v.fixture_id == fixture.pk}
        if own:
            for question in exercise.questions.all():
                uses.append(_key_use(f"{exercise.title} · {question.text}", question.evidence, question.required,
                                     question.explanation, fixture.slug,
                                     every=says_silent_key({"judgement": question.judgement, "evidence": question.evidence,
                                                            "required": question.required})))
        for variant in variants.values():
            for key, override in variant.overrides.items():
                uses.append(_key_use(f"{exercise.title} · {variant.title} · {key}", override.get("evidence", []),
                                     override.get("required", []), override.get("explanation", ""), fixture.slug,
                                     every=says_silent_key(override)))
        for sample in exercise.samples.all():
            if (sample.variant_key in variants) or (own and not sample.variant_key):
                for n, claim in enumerate(sample.claims, start=1):
                    use_ = _key_use(f"{exercise.title} · {sample.title} · 주장 {n}", claim.get("lines", []), [],
                                    claim.get("explanation", ""), fixture.slug, kind="근거 연습 예시 주장",
                                    every=says_silent_key(claim))
                    if use_.lines is None or use_.lines:
                        uses.append(use_)
    return uses


def _key_use(label: str, evidence: list[int], required: list[int], explanation: str, slug: str, *,
             kind: str = "근거 연습 답안 키", every: bool = False) -> FixtureUse:
    quoted = lines_referred(explanation, slug, own=True)
    return use(kind, label, None if quoted is None or every else {*evidence, *required, *quoted})


# Answer groups: instructors of a cohort with attempts on an exercise see and judge its groups.

def _taught_authors(user: AnyUser, exercise: Exercise) -> set[int]:
    """Ids of the learners with a submitted attempt on ``exercise`` whom ``user`` instructs."""
    if not access.is_instructor(user):
        return set()
    # The policy's list rule, in one query: the learners of the cohorts where ``user`` may judge claims.
    taught = members_of(access.cohorts_where(user, access.Perm.JUDGE))
    return set(taught.filter(grounding_attempts__exercise=exercise,
                             grounding_attempts__status=Attempt.Status.SUBMITTED).values_list("pk", flat=True))


def access_group_exercise(user: AnyUser, slug: str) -> tuple[Exercise, set[int]]:
    """The exercise and the learners ``user`` teaches who attempted it; 404 unless there is at least one
    (to visitors too: that an exercise has groups is nobody else's to learn)."""
    exercise = Exercise.objects.select_related("lesson").filter(slug=slug).first() if SLUG.match(slug) else None
    taught = _taught_authors(user, exercise) if exercise is not None else set()
    if exercise is None or not taught:
        raise NotFound(_("그런 연습은 없습니다."), target=exercise, reason="주장 묶음: 가르치는 학습자의 시도 없음")
    return exercise, taught


@dataclass(frozen=True)
class GroupRow:
    """One answer group as an instructor sees it: how many claims and learners, examples from their own learners."""

    group: ClaimGroup
    claims: int
    learners: int
    examples: list[str]
    marks: dict[str, int]
    judgement: GroupJudgement | None
    lines: list[tuple[int, str]]


def answer_groups(user: AnyUser, slug: str) -> tuple[Exercise, list[GroupRow]]:
    """The exercise's answer groups that hold a claim of a learner ``user`` teaches, largest first.

    Counts are across every learner and cohort (the judgement backs all of them); the example texts
    shown come only from the instructor's own learners.
    """
    exercise, taught = access_group_exercise(user, slug)
    # The groups are chosen by the instructor's learners, the counts over everyone (filtering in the same
    # query would count only the instructor's learners' claims).
    theirs = ClaimGroup.objects.filter(exercise=exercise, claims__attempt__user__in=taught).values("pk")
    groups = (ClaimGroup.objects.filter(pk__in=theirs)
              .select_related("fixture_version__fixture")
              .annotate(n_claims=Count("claims", distinct=True),
                        n_learners=Count("claims__attempt__user", distinct=True)))
    rows = []
    for group in groups:
        own = list(group.claims.filter(attempt__user__in=taught).order_by("-attempt__submitted_at")
                   .values_list("text", flat=True)[:3])
        marks = dict(Counter(group.claims.values_list("judgement", flat=True)))
        rows.append(GroupRow(group=group, claims=group.n_claims, learners=group.n_learners,
                             examples=list(dict.fromkeys(own)), marks=marks,
                             judgement=group.judgements.select_related("judged_by").order_by("-version").first(),
                             lines=group.fixture_version.numbered_lines()))
    rows.sort(key=lambda r: (-r.claims, -r.learners, r.group.pk))
    return exercise, rows


def access_group(user: AnyUser, slug: str, group_id: int) -> ClaimGroup:
    """A group of the exercise holding a claim of a learner ``user`` teaches; 404 for everyone else."""
    exercise, taught = access_group_exercise(user, slug)
    group = (ClaimGroup.objects.select_related("fixture_version__fixture", "exercise")
             .filter(pk=group_id, exercise=exercise, claims__attempt__user__in=taught).distinct().first())
    if group is None:
        raise NotFound(_("그런 주장 묶음은 없습니다."), target=exercise, reason="주장 묶음: 가르치는 학습자의 주장 없음")
    return group


def exercises_with_groups(user: AnyUser) -> list[tuple[Exercise, int]]:
    """For an instructor's area: the exercises their learners attempted, with how many groups await judgement."""
    if not access.is_instructor(user):
        raise NotFound(_("그런 페이지는 없습니다."))
    found = []
    for exercise in Exercise.objects.filter(attempts__status=Attempt.Status.SUBMITTED).distinct().order_by("slug"):
        taught = _taught_authors(user, exercise)
        if taught:
            waiting = (ClaimGroup.objects.filter(exercise=exercise, claims__attempt__user__in=taught,
                                                 judgements__isnull=True).distinct().count())
            found.append((exercise, waiting))
    return found


def stale_keys(exercise: Exercise) -> list[str]:
    """The exercise's keys that back no verdict on their fixtures' versions in use (their lines changed since
    the version they were written or last confirmed for), as labels for the people who confirm them."""
    from .groups import Pins

    found: list[str] = []
    own = exercise.fixture.current_version
    if own is not None:
        pins = Pins(own)
        found += [_("질문 키 · %(q)s") % {"q": q.text} for q in exercise.questions.all()
                  if pins.stale({"fixture_version": q.fixture_version, "judgement": q.judgement, "evidence": q.evidence,
                                 "required": q.required, "explanation": q.explanation})]
    variant_pins = {"": (own, Pins(own) if own else None)}
    for variant in exercise.variants.select_related("fixture__current_version"):
        current = variant.fixture.current_version
        variant_pins[variant.key] = (current, Pins(current) if current else None)
        if current is not None:
            pins = Pins(current)
            found += [_("변형 %(v)s · %(k)s") % {"v": variant.title, "k": key} for key, override in variant.overrides.items()
                      if pins.stale({"fixture_version": variant.fixture_version, **override})]
    for sample in exercise.samples.all():
        _version, pins_ = variant_pins.get(sample.variant_key, (None, None))
        if pins_ is None:
            continue
        found += [_("%(s)s · %(c)s") % {"s": sample.title, "c": claim["text"]} for claim in sample.claims
                  if pins_.stale({"fixture_version": sample.fixture_version, **claim})]
    return found


# To-do hooks (tutor.notices.registry.todo_for, through GroundingConfig.todo_for).

JUDGED_RECENTLY = timedelta(days=14)


def claims_judged_since_last_look(user: AnyUser) -> list[TodoItem]:
    """"claim_judged": the learner's submitted attempts holding a claim whose answer group an instructor judged
    after the attempt was submitted (in the last two weeks), one item per attempt, linking to its feedback.

    The site keeps no "last looked" time per attempt, so a judgement stays on the list for two weeks.
    """
    if not user.is_authenticated:
        return []
    since = timezone.now() - JUDGED_RECENTLY
    judged = (GroupJudgement.objects.filter(group__claims__attempt=OuterRef("pk"), judged_at__gte=since,
                                            judged_at__gt=OuterRef("submitted_at")))
    attempts = (Attempt.objects.filter(user=user, status=Attempt.Status.SUBMITTED).filter(Exists(judged))
                .select_related("exercise").order_by("-submitted_at")[:20])
    return [TodoItem("claim_judged", _("강사 판정이 나온 주장: %(t)s") % {"t": attempt.exercise.title},
                     reverse("grounding:attempt", args=[attempt.pk])) for attempt in attempts]


def answer_groups_waiting(user: AnyUser) -> list[TodoItem]:
    """"answer_group": per exercise, the answer groups of this teacher's learners that wait for a judgement."""
    if not access.is_instructor(user):
        return []
    return [TodoItem("answer_group", _("판정을 기다리는 주장 묶음: %(t)s") % {"t": exercise.title},
                     reverse("grounding:groups", args=[exercise.slug]), count=waiting)
            for exercise, waiting in exercises_with_groups(user) if waiting]
