from django.apps import AppConfig


class TutorConfig(AppConfig):
    """The site's core: people and cohorts, the access policy, the audit log, the API root."""

    name = "tutor"
    verbose_name = "근거 튜터"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed
        from django.urls import register_converter

        from . import audit, checks  # noqa: F401  (checks registers the system checks)
        from .numbers import IdConverter

        user_login_failed.connect(audit.sign_in_failed, dispatch_uid="tutor.audit.sign_in_failed")
        register_converter(IdConverter, "id")
