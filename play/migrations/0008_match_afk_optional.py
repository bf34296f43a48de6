"""The AFK timer becomes optional (seed 000: with no time control a player may take as
long as they want). Matches made before kept theirs: existing rows get True; a new
match says whether it has one (``create.afk_default``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("play", "0007_tournament_games_keep_their_position_seed")]

    operations = [
        migrations.AddField(
            model_name="match", name="afk_on", field=models.BooleanField(default=True)
        ),
        migrations.AlterField(
            model_name="match", name="afk_on", field=models.BooleanField(default=False)
        ),
    ]
