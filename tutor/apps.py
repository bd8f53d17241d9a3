from django.apps import AppConfig


class TutorConfig(AppConfig):
    """The site's core: people and cohorts, the access policy, the audit log, the API root."""

    name = "tutor"
    verbose_name = "근거 튜터"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter

        from . import checks  # noqa: F401  (registers the system checks)
        from .numbers import IdConverter

        register_converter(IdConverter, "id")
