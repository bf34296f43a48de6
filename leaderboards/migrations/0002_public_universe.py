"""The public universe every rating lives in unless a match names another."""

from django.db import migrations


def create(apps, schema_editor):
    Universe = apps.get_model("leaderboards", "Universe")
    Universe.objects.get_or_create(slug="main", defaults={"name": "Public Universe"})


class Migration(migrations.Migration):
    dependencies = [("leaderboards", "0001_ratings_tournaments")]

    operations = [migrations.RunPython(create, migrations.RunPython.noop)]
