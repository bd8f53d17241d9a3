from django.urls import path

from . import views

app_name = "labs"
urlpatterns = [
    path("runs/<id:run_id>/", views.run_detail, name="run"),
    path("<slug:slug>/", views.lab_detail, name="detail"),
    path("<slug:slug>/runs/", views.request_run, name="request-run"),
    path("<slug:slug>/download/", views.download_code, name="download"),
]
