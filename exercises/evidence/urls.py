from django.urls import path

from . import views

app_name = "evidence"
urlpatterns = [
    path("submissions/<int:submission_id>/", views.submission_detail, name="submission"),
    path("submissions/<int:submission_id>/reviews/", views.add_review, name="review"),
    path("submissions/<int:submission_id>/release/", views.release, name="release"),
    path("<slug:slug>/", views.task_detail, name="task"),
    path("<slug:slug>/draft/", views.save_draft, name="draft"),
    path("<slug:slug>/submit/", views.submit, name="submit"),
]
