"""Release per review (scoped to a cohort), allocations as leases, reproduction details,
per-cohort task settings, calibration examples and practice reviews."""

import datetime

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def release_per_review(apps, schema_editor) -> None:
    """A submission released as a whole releases each of its reviews written by then."""
    Submission = apps.get_model("evidence", "Submission")
    Review = apps.get_model("evidence", "Review")
    for submission in Submission.objects.filter(released_at__isnull=False):
        Review.objects.filter(submission=submission, created_at__lte=submission.released_at).exclude(
            kind="self").update(released_at=submission.released_at)
        if submission.disagreement_resolved_at:
            submission.disagreement_released_at = submission.released_at
            submission.save(update_fields=["disagreement_released_at"])


def leases_for_old_allocations(apps, schema_editor) -> None:
    PeerAllocation = apps.get_model("evidence", "PeerAllocation")
    for allocation in PeerAllocation.objects.filter(expires_at__isnull=True):
        allocation.expires_at = allocation.created_at + datetime.timedelta(hours=8)
        allocation.save(update_fields=["expires_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("evidence", "0004_review_citations"),
        ("tutor", "0002_role_groups"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField("evidencetask", "min_peer_reviews", "default_min_peer_reviews"),
        migrations.AlterField(
            model_name="evidencetask", name="default_min_peer_reviews",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="From evidence.yaml; a cohort's own setting (CohortTaskSetting) wins over it."),
        ),
        migrations.AddField("review", "released_at", models.DateTimeField(
            blank=True, null=True, help_text="The author sees it from then.")),
        migrations.AddField("review", "released_by", models.ForeignKey(
            blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+",
            to=settings.AUTH_USER_MODEL)),
        migrations.AddField("review", "cohort", models.ForeignKey(
            blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tutor.cohort",
            help_text="Whose instructors may release it: the cohort it was written in.")),
        migrations.AddField("submission", "disagreement_resolved_by", models.ForeignKey(
            blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+",
            to=settings.AUTH_USER_MODEL)),
        migrations.AddField("submission", "disagreement_released_at", models.DateTimeField(
            blank=True, null=True, help_text="The resolution reaches the author only with a release.")),
        migrations.RunPython(release_per_review, migrations.RunPython.noop),
        migrations.RemoveField("submission", "released_at"),
        migrations.AddField("flag", "resolution_released_at", models.DateTimeField(
            blank=True, null=True, help_text="The answer reaches the author only with a release.")),
        migrations.AddField("peerallocation", "expires_at", models.DateTimeField(null=True)),
        migrations.RunPython(leases_for_old_allocations, migrations.RunPython.noop),
        migrations.AlterField("peerallocation", "expires_at", models.DateTimeField()),
        migrations.AddField("peerallocation", "ended_at", models.DateTimeField(blank=True, null=True)),
        migrations.AddField("peerallocation", "end", models.CharField(
            blank=True, choices=[("returned", "돌려줌"), ("expired", "기한 지남")], max_length=10)),
        migrations.AddField("peerallocation", "return_reason", models.TextField(blank=True)),
        migrations.AddField("reproduction", "differences", models.JSONField(
            default=list, help_text="Which of status, exit_code, stdout, stderr, checks differ")),
        migrations.AddField("reproduction", "changed_since", models.JSONField(
            default=list, help_text="'lab' and fixture slugs whose version changed since the original")),
        migrations.CreateModel(
            name="CohortTaskSetting",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("min_peer_reviews", models.PositiveSmallIntegerField()),
                ("changed_at", models.DateTimeField(auto_now=True)),
                ("changed_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                 to=settings.AUTH_USER_MODEL)),
                ("cohort", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                             related_name="evidence_settings", to="tutor.cohort")),
                ("task", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                           related_name="cohort_settings", to="evidence.evidencetask")),
            ],
            options={"verbose_name": "기수별 과제 설정", "verbose_name_plural": "기수별 과제 설정",
                     "constraints": [models.UniqueConstraint(fields=("cohort", "task"),
                                                             name="one_setting_per_cohort_task")]},
        ),
        migrations.CreateModel(
            name="CalibrationExample",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.SlugField()),
                ("order", models.PositiveIntegerField(default=0)),
                ("text", models.TextField(help_text="Markdown; rendered sanitised.")),
                ("reference", models.JSONField(help_text="{criterion key: level key or 'insufficient'}")),
                ("reasons", models.JSONField(help_text="{criterion key: why the reference judges so}")),
                ("digest", models.CharField(max_length=64)),
                ("is_active", models.BooleanField(default=True)),
                ("rubric_version", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                     to="evidence.rubricversion")),
                ("task", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                           related_name="calibration_examples", to="evidence.evidencetask")),
            ],
            options={"ordering": ["task", "order"],
                     "constraints": [models.UniqueConstraint(fields=("task", "key", "digest"),
                                                             name="calibration_example_version")]},
        ),
        migrations.CreateModel(
            name="CalibrationReview",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("judgements", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("example", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                              related_name="practice_reviews", to="evidence.calibrationexample")),
                ("reviewer", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                               to=settings.AUTH_USER_MODEL)),
            ],
            options={"verbose_name": "연습 검토", "verbose_name_plural": "연습 검토",
                     "constraints": [models.UniqueConstraint(fields=("example", "reviewer"),
                                                             name="one_practice_review")]},
        ),
    ]
