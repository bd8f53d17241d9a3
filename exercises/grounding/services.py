"""Every write of the grounding app: loading exercises, attempts, claim marks, submission."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from lessons.content import ContentError, folder_digest
from lessons.models import CompletionRecord, Fixture, Lesson
from lessons.services import record_completion
from tutor import access, audit
from tutor.errors import Conflict, NotFound, Throttled, TutorError

from . import feedback
from .content import claim_text_key, read_exercise
from .engine import absent_words_shared, claim_text, split_claims, suggest
from .engine.particles import attach
from .groups import claim_values, normalise_claim, people_notes, signature
from .models import (
    Attempt,
    ClaimGroup,
    ClaimMark,
    Exercise,
    GroupJudgement,
    Judgement,
    Question,
    Relation,
    SampleAnswer,
    Variant,
)
from .schemas import MarkIn

MAX_ANSWER_CHARS = 8000
MAX_CLAIMS = 50
DEFAULT_SUGGEST_PER_MINUTE = 60
# A claim is linked to the question it most resembles only above this score.
QUESTION_LINK_MIN_SCORE = 0.1


class PasteRefused(TutorError):
    """A paste the site cannot take (empty, too long, too many claims): the page keeps the text."""

    title = "붙여 넣은 답변을 받을 수 없습니다"


class AnswerTooLong(PasteRefused):
    status = 413
    code = "too_large"
    title = "붙여 넣은 답변이 너무 깁니다"


@transaction.atomic(savepoint=False)
def load_exercises(*, lesson: Lesson, folder: Path) -> list[str]:
    """Upsert the exercises under ``<lesson folder>/exercises``; one whose folder is gone is deactivated."""
    root = folder / "exercises"
    line_counts = {f.slug: len(f.current_version.numbered_lines())
                   for f in Fixture.objects.filter(current_version__isnull=False).select_related("current_version")
                   if f.current_version is not None}
    seen: set[str] = set()
    lines: list[str] = []
    for exercise_dir in sorted(p for p in root.iterdir() if (p / "exercise.yaml").is_file()) if root.is_dir() else []:
        seen.add(exercise_dir.name)
        digest = folder_digest(exercise_dir)
        current = Exercise.objects.filter(slug=exercise_dir.name).first()
        if current is not None and current.digest == digest and current.is_active:
            continue
        _upsert_exercise(lesson=lesson, slug=exercise_dir.name,
                         spec=read_exercise(exercise_dir, line_counts=line_counts), digest=digest)
        lines.append(_("근거 연습 반영: %(slug)s") % {"slug": exercise_dir.name})
    for exercise in Exercise.objects.filter(lesson=lesson, is_active=True).exclude(slug__in=seen):
        exercise.is_active = False
        exercise.save(update_fields=["is_active"])
        audit.record(actor=None, action="grounding.exercise_deactivated", target=exercise,
                     reason="레슨 폴더에 없음", before={"is_active": True}, after={"is_active": False})
        lines.append(_("근거 연습 비활성화: %(slug)s") % {"slug": exercise.slug})
    return lines


def _fixture(slug: str, where: str) -> Fixture:
    fixture = Fixture.objects.filter(slug=slug, current_version__isnull=False).first()
    if fixture is None:
        raise ContentError(f"{where}: 가상 자료 '{slug}'가 없습니다.")
    return fixture


def _pin(fixture: Fixture) -> int | None:
    return fixture.current_version.number if fixture.current_version is not None else None


def _upsert_exercise(*, lesson: Lesson, slug: str, spec: dict, digest: str) -> Exercise:
    """Write the exercise and its keys, each pinned to the version of its fixture in use now (point of writing)."""
    fields = {"lesson": lesson, "order": spec["order"], "title": spec["title"], "summary": spec["summary"],
              "prompt": spec["prompt"], "fixture": _fixture(spec["fixture"], slug), "digest": digest, "is_active": True}
    exercise, created = Exercise.objects.get_or_create(slug=slug, defaults=fields)
    before = None if created else {"version": exercise.version, "digest": exercise.digest}
    if not created:
        for name, value in fields.items():
            setattr(exercise, name, value)
        exercise.version += 1
        exercise.save()
    audit.record(actor=None, action="grounding.exercise_version", target=exercise, reason="레슨 파일에서 읽음",
                 before=before, after={"version": exercise.version, "digest": digest})
    exercise.questions.all().delete()
    own_pin = _pin(exercise.fixture)
    Question.objects.bulk_create(Question(exercise=exercise, fixture_version=own_pin, **q) for q in spec["questions"])
    exercise.variants.all().delete()
    variant_fixtures = {v["key"]: _fixture(v["fixture"], slug) for v in spec["variants"]}
    Variant.objects.bulk_create(
        Variant(exercise=exercise, key=v["key"], title=v["title"], fixture=variant_fixtures[v["key"]],
                overrides=v["overrides"], fixture_version=_pin(variant_fixtures[v["key"]])) for v in spec["variants"]
    )
    exercise.samples.all().delete()
    SampleAnswer.objects.bulk_create(
        SampleAnswer(exercise=exercise, fixture_version=_pin(variant_fixtures[s["variant_key"]])
                     if s["variant_key"] in variant_fixtures else own_pin, **s) for s in spec["samples"])
    return exercise


def suggest_question(claim: str, questions: list[Question], source: str) -> str:
    """The key of the question a claim answers, or "" when that is not clear.

    The link decides which key the feedback checks the claim against, so it is made only
    when the claim resembles the question and the claim's best source line is one of that
    question's evidence lines; for a question the source cannot answer (자료없음), when the
    claim names something of the question that the source never mentions (주차).
    """
    if not questions:
        return ""
    best = suggest([q.text for q in questions], [claim])[0].lines
    if not best or best[0].score < QUESTION_LINK_MIN_SCORE:
        return ""
    question = questions[best[0].line - 1]
    if question.judgement == Judgement.NO_DATA:
        about = any(term in claim for term in question.terms) if question.terms else \
            absent_words_shared(source, question.text, claim)
        return question.key if about else ""
    top = [line.line for line in suggest(source, [claim])[0].lines[:1]]
    return question.key if set(top) & set(question.evidence) else ""


def claim_key_for(exercise: Exercise, variant_key: str, text: str) -> dict | None:
    """The curated key of a sample answer's claim with exactly this text (whitespace aside)."""
    wanted = claim_text_key(text)
    for sample in exercise.samples.filter(variant_key=variant_key):
        for key in sample.claims:
            if key["text"] == wanted:
                return {**key, "fixture_version": sample.fixture_version}
    return None


