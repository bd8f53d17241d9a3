from django.apps import AppConfig


class MailConfig(AppConfig):
    """Outgoing mail: one row per message, sent once by the task worker."""

    name = "tutor.mail"
    label = "mail"
    verbose_name = "메일"
    default_auto_field = "django.db.models.BigAutoField"
