from django.urls import path

from . import views

app_name = "notices"
urlpatterns = [
    path("", views.notice_list, name="list"),
    path("badge/", views.unread_badge, name="badge"),
    path("read/", views.mark_read, name="read"),
    path("settings/", views.preferences, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
