"""Root URLs: the pages of each app, the admin and the API."""

from django.contrib import admin
from django.urls import include, path

from . import health, views
from .accounts import views as account_views
from .api import api
from .cohorts import views as cohort_views

account_patterns = [
    path("sign-in/", views.SignInView.as_view(), name="sign-in"),
    path("sign-out/", views.SignOutView.as_view(), name="sign-out"),
    path("api-tokens/", views.api_tokens, name="api-tokens"),
    path("api-tokens/<id:token_id>/revoke/", views.revoke_api_token, name="revoke-api-token"),
    path("audit/", views.audit_log, name="audit"),
    path("", account_views.account, name="account"),
    path("data/", account_views.export_data, name="export-data"),
    path("delete/", account_views.delete_account, name="delete-account"),
    path("deleted/", account_views.account_deleted, name="account-deleted"),
    path("password/change/", account_views.PasswordChangeView.as_view(), name="password-change"),
    path("password/change/done/", account_views.PasswordChangeDoneView.as_view(), name="password-change-done"),
    path("password/reset/", account_views.PasswordResetView.as_view(), name="password-reset"),
    path("password/reset/done/", account_views.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path("password/reset/<uidb64>/<token>/", account_views.PasswordResetConfirmView.as_view(),
         name="password-reset-confirm"),
    path("password/reset/complete/", account_views.PasswordResetCompleteView.as_view(),
         name="password-reset-complete"),
    path("invitation/<str:token>/", cohort_views.invitation, name="invitation"),
    path("sign-up/", cohort_views.sign_up, name="sign-up"),
]

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("", include("lessons.urls")),
    path("account/", include((account_patterns, "tutor"))),
    path("labs/", include("exercises.labs.urls")),
    path("exercises/", include("exercises.grounding.urls")),
    path("evidence/", include("exercises.evidence.urls")),
    path("notices/", include("tutor.notices.urls")),
    path("cohorts/", include("tutor.cohorts.urls")),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]

handler400 = views.bad_request
handler403 = views.permission_denied
handler404 = views.page_not_found
handler500 = views.server_error
