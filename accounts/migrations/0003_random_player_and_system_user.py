"""The one Random player, the "foundry" system Admin (owner of the catalogue games) and a
human player for every user that existed before players did."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

SYSTEM_USERNAME = "foundry"  # accounts.services.SYSTEM_USERNAME, frozen here


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Player = apps.get_model("accounts", "Player")
    Player.objects.get_or_create(kind="random", defaults={"name": "Random"})
    User.objects.get_or_create(
        username=SYSTEM_USERNAME,
        defaults={"role": "admin", "password": make_password(None)},  # no login possible
    )
    # Historical models send no post_save to accounts.signals: make the players here.
    for user in User.objects.filter(player__isnull=True):
        Player.objects.create(kind="human", user=user)


def backwards(apps, schema_editor):
    apps.get_model("accounts", "Player").objects.filter(kind="random").delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_role_and_player")]

    operations = [migrations.RunPython(forwards, backwards)]
