from django.urls import path

from . import views

app_name = "lessons"
urlpatterns = [
    path("", views.home, name="home"),
    path("lessons/", views.catalogue, name="catalogue"),
    path("lessons/<slug:slug>/", views.lesson_detail, name="detail"),
    path("lessons/<slug:slug>/parts/<slug:key>/reached", views.part_reached, name="part-reached"),
    path("lessons/<slug:slug>/checks/<slug:key>/answer/", views.self_check_answer, name="answer"),
    path("lessons/<slug:slug>/checks/<slug:key>/understood/", views.self_check_understood, name="understood"),
    path("lessons/<slug:slug>/files/<str:name>", views.lesson_file, name="file"),
    path("lessons/<slug:slug>/diagrams/<str:digest>/<str:name>", views.lesson_diagram, name="diagram"),
    path("me/progress/", views.my_progress, name="progress"),
]
