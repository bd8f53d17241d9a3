from django.db import migrations, models


def fill_host(apps, schema_editor):
    """Existing rows name their worker as ``host:pid``; the host is the part before the colon."""
    SandboxHealth = apps.get_model("labs", "SandboxHealth")
    for row in SandboxHealth.objects.filter(host=""):
        row.host = row.worker.rpartition(":")[0]
        row.save(update_fields=["host"])


class Migration(migrations.Migration):
    dependencies = [("labs", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="sandboxhealth",
            name="host",
            field=models.CharField(db_index=True, default="", help_text="the worker's host name", max_length=100),
        ),
        migrations.RunPython(fill_host, migrations.RunPython.noop),
    ]
