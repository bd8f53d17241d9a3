"""Reads of the grounding app that depend on who asks."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from lessons.content import SLUG
from lessons.fixture_refs import FixtureUse, lines_referred, resolve, use
from lessons.models import Fixture
from lessons.selectors import RecordLink, access_lesson
from tutor import access
from tutor.access import AnyUser
from tutor.errors import Conflict, NotFound

from .models import Attempt, Exercise, Variant


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
    quotes), each variant's overrides, and each sample claim's lines."""
    uses: list[FixtureUse] = []
    exercises = (Exercise.objects.active().filter(Q(fixture=fixture) | Q(variants__fixture=fixture)).distinct()
                 .prefetch_related("questions", "variants", "samples"))
    for exercise in exercises:
        own = exercise.fixture_id == fixture.pk
        variants = {v.key: v for v in exercise.variants.all() if v.fixture_id == fixture.pk}
        if own:
            for question in exercise.questions.all():
                uses.append(_key_use(f"{exercise.title} · {question.text}", question.evidence, question.required,
                                     question.explanation, fixture.slug))
        for variant in variants.values():
            for key, override in variant.overrides.items():
                uses.append(_key_use(f"{exercise.title} · {variant.title} · {key}", override.get("evidence", []),
                                     override.get("required", []), override.get("explanation", ""), fixture.slug))
        for sample in exercise.samples.all():
            if (sample.variant_key in variants) or (own and not sample.variant_key):
                for n, claim in enumerate(sample.claims, start=1):
                    use_ = _key_use(f"{exercise.title} · {sample.title} · 주장 {n}", claim.get("lines", []), [],
                                    claim.get("explanation", ""), fixture.slug, kind="근거 연습 예시 주장")
                    if use_.lines is None or use_.lines:
                        uses.append(use_)
    return uses


def _key_use(label: str, evidence: list[int], required: list[int], explanation: str, slug: str, *,
             kind: str = "근거 연습 답안 키") -> FixtureUse:
    quoted = lines_referred(explanation, slug, own=True)
    return use(kind, label, None if quoted is None else {*evidence, *required, *quoted})


def claims_judged_since_last_look(user: access.AnyUser) -> list:
    """To-do hook ("claim_judged"): the learner's claims an instructor judged (as an answer group) since they
    last looked. Answer-group judgements land with branch g-people; until then there are none."""
    return []


def answer_groups_waiting(user: access.AnyUser) -> list:
    """To-do hook ("answer_group"): answer groups waiting for this teacher's judgement, per cohort; none yet."""
    return []
