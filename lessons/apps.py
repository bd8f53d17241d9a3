from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Courses, lessons, self-checks, fictional fixtures, content loading and completion."""

    name = "lessons"
    verbose_name = "레슨"
    default_auto_field = "django.db.models.BigAutoField"