def start_attempt(
    *, user: User, exercise: Exercise, answer_text: str, variant_key: str, idempotency_key: str
) -> Attempt:
    """Store the pasted answer and its claims. The same key returns the same attempt (double submit)."""
    text = answer_text.replace("\r\n", "\n").strip()
    if not text:
        raise PasteRefused(_("붙여 넣은 답변이 비어 있습니다. 모델의 답을 붙여 넣어 주세요."))
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerTooLong(_("답변은 %(n)d자까지 받을 수 있습니다 (지금 %(len)d자). 붙여 넣은 글은 입력란에 그대로 있습니다.")
                            % {"n": MAX_ANSWER_CHARS, "len": len(text)})
    key = idempotency_key.strip()[:64]
    if not key:
        raise TutorError(_("요청 키가 없습니다. 페이지를 새로 고친 뒤 다시 보내 주세요."))
    existing = Attempt.objects.filter(user=user, idempotency_key=key).first()
    if existing is not None:
        if existing.exercise_id != exercise.pk:
            raise Conflict(_("같은 요청 키가 다른 연습에 이미 쓰였습니다."))
        return existing
    variant = exercise.variants.filter(key=variant_key).first() if variant_key else None
    if variant_key and variant is None:
        raise NotFound(_("그런 변형은 없습니다."))
    claims = split_claims(text)
    if not claims:
        raise PasteRefused(_("붙여 넣은 글에서 주장을 찾지 못했습니다 (인사말, 제목, 질문만 있습니다). 모델의 답을 붙여 넣어 주세요."))
    if len(claims) > MAX_CLAIMS:
        raise PasteRefused(_("주장이 %(n)d개를 넘습니다. 답변을 나누어 붙여 넣어 주세요.") % {"n": MAX_CLAIMS})
    fixture = variant.fixture if variant else exercise.fixture
    questions = list(exercise.questions.all())
    if fixture.current_version is None:
        raise TutorError(_("이 연습의 원문이 아직 준비되지 않았습니다."))
    source = fixture.current_version.text
    variant_key = variant.key if variant else ""
    try:
        with transaction.atomic():
            number = (Attempt.objects.filter(user=user, exercise=exercise).aggregate(n=Max("number"))["n"] or 0) + 1
            attempt = Attempt.objects.create(
                exercise=exercise, user=user, number=number, idempotency_key=key,
                variant_key=variant.key if variant else "", fixture_version=fixture.current_version,
                exercise_version=exercise.version, answer_text=text,
            )
            marks = []
            for n, c in enumerate(claims, start=1):
                claim_key = claim_key_for(exercise, variant_key, c.text)
                question = claim_key["question"] if claim_key else suggest_question(c.text, questions, source)
                marks.append(ClaimMark(attempt=attempt, order=n, start=c.start, end=c.end, text=c.text,
                                       question_key=question, key=claim_key))
            ClaimMark.objects.bulk_create(marks)
    except IntegrityError:
        return Attempt.objects.get(user=user, idempotency_key=key)
    return attempt


