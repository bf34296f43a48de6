"""The turn's player has no index of its own: the (player, status) index serves every
lookup by player. Only the index is dropped (Django's AlterField would also drop and
re-add the foreign key, checking every row of a big table again)."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "ownbots_botturn_player_id_ef2c6fb4"  # Django's name for the field's index


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_player_kind_ai"),
        ("ownbots", "0003_turn_views_as_json_text"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="botturn",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="accounts.player",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    f"CREATE INDEX {INDEX} ON ownbots_botturn (player_id)",
                ),
            ],
        ),
    ]
