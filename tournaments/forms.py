"""The tournament factory's form: a game, a universe and sets of games (players + count)."""

from __future__ import annotations

from django import forms

from accounts.models import Player
from variants.services import visible_rule_sets

MAX_SETS = 8
MAX_SEATS = 4


class PlanForm(forms.Form):
    name = forms.CharField(max_length=100, label="Tournament name")
    game = forms.ModelChoiceField(queryset=None, empty_label="Choose a game")
    universe = forms.ChoiceField(choices=())

    def __init__(self, *args, user, **kwargs):
        from leaderboards.services import universes_for

        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["game"].queryset = visible_rule_sets(user).order_by("name")
        self.universes = {u.slug: u for u in universes_for(user)}
        self.fields["universe"].choices = [(u.slug, u.name) for u in self.universes.values()]
        bots = Player.objects.filter(
            kind__in=[Player.Kind.RANDOM, Player.Kind.BOT, Player.Kind.OWN_BOT, Player.Kind.AI]
        ).order_by("kind", "name")
        choices = [("", "—")] + [(str(p.pk), p.display_name) for p in bots]
        for n in range(1, MAX_SETS + 1):
            self.fields[f"set{n}_games"] = forms.IntegerField(
                label=f"Set {n}: games", min_value=0, max_value=1000, required=False,
                initial=100 if n == 1 else None,
            )  # fmt: skip
            for seat in range(1, MAX_SEATS + 1):
                self.fields[f"set{n}_seat{seat}"] = forms.ChoiceField(
                    label=f"Set {n}, seat {seat}", choices=choices, required=False
                )

    def set_rows(self) -> list[dict]:
        return [
            {
                "n": n,
                "games": self[f"set{n}_games"],
                "seats": [self[f"set{n}_seat{s}"] for s in range(1, MAX_SEATS + 1)],
            }
            for n in range(1, MAX_SETS + 1)
        ]

    def clean(self):
        from tournaments.plans import seats_per_game

        data = super().clean()
        rule_set = data.get("game")
        if rule_set is None or self.errors:
            return data
        k = seats_per_game(rule_set)
        sets = []
        for n in range(1, MAX_SETS + 1):
            players = [data.get(f"set{n}_seat{s}") for s in range(1, MAX_SEATS + 1)]
            players = [int(p) for p in players if p]
            games = data.get(f"set{n}_games") or 0
            if not players and not games:
                continue
            if len(players) != k or not games:
                self.add_error(
                    f"set{n}_games",
                    f"Set {n}: choose {k} players and a number of games for {rule_set.name}.",
                )
            sets.append((players, games))
        if not sets and not self.errors:
            self.add_error(None, "Fill in at least one set: its players and how many games.")
        data["sets"] = sets
        return data

    def plan(self):
        from tournaments.plans import Plan

        data = self.cleaned_data
        return Plan(data["game"], self.universes[data["universe"]], data["name"], data["sets"])
