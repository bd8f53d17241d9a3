from django.urls import path

from . import views

app_name = "cohorts"
urlpatterns = [
    path("", views.cohort_list, name="list"),
    path("<id:cohort_id>/", views.cohort_detail, name="detail"),
    path("<id:cohort_id>/roster/", views.roster, name="roster"),
    path("<id:cohort_id>/members/", views.add_member, name="add-member"),
    path("<id:cohort_id>/join-code/", views.join_code, name="join-code"),
    path("<id:cohort_id>/members/<str:username>/role/", views.change_role, name="role"),
    path("<id:cohort_id>/members/<str:username>/remove/", views.remove_member, name="remove"),
    path("<id:cohort_id>/members/<str:username>/move/", views.move_member, name="move"),
    path("<id:cohort_id>/members/<str:username>/resend/", views.resend_invitation, name="resend"),
]
