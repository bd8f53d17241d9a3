from django.urls import path

from . import views

app_name = "evidence"
urlpatterns = [
    path("queue/", views.queue, name="queue"),
    path("export.csv", views.export_csv, name="export"),
    path("gradebook.csv", views.gradebook_csv, name="gradebook"),
    path("cohorts/<int:cohort_id>/progress/", views.cohort_progress, name="cohort-progress"),
    path("cohorts/<int:cohort_id>/<slug:slug>/minimum/", views.cohort_minimum, name="cohort-minimum"),
    path("submissions/<int:submission_id>/", views.submission_detail, name="submission"),
    path("submissions/<int:submission_id>/assign/", views.assign, name="assign"),
    path("submissions/<int:submission_id>/resolve/", views.resolve_disagreement, name="resolve-disagreement"),
    path("submissions/<int:submission_id>/reviews/", views.add_review, name="review"),
    path("submissions/<int:submission_id>/release/", views.release, name="release"),
    path("submissions/<int:submission_id>/runs/<int:run_id>/", views.attached_run, name="attached-run"),
    path("submissions/<int:submission_id>/runs/<int:run_id>/reproduce/", views.reproduce, name="reproduce"),
    path("allocations/<int:allocation_id>/give-back/", views.give_back, name="give-back"),
    path("reviews/<int:review_id>/release/", views.release_review, name="release-review"),
    path("reviews/<int:review_id>/helpful/", views.rate_review, name="helpful"),
    path("reviews/<int:review_id>/flag/", views.flag_review, name="flag"),
    path("flags/<int:flag_id>/resolve/", views.resolve_flag, name="resolve-flag"),
    path("<slug:slug>/", views.task_detail, name="task"),
    path("<slug:slug>/calibration/<int:example_id>/", views.calibration, name="calibration"),
    path("<slug:slug>/calibration/<int:example_id>/review/", views.practise, name="practise"),
    path("<slug:slug>/peer/", views.request_peer_work, name="peer"),
    path("<slug:slug>/release/", views.release_task, name="release-task"),
    path("<slug:slug>/draft/", views.save_draft, name="draft"),
    path("<slug:slug>/submit/", views.submit, name="submit"),
]
