"""Record where keyed seals began: every run without a seal at this point (older rows, and runs
queued before request seals existed) keeps its old reading; any later run without one reads "altered"."""

from django.db import migrations, models
from django.db.models import Max, Q


def mark_epoch(apps, schema_editor):
    from exercises.labs.records import epoch_seal
    from tutor import keys

    LabRun = apps.get_model("labs", "LabRun")
    SealEpoch = apps.get_model("labs", "SealEpoch")
    last = LabRun.objects.filter(Q(seal="") | Q(seal_key_id="")).aggregate(last=Max("id"))["last"] or 0
    key = keys.current_key()
    SealEpoch.objects.update_or_create(pk=1, defaults={
        "last_unkeyed_run_id": last, "key_id": key.key_id, "seal": epoch_seal(last, key)})


class Migration(migrations.Migration):
    dependencies = [("labs", "0005_merge_cgroup_usage")]

    operations = [
        migrations.CreateModel(
            name="SealEpoch",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("last_unkeyed_run_id", models.BigIntegerField(default=0)),
                ("key_id", models.CharField(max_length=32)),
                ("seal", models.CharField(max_length=64)),
            ],
            options={"verbose_name": "키 봉인 시작점", "verbose_name_plural": "키 봉인 시작점"},
        ),
        migrations.RunPython(mark_epoch, migrations.RunPython.noop),
    ]