def _draft(attempt: Attempt) -> None:
    if attempt.status != Attempt.Status.DRAFT:
        raise Conflict(_("이미 제출한 시도는 바꿀 수 없습니다. 새로 시도해 주세요."))


def _locked_draft(user: User, attempt: Attempt) -> Attempt:
    """The user's own attempt read again under its row lock, refused if it was submitted meanwhile.

    Only its author changes an attempt: anyone else gets the 404 of ``selectors.access_own_draft``,
    here too, so that a caller that skipped the selector cannot write to another learner's marks.

    The status the caller read before its transaction may be stale: an autosave still on its
    way when the learner pressed 제출 must not land between the submit's last marks and its seal,
    nor change a sealed attempt after it (on SQLite the IMMEDIATE transaction is the lock).
    """
    locked = _locked_own(user, attempt)
    _draft(locked)
    return locked


def _locked_own(user: User, attempt: Attempt) -> Attempt:
    locked = Attempt.objects.select_for_update().filter(pk=attempt.pk, user_id=user.pk).first()
    if locked is None:
        raise NotFound(_("그런 시도는 없습니다."), target=attempt, reason="남의 시도 고치기")
    return locked


def _line_count(attempt: Attempt) -> int:
    return len(attempt.fixture_version.numbered_lines())


def cited_lines(numbers: list[int], *, line_count: int) -> list[int]:
    """The numbers, sorted without repeats, if each is a line of the source; else a refusal naming the first that
    is not. Reading them from what a person typed is ``tutor.forms.LineNumbersField``'s (the API's schema hands a
    list the same way)."""
    for number in numbers:
        if not 1 <= number <= line_count:
            raise TutorError(_("%(n)d번 줄은 없습니다. 원문은 1–%(max)d번 줄입니다.") % {"n": number, "max": line_count})
    return sorted(set(numbers))


@transaction.atomic(durable=True)
def mark_claims(*, user: User, attempt: Attempt, marks: Sequence[MarkIn]) -> None:
    """Save the learner's marks (of each, only the fields sent change: ``None`` is "not sent").

    A draft's marks are the learner's working notes, like an evidence draft: not audited; the
    submission that seals them is.
    """
    _apply_marks(_locked_draft(user, attempt), marks)


def _apply_marks(attempt: Attempt, marks: Sequence[MarkIn]) -> None:
    claims = {c.pk: c for c in attempt.claims.select_for_update()}
    question_keys = set(attempt.exercise.questions.values_list("key", flat=True))
    line_count = _line_count(attempt)
    for mark in marks:
        claim = claims.get(mark.claim)
        if claim is None:
            raise NotFound(_("그런 주장은 없습니다."))
        if mark.judgement is not None:
            claim.judgement = mark.judgement
        if mark.question is not None:
            if mark.question not in {"", *question_keys}:
                raise TutorError(_("그런 질문은 없습니다."))
            claim.question_key = mark.question
        if mark.lines is not None:
            claim.cited_lines = cited_lines(mark.lines, line_count=line_count)
        claim.save()


