"""Grounding exercises and learners' attempts at them.

The answer key (``Question.judgement``, ``evidence``, ``explanation``) never
reaches a learner's browser before their attempt is submitted; an attempt is a
completion record, never a review and never a grade.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from lessons.models import Fixture, FixtureVersion, Lesson


class Judgement(models.TextChoices):
    GROUNDED = "grounded", _("근거")
    NO_DATA = "no_data", _("자료없음")
    PENDING = "pending", _("보류")
    NOT_A_CLAIM = "not_claim", _("주장 아님")


class Relation(models.TextChoices):
    """What a claim says relative to the source; it decides the claim's right judgement."""

    RESTATES = "restates", _("원문과 같음")
    SILENT = "silent", _("원문에 없음")
    CONTRADICTS = "contradicts", _("원문과 어긋남")
    CONDITIONAL = "conditional", _("원문은 조건부·미정")
    PARTIAL = "partial", _("일부만 원문에 있음")
    NOT_A_CLAIM = "not_claim", _("주장이 아님")


# The judgement each relation calls for (a claim that rightly says the source is silent restates it).
JUDGEMENT_FOR: dict[str, str] = {
    Relation.RESTATES: Judgement.GROUNDED,
    Relation.SILENT: Judgement.NO_DATA,
    Relation.CONTRADICTS: Judgement.NO_DATA,
    Relation.CONDITIONAL: Judgement.PENDING,
    Relation.PARTIAL: Judgement.NO_DATA,
    Relation.NOT_A_CLAIM: Judgement.NOT_A_CLAIM,
}


class ExerciseQuerySet(models.QuerySet["Exercise"]):
    def active(self) -> ExerciseQuerySet:
        return self.filter(is_active=True)


class Exercise(models.Model):
    lesson = models.ForeignKey(Lesson, on_delete=models.PROTECT, related_name="grounding_exercises")
    slug = models.SlugField(unique=True)
    order = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    prompt = models.TextField()
    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="+")
    digest = models.CharField(max_length=64)
    version = models.PositiveIntegerField(default=1)
    is_active = models.BooleanField(default=True)

    objects = ExerciseQuerySet.as_manager()

    class Meta:
        verbose_name = _("근거 연습")
        verbose_name_plural = _("근거 연습")
        ordering = ["lesson__order", "order", "slug"]

    def __str__(self) -> str:
        return self.title


class Question(models.Model):
    """One question of the exercise with its answer key."""

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="questions")
    key = models.SlugField(max_length=60)
    order = models.PositiveIntegerField()
    text = models.TextField()
    judgement = models.CharField(max_length=10, choices=Judgement.choices)
    evidence = models.JSONField(default=list, help_text="Acceptable evidence lines.")
    required = models.JSONField(default=list, help_text="Lines a complete citation includes.")
    explanation = models.TextField()
    facts = models.JSONField(default=list, blank=True, help_text="What the source says about it, in short.")
    terms = models.JSONField(default=list, blank=True, help_text="Words by which a claim is about this question.")
    fixture_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The fixture version number this key was written (or last confirmed) for.")

    class Meta:
        ordering = ["order"]
        constraints = [models.UniqueConstraint(fields=["exercise", "key"], name="grounding_question_key")]

    def __str__(self) -> str:
        return self.text


class Variant(models.Model):
    """The same notice with a line changed, and the keys that change with it."""

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="variants")
    key = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="+")
    overrides = models.JSONField(default=dict, help_text="{question key: {judgement, evidence, required, explanation}}")
    fixture_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The variant fixture's version number the overrides were written for.")

    class Meta:
        ordering = ["key"]
        constraints = [models.UniqueConstraint(fields=["exercise", "key"], name="grounding_variant_key")]

    def __str__(self) -> str:
        return self.title


class SampleAnswer(models.Model):
    """A human-written, fictional model answer for learners with no AI at hand."""

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="samples")
    key = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    variant_key = models.CharField(max_length=60, blank=True)
    text = models.TextField()
    claims = models.JSONField(default=list, blank=True,
                              help_text="Claim-level keys: [{text, judgement, relation, lines, question, explanation}]")
    fixture_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The version number of the sample's fixture its claim keys were written for.")

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return f"{self.key}: {self.title}"


class AttemptQuerySet(models.QuerySet["Attempt"]):
    def of(self, user: object) -> AttemptQuerySet:
        return self.filter(user=user)


class Attempt(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("표시 중")
        SUBMITTED = "submitted", _("제출함")

    exercise = models.ForeignKey(Exercise, on_delete=models.PROTECT, related_name="attempts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="grounding_attempts")
    number = models.PositiveIntegerField()
    idempotency_key = models.CharField(max_length=64)
    variant_key = models.CharField(max_length=60, blank=True)
    fixture_version = models.ForeignKey(FixtureVersion, on_delete=models.PROTECT, related_name="+")
    exercise_version = models.PositiveIntegerField()
    answer_text = models.TextField(help_text="The pasted answer, stored as text and always shown escaped.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    feedback = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        verbose_name = _("근거 연습 시도")
        verbose_name_plural = _("근거 연습 시도")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "idempotency_key"], name="grounding_attempt_idempotent"),
        ]

    def __str__(self) -> str:
        return f"{self.exercise.slug} #{self.number}"


class ClaimMark(models.Model):
    """One claim of the pasted answer (offsets into it) and how the learner marked it."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="claims")
    order = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    text = models.TextField()
    judgement = models.CharField(max_length=10, choices=Judgement.choices, blank=True)
    question_key = models.CharField(max_length=60, blank=True)
    cited_lines = models.JSONField(default=list)
    # The curated claim-level key when this claim is one of a sample answer's, word for word.
    key = models.JSONField(null=True, blank=True)
    # The answer group of a submitted claim no check could judge (instructors judge it once for everyone).
    group = models.ForeignKey("ClaimGroup", null=True, blank=True, on_delete=models.SET_NULL, related_name="claims")

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return f"주장 {self.order} (답 #{self.attempt_id}, {self.judgement or '판단 전'})"


class ClaimGroup(models.Model):
    """Claims no check could judge, gathered across learners and cohorts by normalised text and values.

    Groups are per exercise and fixture version: a claim is judged against the lines its learner saw.
    """

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="claim_groups")
    fixture_version = models.ForeignKey(FixtureVersion, on_delete=models.PROTECT, related_name="+")
    variant_key = models.CharField(max_length=60, blank=True)
    signature = models.CharField(max_length=64, help_text="SHA-256 of the normalised text and values.")
    text = models.TextField(help_text="The normalised text the group's claims share.")
    values = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("주장 묶음")
        verbose_name_plural = _("주장 묶음")
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["exercise", "fixture_version", "variant_key", "signature"],
                                               name="grounding_claim_group_unique")]

    def __str__(self) -> str:
        return self.text[:80]


class GroupJudgement(models.Model):
    """An instructor's judgement of an answer group; a revision is a new version, never an edit."""

    group = models.ForeignKey(ClaimGroup, on_delete=models.CASCADE, related_name="judgements")
    version = models.PositiveIntegerField()
    relation = models.CharField(max_length=12, choices=Relation.choices)
    lines = models.JSONField(default=list, blank=True)
    explanation = models.TextField()
    judged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    judged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("강사 판정")
        verbose_name_plural = _("강사 판정")
        ordering = ["group", "-version"]
        constraints = [models.UniqueConstraint(fields=["group", "version"], name="grounding_group_judgement_version")]

    def __str__(self) -> str:
        return f"{self.group} · 판 {self.version}"

