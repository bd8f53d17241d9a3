from django.urls import path

from . import views

app_name = "grounding"
urlpatterns = [
    path("attempts/<id:attempt_id>/", views.attempt_detail, name="attempt"),
    path("attempts/<id:attempt_id>/marks/", views.save_marks, name="marks"),
    path("attempts/<id:attempt_id>/claims/<id:claim_id>/merge/", views.merge_claim, name="merge"),
    path("attempts/<id:attempt_id>/claims/<id:claim_id>/split/", views.split_claim, name="split"),
    path("attempts/<id:attempt_id>/claims/<id:claim_id>/suggestions/", views.claim_suggestions, name="suggestions"),
    path("answer-groups/", views.groups_index, name="groups-index"),
    path("<slug:slug>/", views.exercise_detail, name="detail"),
    path("<slug:slug>/groups/", views.answer_groups, name="groups"),
    path("<slug:slug>/groups/<id:group_id>/judgement/", views.judge_group, name="judge-group"),
    path("<slug:slug>/keys/confirm/", views.confirm_keys, name="confirm-keys"),
    path("<slug:slug>/attempts/", views.start_attempt, name="start"),
    path("<slug:slug>/learners/<str:username>/", views.learner_attempts, name="learner-attempts"),
]
