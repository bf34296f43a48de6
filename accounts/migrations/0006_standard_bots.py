"""The standard bots, there from the first ``migrate``: Easy, Medium and Hard (the levels
of the tic-tac-toe server seed) and an MCTS bot, owned by the system Admin "foundry".
Anyone may seat them; they appear on every leaderboard as AI. Admins may add others."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

SYSTEM_USERNAME = "foundry"  # accounts.services.SYSTEM_USERNAME, frozen here
# accounts.services.STANDARD_BOTS, frozen here
STANDARD_BOTS = (
    ("Easy bot", {"kind": "easy"}),
    ("Medium bot", {"kind": "medium"}),
    ("Hard bot", {"kind": "hard"}),
    ("MCTS bot", {"kind": "mcts", "simulations": 1000}),
)


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Player = apps.get_model("accounts", "Player")
    owner, _ = User.objects.get_or_create(
        username=SYSTEM_USERNAME,
        defaults={"role": "admin", "password": make_password(None)},
    )
    for name, spec in STANDARD_BOTS:
        Player.objects.get_or_create(
            kind="bot", owner=owner, name=name, defaults={"bot_spec": spec}
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_friend_requests")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
