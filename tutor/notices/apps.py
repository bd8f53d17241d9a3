from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """In-site notices, per-kind mail preferences, and the worker's daily jobs (the teachers' digest)."""

    name = "tutor.notices"
    label = "notices"
    verbose_name = "알림"
    default_auto_field = "django.db.models.BigAutoField"