@transaction.atomic(durable=True)
def count_suggest_request(*, user: User) -> None:
    """Count one suggest request in the user's current minute; refuse with 429 beyond the allowance.

    A fixed one-minute window per user in Django's cache: no database write on the hot path.
    The count is shared by every server process that shares the cache (``CACHES``); with the
    default per-process memory cache each process counts on its own.
    """
    limit = suggest_allowance()
    now = clock()
    window = int(now // 60)
    key = f"grounding:suggest:{user.pk}:{window}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=120)
        count = 1
    if count > limit:
        retry = max(1, int((window + 1) * 60 - now) + 1)
        raise Throttled(_("근거 후보 요청은 1분에 %(n)d번까지입니다. %(s)d초 뒤에 다시 시도하세요.") % {"n": limit, "s": retry},
                        retry_after=retry)


def clock() -> float:
    """Seconds since the epoch (a seam for tests of the rate-limit window)."""
    return time.time()


def suggest_allowance() -> int:
    return int(getattr(settings, "GROUNDING_SUGGEST_PER_MINUTE", DEFAULT_SUGGEST_PER_MINUTE))


@transaction.atomic(durable=True)
def merge_with_next(*, user: User, attempt: Attempt, claim_id: int) -> None:
    """Join a claim with the one after it; the text is taken again from the pasted answer by offsets."""
    attempt = _locked_draft(user, attempt)
    claims = list(attempt.claims.select_for_update())
    index = next((i for i, c in enumerate(claims) if c.pk == claim_id), None)
    if index is None:
        raise NotFound(_("그런 주장은 없습니다."))
    if index == len(claims) - 1:
        raise TutorError(_("마지막 주장은 뒤와 합칠 수 없습니다."))
    first, second = claims[index], claims[index + 1]
    first.end = second.end
    first.text = claim_text(attempt.answer_text, first.start, first.end)
    first.cited_lines = sorted(set(first.cited_lines) | set(second.cited_lines))
    first.key = claim_key_for(attempt.exercise, attempt.variant_key, first.text)
    first.save()
    second.delete()
    _renumber(attempt)


@transaction.atomic(durable=True)
def split_claim(*, user: User, attempt: Attempt, claim_id: int, before: str) -> None:
    """Split a claim where the text ``before`` begins (the first word of the new second claim)."""
    attempt = _locked_draft(user, attempt)
    claim = attempt.claims.select_for_update().filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(_("그런 주장은 없습니다."))
    needle = before.strip()
    raw = attempt.answer_text[claim.start:claim.end]  # offsets are into the pasted text, emphasis marks and all
    offset = raw.find(needle, 1) if needle else -1
    if offset <= 0:
        raise TutorError(_("%(w)s 이 주장의 첫 글자 뒤에서 찾지 못했습니다. 두 번째 주장이 시작할 낱말을 그대로 적어 주세요.")
                         % {"w": attach(f"'{needle[:30]}'", "을/를")})
    head = raw[:offset].rstrip(" ,;")
    if not head.strip():
        raise TutorError(_("나눈 앞부분이 비어 있습니다."))
    start_second = claim.start + offset
    ClaimMark.objects.filter(attempt=attempt, order__gt=claim.order).update(order=F("order") + 1)
    second_text = claim_text(attempt.answer_text, start_second, claim.end)
    ClaimMark.objects.create(attempt=attempt, order=claim.order + 1, start=start_second, end=claim.end,
                             text=second_text, question_key="",
                             key=claim_key_for(attempt.exercise, attempt.variant_key, second_text))
    claim.end = claim.start + len(head)
    claim.text = claim_text(attempt.answer_text, claim.start, claim.end)
    claim.key = claim_key_for(attempt.exercise, attempt.variant_key, claim.text)
    claim.save()
    _renumber(attempt)


def _renumber(attempt: Attempt) -> None:
    for n, claim in enumerate(attempt.claims.order_by("order", "start"), start=1):
        if claim.order != n:
            claim.order = n
            claim.save(update_fields=["order"])


@transaction.atomic(durable=True)
def submit_attempt(*, user: User, attempt: Attempt, marks: Sequence[MarkIn] = (),
                   unjudged_confirmed: bool = True) -> Attempt:
    """Save the page's last marks and seal the attempt with its feedback, in one transaction.

    One transaction, so that an autosave sent before the learner pressed 제출 but served after
    cannot put an older mark between the two (a cited line lost, and feedback on marks the learner
    no longer holds). With unjudged claims left and ``unjudged_confirmed`` false, the marks are
    saved and the attempt stays a draft: the caller asks. Submitting twice changes nothing.
    """
    attempt = _locked_own(user, attempt)
    if attempt.status == Attempt.Status.SUBMITTED:
        return attempt
    if marks:
        _apply_marks(attempt, marks)
    if not unjudged_confirmed and attempt.claims.filter(judgement="").exists():
        return attempt
    attempt.feedback = feedback.evaluate(attempt)
    grouped, judged = _gather_into_groups(attempt, attempt.feedback)
    if judged:
        attempt.feedback = feedback.evaluate(attempt)
    else:  # nobody judged these groups yet: say so without evaluating the attempt again
        for item in attempt.feedback["claims"]:
            if item["order"] in grouped:
                people_notes(item, stale=bool(item.get("stale")), awaiting=True, key=None)
    attempt.status = Attempt.Status.SUBMITTED
    attempt.submitted_at = timezone.now()
    attempt.save(update_fields=["feedback", "status", "submitted_at"])
    audit.record(actor=user, action="grounding.submit", target=attempt,
                 after={"claims": [[c["order"], c["verdict"]] for c in attempt.feedback["claims"]]})
    record_completion(user=attempt.user, lesson=attempt.exercise.lesson,
                      kind=CompletionRecord.Kind.EXERCISE_ATTEMPTED, item=attempt.exercise.slug)
    return attempt


def _gather_into_groups(attempt: Attempt, evaluated: dict) -> tuple[set[int], bool]:
    """Put each marked claim no check could judge into its answer group; return the orders of the claims
    grouped and whether any of their groups already has an instructor's judgement."""
    unjudged = {c["order"] for c in evaluated["claims"] if c["verdict"] == feedback.UNCHECKED}
    grouped: set[int] = set()
    judged = False
    for claim in attempt.claims.all():
        if claim.order not in unjudged or claim.judgement in ("", Judgement.NOT_A_CLAIM):
            continue
        key = signature(claim.text, claim.question_key)
        if key is None:
            continue  # a claim that says something only of the question it answers, linked to none, joins no group
        group, _created = ClaimGroup.objects.get_or_create(
            exercise=attempt.exercise, fixture_version=attempt.fixture_version, variant_key=attempt.variant_key,
            signature=key,
            defaults={"text": normalise_claim(claim.text), "values": claim_values(claim.text)})
        if claim.group_id != group.pk:
            claim.group = group
            claim.save(update_fields=["group"])
        grouped.add(claim.order)
        judged = judged or group.judgements.exists()
    return grouped, judged


def judge_group(*, actor: User, group: ClaimGroup, relation: str, lines: list[int],
                explanation: str) -> GroupJudgement:
    """An instructor's judgement of an answer group: a new version, audited, and the feedback of every
    submitted attempt with a claim in the group re-evaluated at once (later attempts get it when submitted).

    Only an instructor of a learner with a claim in the group may judge it (404 for anyone else).
    """
    authors = User.objects.filter(grounding_attempts__claims__group=group).distinct()
    if not any(access.instructs(actor, author) for author in authors):
        raise NotFound(_("그런 주장 묶음은 없습니다."), target=group, reason="주장 묶음 판정: 가르치는 학습자 없음")
    if relation not in Relation.values:
        raise TutorError(_("관계는 원문과 같음, 원문에 없음, 원문과 어긋남, 원문은 조건부·미정, 일부만 원문에 있음, 주장이 아님 가운데 하나입니다."))
    text = " ".join(explanation.split())
    if not text:
        raise TutorError(_("판정의 까닭을 한 문장으로 적어 주세요. 학습자에게 그대로 보입니다."))
    if len(text) > 500:
        raise TutorError(_("설명은 500자까지 적을 수 있습니다 (지금 %(n)d자).") % {"n": len(text)})
    numbers = cited_lines(lines, line_count=len(group.fixture_version.numbered_lines()))
    if relation in (Relation.RESTATES, Relation.CONDITIONAL, Relation.CONTRADICTS) and not numbers:
        raise TutorError(_("원문과 같거나 어긋나거나 조건이 붙은 주장이라면, 그렇게 말하는 줄 번호를 적어 주세요."))
    with transaction.atomic(durable=True):
        locked = ClaimGroup.objects.select_for_update().get(pk=group.pk)
        previous = locked.judgements.order_by("-version").first()
        judgement = GroupJudgement.objects.create(
            group=locked, version=(previous.version + 1) if previous else 1, relation=relation, lines=numbers,
            explanation=text, judged_by=actor)
        audit.record(actor=actor, action="grounding.group_judgement", target=locked,
                     reason=_("강사 판정") if previous is None else _("강사 판정 고침"),
                     before=None if previous is None else {"version": previous.version, "relation": previous.relation,
                                                           "lines": previous.lines, "explanation": previous.explanation},
                     after={"version": judgement.version, "relation": relation, "lines": numbers, "explanation": text},
                     detail={"exercise": locked.exercise.slug, "fixture_version": locked.fixture_version.number})
        in_group = ClaimMark.objects.filter(group=locked).values("attempt_id")
        _refresh_feedback(Attempt.objects.filter(status=Attempt.Status.SUBMITTED, pk__in=in_group), group=locked)
    return judgement


_COUNTED = {"right": feedback.RIGHT, "review": feedback.REVIEW, "unchecked": feedback.UNCHECKED,
            "set_aside": feedback.SET_ASIDE, "unmarked": feedback.UNMARKED}


def _refresh_feedback(attempts: QuerySet[Attempt], *, group: ClaimGroup | None = None) -> None:
    """Evaluate submitted attempts again; with ``group``, only that group's claims take the new feedback
    (the rest of the stored feedback stays as it was given)."""
    for attempt in attempts.select_for_update():
        fresh = feedback.evaluate(attempt)
        if group is not None and attempt.feedback and attempt.feedback.get("format") == fresh.get("format"):
            orders = set(attempt.claims.filter(group=group).values_list("order", flat=True))
            stored = {c["order"]: c for c in attempt.feedback["claims"]}
            fresh["claims"] = [c if c["order"] in orders or c["order"] not in stored else stored[c["order"]]
                               for c in fresh["claims"]]
            for name, verdict in _COUNTED.items():
                if name in fresh["summary"]:
                    fresh["summary"][name] = sum(1 for c in fresh["claims"] if c["verdict"] == verdict)
        attempt.feedback = fresh
        attempt.save(update_fields=["feedback"])


def confirm_keys(*, actor: User, exercise: Exercise, reason: str) -> int:
    """An author or instructor confirms that the exercise's keys still hold on its fixtures' versions in use:
    each key is pinned to that version again (audited), and submitted attempts on it get their verdicts back."""
    if not (access.is_instructor(actor) or access.is_fixture_admin(actor)):
        raise NotFound(_("그런 연습은 없습니다."))
    why = " ".join(reason.split())
    if not why:
        raise TutorError(_("무엇을 확인했는지 한 문장으로 적어 주세요."))
    with transaction.atomic(durable=True):
        own = _pin(exercise.fixture)
        before = {"questions": {q.key: q.fixture_version for q in exercise.questions.all()},
                  "variants": {v.key: v.fixture_version for v in exercise.variants.all()},
                  "samples": {s.key: s.fixture_version for s in exercise.samples.all()}}
        exercise.questions.update(fixture_version=own)
        pins = {"": own}
        for variant in exercise.variants.select_related("fixture__current_version"):
            pins[variant.key] = _pin(variant.fixture)
            variant.fixture_version = pins[variant.key]
            variant.save(update_fields=["fixture_version"])
        for sample in exercise.samples.all():
            sample.fixture_version = pins.get(sample.variant_key, own)
            sample.save(update_fields=["fixture_version"])
        current = [exercise.fixture.current_version_id,
                   *exercise.variants.values_list("fixture__current_version", flat=True)]
        for claim in ClaimMark.objects.filter(attempt__exercise=exercise, attempt__fixture_version_id__in=current,
                                              key__isnull=False).select_related("attempt"):
            pin = pins.get(claim.attempt.variant_key, own)
            if claim.key and claim.key.get("fixture_version") != pin:
                claim.key = {**claim.key, "fixture_version": pin}
                claim.save(update_fields=["key"])
        audit.record(actor=actor, action="grounding.keys_confirmed", target=exercise, reason=why, before=before,
                     after={"fixture_version": own, "variants": {k: v for k, v in pins.items() if k}})
        _refresh_feedback(Attempt.objects.filter(exercise=exercise, status=Attempt.Status.SUBMITTED,
                                                 fixture_version_id__in=current))
    return len(before["questions"]) + len(before["samples"])
