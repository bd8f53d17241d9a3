from django.urls import path

from . import views

app_name = "evidence"
urlpatterns = [
    path("queue/", views.queue, name="queue"),
    path("preview/", views.preview, name="preview"),
    path("export.csv", views.export_csv, name="export"),
    path("gradebook.csv", views.gradebook_csv, name="gradebook"),
    path("cohorts/<id:cohort_id>/progress/", views.cohort_progress, name="cohort-progress"),
    path("cohorts/<id:cohort_id>/progress.csv", views.cohort_progress_csv, name="cohort-progress-csv"),
    path("cohorts/<id:cohort_id>/schedule/", views.cohort_schedule, name="cohort-schedule"),
    path("cohorts/<id:cohort_id>/learners/<str:username>/", views.cohort_learner, name="cohort-learner"),
    path("cohorts/<id:cohort_id>/<slug:slug>/minimum/", views.cohort_minimum, name="cohort-minimum"),
    path("submissions/<id:submission_id>/", views.submission_detail, name="submission"),
    path("submissions/<id:submission_id>/opened/", views.reviews_opened, name="reviews-opened"),
    path("submissions/<id:submission_id>/assign/", views.assign, name="assign"),
    path("submissions/<id:submission_id>/resolve/", views.resolve_disagreement, name="resolve-disagreement"),
    path("submissions/<id:submission_id>/reviews/", views.add_review, name="review"),
    path("submissions/<id:submission_id>/release/", views.release, name="release"),
    path("submissions/<id:submission_id>/runs/<id:run_id>/", views.attached_run, name="attached-run"),
    path("submissions/<id:submission_id>/runs/<id:run_id>/reproduce/", views.reproduce, name="reproduce"),
    path("submissions/<id:submission_id>/runs/<id:run_id>/reproduction/", views.reproduction_status, name="reproduction"),
    path("allocations/<id:allocation_id>/give-back/", views.give_back, name="give-back"),
    path("reviews/<id:review_id>/release/", views.release_review, name="release-review"),
    path("reviews/<id:review_id>/helpful/", views.rate_review, name="helpful"),
    path("reviews/<id:review_id>/flag/", views.flag_review, name="flag"),
    path("flags/<id:flag_id>/resolve/", views.resolve_flag, name="resolve-flag"),
    path("<slug:slug>/", views.task_detail, name="task"),
    path("<slug:slug>/calibration/<int:example_id>/", views.calibration, name="calibration"),
    path("<slug:slug>/calibration/<int:example_id>/review/", views.practise, name="practise"),
    path("<slug:slug>/peer/", views.request_peer_work, name="peer"),
    path("<slug:slug>/release/", views.release_task, name="release-task"),
    path("<slug:slug>/draft/", views.save_draft, name="draft"),
    path("<slug:slug>/submit/", views.submit, name="submit"),
]
