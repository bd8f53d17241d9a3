"""Lessons as versioned content, and the two learner tracks that live beside them.

Completion (``CompletionRecord``) and self-report (``SelfReport``) are separate
tables on purpose: neither is a grade, and nothing merges them.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils.translation import gettext_lazy as _


class PartKey(models.TextChoices):
    """The twelve parts of every lesson, in reading order."""

    ANALOGY = "analogy", _("비유와 그 한계")
    MECHANISM = "mechanism", _("실제로 어떻게 동작하나")
    FOLLOW_ALONG = "follow-along", _("따라 하기")
    INPUT_EXAMPLE = "input-example", _("입력 예시")
    EXPECTED_RESULT = "expected-result", _("기대 결과")
    VERIFY = "verify", _("확인하는 방법")
    MISCONCEPTIONS = "misconceptions", _("흔한 오해와 복구")
    SELF_CHECK = "self-check", _("확인 문제")
    PRACTICE = "practice", _("독립 실습")
    TRANSFER = "transfer", _("새 맥락에 적용하기")
    EXPLAIN = "explain", _("내 말로 설명하고 가르치기")
    SOURCES = "sources", _("출처와 확인한 것")


class Course(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)

    class Meta:
        verbose_name = _("과정")
        verbose_name_plural = _("과정")

    def __str__(self) -> str:
        return self.title


class LessonQuerySet(models.QuerySet["Lesson"]):
    def published(self) -> LessonQuerySet:
        return self.filter(is_published=True, current_version__isnull=False)

    def with_current(self) -> LessonQuerySet:
        return self.select_related("current_version", "course")


class Lesson(models.Model):
    """A lesson's identity; what it says lives in its ``LessonVersion`` rows."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="lessons")
    slug = models.SlugField(unique=True)
    order = models.PositiveIntegerField(default=0)
    is_published = models.BooleanField(_("게시"), default=False)
    current_version = models.ForeignKey(
        "LessonVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = LessonQuerySet.as_manager()

    class Meta:
        verbose_name = _("레슨")
        verbose_name_plural = _("레슨")
        ordering = ["order", "slug"]

    def __str__(self) -> str:
        title = self.current_version.title if self.current_version is not None else self.slug
        return title


class LessonVersion(models.Model):
    """One immutable reading of a lesson's folder, identified by its content digest."""

    lesson = models.ForeignKey(Lesson, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    digest = models.CharField(max_length=64)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    minutes = models.PositiveIntegerField(default=0, help_text="Reading time.")
    lab_minutes = models.PositiveIntegerField(default=0, help_text="Time for the labs and exercises.")
    task_minutes = models.PositiveIntegerField(default=0, help_text="Time for the evidence tasks.")
    requires = models.JSONField(default=list, blank=True, help_text="Slugs of the lessons to do first.")
    parts = models.JSONField(help_text="[{number, key, title, anchor, html, subheadings}]")
    objectives = models.JSONField(default=list, blank=True, help_text="Learning objectives, in order.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("레슨 판")
        verbose_name_plural = _("레슨 판")
        ordering = ["lesson", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["lesson", "number"], name="lesson_version_number_unique"),
            models.UniqueConstraint(fields=["lesson", "digest"], name="lesson_version_digest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.title} (판 {self.number})"


class LessonFile(models.Model):
    """A downloadable lab file that shipped with one lesson version."""

    version = models.ForeignKey(LessonVersion, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=120)
    content = models.TextField()
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["version", "name"], name="lesson_file_unique")]

    def __str__(self) -> str:
        return self.name


class LessonDiagram(models.Model):
    """A checked SVG figure of one lesson version, served as ``image/svg+xml`` and shown with ``<img>``."""

    version = models.ForeignKey(LessonVersion, on_delete=models.CASCADE, related_name="diagrams")
    name = models.CharField(max_length=60)
    svg = models.TextField()
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["version", "name"], name="lesson_diagram_unique")]

    def __str__(self) -> str:
        return self.name


class SelfCheck(models.Model):
    """A self-check question; its answer is shown only to signed-in people who ask for it."""

    class Kind(models.TextChoices):
        PREDICT = "predict", _("예측")
        RECALL = "recall", _("되짚기")

    version = models.ForeignKey(LessonVersion, on_delete=models.CASCADE, related_name="self_checks")
    key = models.SlugField(max_length=60)
    order = models.PositiveIntegerField()
    kind = models.CharField(
        max_length=10, choices=Kind.choices, default=Kind.RECALL,
        help_text="predict: asks what happens with a new input; shown to the learner as such.",
    )
    question = models.TextField()
    answer = models.TextField()
    explanation = models.TextField()

    class Meta:
        verbose_name = _("확인 문제")
        verbose_name_plural = _("확인 문제")
        ordering = ["order"]
        constraints = [models.UniqueConstraint(fields=["version", "key"], name="self_check_key_unique")]

    def __str__(self) -> str:
        return self.question[:60]


