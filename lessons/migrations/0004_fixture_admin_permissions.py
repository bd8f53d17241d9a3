"""Let the fixture_admin group edit fixtures and lesson publication in the admin, and nothing else."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = [
    ("lessons", "view_fixture"), ("lessons", "change_fixture"), ("lessons", "view_fixtureversion"),
    ("lessons", "view_lesson"), ("lessons", "change_lesson"), ("lessons", "view_lessonversion"),
]


def grant(apps, schema_editor):
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="fixture_admin")
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


class Migration(migrations.Migration):
    dependencies = [("lessons", "0003_fixture_diff_and_activity_kinds"), ("tutor", "0002_role_groups")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
