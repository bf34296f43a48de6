"""Recorded games keep their move log packed in the match's row (play.move_log): the
columns, then the finished tournament games' Move rows packed (and the rows gone).
Reversible: the way back writes the rows again from the packed text."""

import json

from django.db import migrations, models

BATCH = 500
MOVE = "move"


def _entry(seat, kind, notation, think_ms):
    return [seat, notation, think_ms] if kind == MOVE else [seat, notation, think_ms, kind]


def pack_tournament_logs(apps, schema_editor):
    Match = apps.get_model("play", "Match")
    Move = apps.get_model("play", "Move")
    Seat = apps.get_model("play", "Seat")
    found = Match.objects.filter(
        tournament__isnull=False, status="finished", move_log__isnull=True
    ).order_by("pk")
    ids = list(found.values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        logs: dict[int, list] = {pk: [] for pk in chunk}
        for match_id, seat, kind, notation, think_ms in (
            Move.objects.filter(match_id__in=chunk)
            .order_by("match_id", "ply")
            .values_list("match_id", "seat", "kind", "notation", "think_ms")
        ):
            logs[match_id].append(_entry(seat, kind, notation, think_ms))
        for pk, entries in logs.items():
            Match.objects.filter(pk=pk).update(move_log=json.dumps(entries, separators=(",", ":")))
            totals: dict[int, list[int]] = {}
            for entry in entries:
                if len(entry) == 3:
                    t = totals.setdefault(entry[0], [0, 0])
                    t[0] += 1
                    t[1] += entry[2]
            for seat in Seat.objects.filter(match_id=pk):
                made, ms = totals.get(seat.index, (0, 0))
                seat.moves_made, seat.think_total_ms = made, ms
                seat.save(update_fields=["moves_made", "think_total_ms"])
        Move.objects.filter(match_id__in=chunk).delete()


def unpack_logs(apps, schema_editor):
    Match = apps.get_model("play", "Match")
    Move = apps.get_model("play", "Move")
    for match in Match.objects.filter(move_log__isnull=False).iterator(chunk_size=BATCH):
        when = match.finished or match.created
        Move.objects.bulk_create(
            Move(
                match_id=match.pk,
                ply=ply,
                seat=e[0],
                notation=e[1],
                think_ms=e[2],
                kind=e[3] if len(e) > 3 else MOVE,
                auto=True,
                created=when,
            )  # fmt: skip
            for ply, e in enumerate(json.loads(match.move_log), 1)
        )
        Match.objects.filter(pk=match.pk).update(move_log=None)


class Migration(migrations.Migration):
    dependencies = [("play", "0008_match_afk_optional")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="move_log",
            field=models.TextField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="moves_made",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="think_total_ms",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(pack_tournament_logs, unpack_logs, elidable=True),
    ]
