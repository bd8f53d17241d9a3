"""Seal and chain the integrity checks (the audit chain's end anchor), make them append-only, and let a
gathered refusal's count only grow by one with its time never moving back."""

import django.utils.timezone
from django.db import migrations, models


def seal_existing_checks(apps, schema_editor):
    from tutor import keys
    from tutor.audit import CHECK_FIELDS, checkpoint_seal

    IntegrityCheck = apps.get_model("tutor", "IntegrityCheck")
    key = keys.current_key()
    previous = ""
    for seq, check in enumerate(IntegrityCheck.objects.order_by("id"), start=1):
        check.seq, check.key_id = seq, key.key_id
        check.seal = checkpoint_seal({name: getattr(check, name) for name in CHECK_FIELDS}, previous, key)
        check.save(update_fields=["seq", "key_id", "seal"])
        previous = check.seal


def reinstall_triggers(apps, schema_editor):
    from tutor import append_only

    append_only.reinstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("tutor", "0005_merge_audit_chain_and_throttle")]

    operations = [
        migrations.AlterField(
            "integritycheck", "checked_at",
            models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AddField(
            "integritycheck", "seq",
            models.PositiveBigIntegerField(help_text="position among the checks", null=True, unique=True),
        ),
        migrations.AddField("integritycheck", "key_id", models.CharField(blank=True, max_length=32)),
        migrations.AddField(
            "integritycheck", "seal",
            models.CharField(blank=True, help_text="HMAC-SHA256 of this check and the seal of the check before it",
                             max_length=64),
        ),
        migrations.RunPython(seal_existing_checks, migrations.RunPython.noop),
        migrations.RunPython(reinstall_triggers, migrations.RunPython.noop),
    ]
