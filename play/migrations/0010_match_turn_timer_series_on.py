"""A match may switch the game's turn timer off and play one game instead of a series
(issue 38: a person's first games against a bot are gentle). Existing rows keep both."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("play", "0009_packed_move_logs")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="turn_timer",
            field=models.BooleanField(default=True, db_default=True),
        ),
        migrations.AddField(
            model_name="match",
            name="series_on",
            field=models.BooleanField(default=True, db_default=True),
        ),
    ]
