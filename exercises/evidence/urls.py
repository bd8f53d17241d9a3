from django.urls import path

from . import views

app_name = "evidence"
urlpatterns = [
    path("queue/", views.queue, name="queue"),
    path("export.csv", views.export_csv, name="export"),
    path("cohorts/<id:cohort_id>/progress/", views.cohort_progress, name="cohort-progress"),
    path("submissions/<id:submission_id>/", views.submission_detail, name="submission"),
    path("submissions/<id:submission_id>/assign/", views.assign, name="assign"),
    path("submissions/<id:submission_id>/resolve/", views.resolve_disagreement, name="resolve-disagreement"),
    path("submissions/<id:submission_id>/reviews/", views.add_review, name="review"),
    path("submissions/<id:submission_id>/release/", views.release, name="release"),
    path("submissions/<id:submission_id>/runs/<id:run_id>/reproduce/", views.reproduce, name="reproduce"),
    path("reviews/<id:review_id>/helpful/", views.rate_review, name="helpful"),
    path("reviews/<id:review_id>/flag/", views.flag_review, name="flag"),
    path("flags/<id:flag_id>/resolve/", views.resolve_flag, name="resolve-flag"),
    path("<slug:slug>/", views.task_detail, name="task"),
    path("<slug:slug>/peer/", views.request_peer_work, name="peer"),
    path("<slug:slug>/minimum/", views.lower_minimum, name="minimum"),
    path("<slug:slug>/release/", views.release_task, name="release-task"),
    path("<slug:slug>/draft/", views.save_draft, name="draft"),
    path("<slug:slug>/submit/", views.submit, name="submit"),
]
