"""Chain the entries written before the chain existed (in id order, with the current seal key),
then install the triggers that refuse UPDATE and DELETE on the audit table (SQLite and PostgreSQL)."""

from django.db import migrations


def chain_existing_entries(apps, schema_editor):
    from tutor import keys
    from tutor.audit import CHAINED_FIELDS, entry_chain

    AuditEntry = apps.get_model("tutor", "AuditEntry")
    key = keys.current_key()
    previous = ""
    for seq, entry in enumerate(AuditEntry.objects.order_by("id"), start=1):
        entry.seq, entry.key_id = seq, key.key_id
        entry.chain = entry_chain({name: getattr(entry, name) for name in CHAINED_FIELDS}, previous, key)
        entry.save(update_fields=["seq", "key_id", "chain"])
        previous = entry.chain


def install_triggers(apps, schema_editor):
    from tutor import append_only

    append_only.install(schema_editor.connection)


def remove_triggers(apps, schema_editor):
    from tutor import append_only

    append_only.remove(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("tutor", "0003_audit_chain_and_integrity_checks")]

    operations = [
        migrations.RunPython(chain_existing_entries, migrations.RunPython.noop),
        migrations.RunPython(install_triggers, remove_triggers),
    ]
