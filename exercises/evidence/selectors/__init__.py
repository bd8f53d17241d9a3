"""Reads of the evidence app, by topic. Unreleased reviews and instructors' notes never reach the author or a
peer; others' work never reaches anyone. Each answer about who may do what comes from ``tutor.access``.

Callers import from the package (``from exercises.evidence import selectors``); each topic is a module.
"""

from __future__ import annotations

from .access import (  # noqa: F401
    access_allocation,
    access_attached_run,
    access_cohort,
    access_cohort_learner,
    access_flag,
    access_review_of_own_work,
    access_review_to_release,
    access_reviewer,
    access_reviewer_named,
    access_submission,
    access_task,
    active_tasks,
    allocation_for,
    cohorts_of,
    instructions_of,
    instructor_cohorts,
    learners_of,
    may_export,
    peer_may_read,
    tasks_of_lesson,
)
from .calibration import (  # noqa: F401
    CalibrationLine,
    access_calibration_example,
    calibration_comparison,
    calibration_examples,
    level_label,
    practice_review_of,
)
from .drafts import (  # noqa: F401
    Citations,
    CitedLine,
    allocations_of,
    attachable_runs,
    citations_of,
    draft_of,
    may_give_back,
    reproduction_summary,
    source_lines,
    submissions_of,
    writing_version,
)
from .minimums import (  # noqa: F401
    cohort_peer_minimum,
    peer_minimum,
    peer_minimums,
    peer_minimums_of,
    waiting_for,
)
from .pages import (  # noqa: F401
    AttachedRun,
    ShownReview,
    SubmissionPage,
    submission_page,
)
from .queue import (  # noqa: F401
    QUEUE_SORTS,
    Candidate,
    CohortWaiting,
    GridCell,
    GridColumn,
    QueueRow,
    ReviewerPool,
    ReviewGrid,
    WaitingRow,
    instructor_queue,
    review_grid,
    reviewer_pool,
    waiting_in_cohort,
    waiting_list,
)
from .records import (  # noqa: F401
    fixture_uses,
    record_links_of,
)
from .reviews import (  # noqa: F401
    ListedSubmission,
    PeerRead,
    StandardChange,
    disagreeing_criteria,
    flags_visible_to,
    name_of_author,
    name_of_reviewer,
    peer_read_note,
    released_review_counts,
    review_kind_for,
    review_levels,
    reviews_disagree,
    reviews_visible_to,
    standard_change,
    standard_changed,
    submitted_versions_of,
    visible_among,
    visible_disagreement_note,
)
