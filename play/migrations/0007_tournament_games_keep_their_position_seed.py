"""Tournament games written before ``tournament_games.position_seed`` kept the game's
seed, not the one its position was set up from: where the set-up is random (nested
random obstacles or scouts) their logs did not replay on the replay page or offline.
The seed they were set up from is the first draw from the stored one."""

import random

from django.db import migrations


def random_set_up(document: dict) -> bool:
    nested = document.get("nested") or {}
    return bool(nested.get("random_obstacles") or nested.get("scouts"))


def forward(apps, schema_editor):
    RuleSet = apps.get_model("variants", "RuleSet")
    Match = apps.get_model("play", "Match")
    ids = [pk for pk, doc in RuleSet.objects.values_list("id", "document") if random_set_up(doc)]
    found = Match.objects.filter(tournament__isnull=False, rule_set_id__in=ids).only("seed")
    for match in found.iterator():
        match.seed = random.Random(match.seed).randrange(2**32)
        match.save(update_fields=["seed"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0006_redundant_indexes_go"),
        ("variants", "0001_initial"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