class Fixture(models.Model):
    """Fictional data used by exercises and labs. After the first load it lives here, edited in the admin."""

    slug = models.SlugField(_("식별자"), unique=True)
    title = models.CharField(_("제목"), max_length=200)
    lesson = models.ForeignKey(Lesson, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixtures",
                               verbose_name=_("레슨"))
    is_fictional = models.BooleanField(_("가상 자료"), default=True, editable=False)
    current_version = models.ForeignKey(
        "FixtureVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("현재 판")
    )
    loaded_file_digest = models.CharField(
        max_length=64, blank=True, help_text="Digest of the file last loaded from lesson content."
    )

    class Meta:
        verbose_name = _("가상 자료")
        verbose_name_plural = _("가상 자료")
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.title


class FixtureVersion(models.Model):
    class Origin(models.TextChoices):
        FILE = "file", _("레슨 파일")
        ADMIN = "admin", _("관리자 수정")

    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="versions", verbose_name=_("가상 자료"))
    number = models.PositiveIntegerField(_("판"))
    text = models.TextField(_("내용"))
    digest = models.CharField(_("SHA-256"), max_length=64)
    origin = models.CharField(_("출처"), max_length=10, choices=Origin.choices)
    diff_from_previous = models.TextField(_("이전 판과 달라진 점"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("만든 사람"),
    )
    created_at = models.DateTimeField(_("만든 때"), auto_now_add=True)

    class Meta:
        verbose_name = _("가상 자료 판")
        verbose_name_plural = _("가상 자료 판")
        ordering = ["fixture", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="fixture_version_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.fixture.slug} 판 {self.number}"

    def numbered_lines(self) -> list[tuple[int, str]]:
        return list(enumerate(self.text.splitlines(), start=1))


class CompletionRecord(models.Model):
    """A fact about activity (lesson opened, part reached, answer revealed, lab run made,
    exercise attempted). Only ever added; apps that build on lessons record their kinds here."""

    class Kind(models.TextChoices):
        OPENED = "opened", _("레슨 열람")
        PART_REACHED = "part_reached", _("부분 도달")
        ANSWER_REVEALED = "answer_revealed", _("해설 열람")
        LAB_RUN = "lab_run", _("실습 실행")
        EXERCISE_ATTEMPTED = "exercise_attempted", _("근거 연습 제출")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="completions")
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="completions")
    version = models.ForeignKey(LessonVersion, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    item = models.CharField(max_length=60, blank=True, help_text="Part, self-check, lab or exercise key.")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("진도 기록")
        verbose_name_plural = _("진도 기록")
        ordering = ["at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson", "kind", "item"], name="completion_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.item} (학습자 #{self.user_id}, 레슨 #{self.lesson_id})"


class SelfReportQuerySet(models.QuerySet["SelfReport"]):
    def by(self, user: User) -> SelfReportQuerySet:
        return self.filter(user=user)


class SelfReport(models.Model):
    """"이해했어요" on a self-check: the learner's own word, with a time. Never a grade."""

    class Confidence(models.IntegerChoices):
        UNSURE = 1, _("조금 헷갈려요")
        FAIRLY = 2, _("대체로 알겠어요")
        SURE = 3, _("설명할 수 있어요")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="self_reports")
    self_check = models.ForeignKey(SelfCheck, on_delete=models.PROTECT, related_name="reports")
    confidence = models.PositiveSmallIntegerField(choices=Confidence.choices, null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects = SelfReportQuerySet.as_manager()

    class Meta:
        verbose_name = _("자기 점검")
        verbose_name_plural = _("자기 점검")
        ordering = ["at"]
        constraints = [models.UniqueConstraint(fields=["user", "self_check"], name="self_report_once")]

    def __str__(self) -> str:
        return f"이해했어요 (학습자 #{self.user_id}, 확인 문제 #{self.self_check_id})"


class ContentRevision(models.Model):
    """One row whose number the database raises on every change to lesson content (``lessons.revision``)."""

    number = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("콘텐츠 판 번호")
        verbose_name_plural = _("콘텐츠 판 번호")

    def __str__(self) -> str:
        return f"내용 판 {self.number}"
