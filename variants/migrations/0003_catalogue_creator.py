"""Rule sets saved before games had creators belong to the "foundry" system Admin."""

from django.db import migrations


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    RuleSet = apps.get_model("variants", "RuleSet")
    orphans = RuleSet.objects.filter(creator__isnull=True)
    if orphans.exists():
        orphans.update(creator=User.objects.get(username="foundry"))


class Migration(migrations.Migration):
    dependencies = [
        ("variants", "0002_creator_hidden_removed"),
        ("accounts", "0003_random_player_and_system_user"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
