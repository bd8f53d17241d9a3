from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import AppConfig


class EvidenceConfig(AppConfig):
    """Evidence learners leave (practice, transfer, explain) and the reviews of it, kept apart from completion."""

    name = "exercises.evidence"
    label = "evidence"
    verbose_name = "남길 증거"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from exercises.labs.hooks import RunListener
        from lessons.extensions import FixtureUsers, LearnerRecords, LessonContent, ReviewRecords
        from tutor import extensions
        from tutor.cohorts.hooks import MembershipListener
        from tutor.notices.registry import NoticeSource, TodoSource

        from . import checks  # noqa: F401  (registers the system checks)

        for point in (LessonContent, ReviewRecords, LearnerRecords, FixtureUsers, RunListener, MembershipListener,
                      TodoSource, NoticeSource):
            extensions.register(point, self)

    def load_lesson_content(self, *, lesson: Any, folder: Path) -> list[str]:
        """Called by ``lessons.services.load_course`` for every lesson folder: load its evidence tasks."""
        from .services import load_tasks

        return load_tasks(lesson=lesson, folder=folder)

    def review_records_for(self, user_ids: list[Any]) -> dict[Any, dict[int, list[str]]]:
        """Called by ``lessons.selectors.progress_of_learners``: each author's review track, per lesson,
        as the author may see it."""
        from .selectors import released_review_counts

        return released_review_counts(user_ids)

    def record_links_for(self, user: Any) -> dict[int, list[Any]]:
        """Called by ``lessons.selectors.progress_of``: links to this learner's submissions and readable reviews."""
        from .selectors import record_links_of

        return record_links_of(user)

    def lab_run_finished(self, run_id: int) -> None:
        """Called by ``exercises.labs.execution.tell_run_finished``: a reviewer's re-run has ended, so its
        reproduction is settled (reproduced, differed or could not run) now, not when someone opens a page."""
        from .peer import settle_reproductions_of_rerun

        settle_reproductions_of_rerun(run_id=run_id)

    def lab_runs_catch_up(self) -> None:
        """Called when a lab worker starts: settle reproductions whose re-run ended while no one was told."""
        from exercises.labs.models import LabRun

        from .models import Reproduction
        from .peer import settle_reproductions_of_rerun

        for run_id in (Reproduction.objects.filter(status=Reproduction.Status.PENDING,
                                                   rerun__status__in=LabRun.FINISHED)
                       .values_list("rerun_id", flat=True).distinct()):
            settle_reproductions_of_rerun(run_id=run_id)

    def member_left(self, *, actor: Any, user: Any, cohort: Any) -> None:
        """Called by ``tutor.cohorts.services`` when someone leaves a cohort: their peer leases there end."""
        from .peer import release_leases_of_leaver

        release_leases_of_leaver(actor=actor, reviewer=user, cohort=cohort)

    def fixture_uses(self, fixture: Any) -> list[Any]:
        """Called by ``lessons.fixture_refs.uses_of``: evidence tasks on the fixture, by the lines they quote."""
        from .selectors import fixture_uses

        return fixture_uses(fixture)

    def todo_for(self, user: Any) -> list[Any]:
        """Called by ``tutor.notices.registry.todo_for``: what this person owes in evidence (learner and teacher)."""
        from .todo import todo_for

        return todo_for(user)

    def digest_lines_for(self, user: Any) -> list[str]:
        """Called by the daily digest job: what waits for this teacher, one line per cohort and kind."""
        from .todo import digest_lines

        return digest_lines(user)

    def daily_notices(self, day: Any) -> int:
        """Called by the daily "due" job: notices for tasks due tomorrow."""
        from .todo import due_tomorrow_notices

        return due_tomorrow_notices(day)

    def timed_notices(self, now: Any) -> int:
        """Called on each worker clock tick: notices for peer steps that closed with learners still waiting."""
        from .todo import peer_closed_notices

        return peer_closed_notices(now)
