"""Keyed seals on run records: the old unkeyed digest column becomes the seal (older rows
keep no key id, so they show as "봉인되지 않은 기록"), plus the input a run was given."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("labs", "0001_initial")]

    operations = [
        migrations.RenameField("labrun", "record_digest", "seal"),
        migrations.AlterField(
            "labrun", "seal",
            models.CharField(blank=True, help_text="HMAC-SHA256 over seal_digests (records.py)", max_length=64),
        ),
        migrations.AddField("labrun", "seal_key_id", models.CharField(blank=True, max_length=32)),
        migrations.AddField(
            "labrun", "seal_digests",
            models.JSONField(blank=True, default=dict, help_text="{field: sha256} of each sealed field"),
        ),
        migrations.AddField(
            "labrun", "stdin",
            models.TextField(blank=True, help_text="standard input given to the program (empty: none)"),
        ),
        migrations.AddField(
            "labrun", "files",
            models.JSONField(default=dict, help_text="{name: sha256} of every file bound beside main.py"),
        ),
    ]
