"""The start form: a game and a player for every seat (Chaos seats fill themselves)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.models import Player
from accounts.services import human_player, random_player
from gamecore.rules.vocabulary import PLAYER_SEATS
from leaderboards.services import universes_for
from variants.services import featured_first, visible_rule_sets

from .create import SeatChoice
from .crews import MAX_CREW, crew_order
from .replay import game_of_rule_set

MAX_SEATS = 4
ME, OPEN, INVITE = "me", "open", "invite"


def seat_options(user) -> list[tuple[str, str]]:
    """What a seat can hold for this user: themselves, the standard bots (first: a bot
    answers at once), Random, matchmaking, an invited person, the user's friends and
    personas, then the other bots."""
    from accounts.services import friend_user_ids, standard_bots

    standard = standard_bots()
    options = [(ME, "Me")]
    options += [(f"player:{p.pk}", f"{p.name} (AI)") for p in standard]
    options.append((f"player:{random_player().pk}", "Random (plays any legal move)"))
    options += [(OPEN, "Next available human"), (INVITE, "Invite a person…")]
    friend_ids = friend_user_ids(user)
    friends = Player.objects.filter(kind=Player.Kind.HUMAN, user_id__in=friend_ids).select_related(
        "user"
    )
    friends = sorted(friends, key=lambda p: p.user.username.lower())
    options += [(f"player:{p.pk}", f"{p.user.username} (friend)") for p in friends]
    personas = Player.objects.filter(kind=Player.Kind.PERSONA, owner=user).order_by("name")
    options += [(f"player:{p.pk}", f"{p.name} (my persona)") for p in personas]
    # Friends' personas: invited, their owners accept (the leaderboard's Play New Game).
    theirs = Player.objects.filter(kind=Player.Kind.PERSONA, owner_id__in=friend_ids).order_by(
        "name"
    )
    options += [(f"player:{p.pk}", f"{p.name} (a friend's persona)") for p in theirs]
    bots = (
        Player.objects.filter(kind=Player.Kind.BOT)
        .exclude(pk__in=[p.pk for p in standard])
        .order_by("name")
    )
    options += [(f"player:{p.pk}", f"{p.name} (bot)") for p in bots]
    from aiplayers.curriculum import studying_ids

    ais = Player.objects.filter(kind=Player.Kind.AI, ai__isnull=False).order_by("name")
    busy = studying_ids()
    options += [
        (f"player:{p.pk}", f"{p.name} (AI{', still studying' if p.pk in busy else ''})")
        for p in ais
    ]
    from ownbots.connections import connected_ids

    # Own bots (issue 26) play on their owners' machines: the user's own, and those their
    # owners opened to challenges (ownbots.keys.may_seat).
    seatable = Q(bot_key__open_to_challenges=True)
    if getattr(user, "is_authenticated", False):
        seatable |= Q(owner_id=user.pk)
    own = Player.objects.filter(seatable, kind=Player.Kind.OWN_BOT).order_by("name")
    online = connected_ids()
    options += [
        (f"player:{p.pk}", f"{p.name} (own bot{'' if p.pk in online else ', not connected'})")
        for p in own
    ]
    return options


def default_opponents() -> list[str]:
    """The start form's choices for seats 2, 3 and 4: bots, so that Play on an empty site
    starts a game at once (matchmaking stays one choice away). Seat 2 gets the Medium bot;
    in 3- and 4-player games the next seats get other bots, to tell them apart."""
    from accounts.services import DEFAULT_OPPONENT, standard_bots

    bots = {p.name: p for p in standard_bots()}
    names = [DEFAULT_OPPONENT, "Easy bot", "Hard bot"]
    return [f"player:{bots[name].pk}" for name in names]


# Seats a person or bot takes, by the rule document's player mode (Chaos fills itself).
SEATS = PLAYER_SEATS  # every player mode (rules/vocabulary.py)


def seats_needed(document: dict) -> int:
    return SEATS.get(document.get("players", "2"), 2)


class SeatField(forms.ChoiceField):
    """A seat's choice: the listed options, or any own bot (``player:<id>``), so that one
    the user may not seat gets its reason (``StartForm._choice``) rather than "not one of
    the available choices"."""

    def valid_value(self, value) -> bool:
        if super().valid_value(value):
            return True
        kind, _, number = str(value).partition(":")
        return (
            kind == "player"
            and number.isdigit()
            and len(number) <= 18
            and Player.objects.filter(pk=int(number), kind=Player.Kind.OWN_BOT).exists()
        )


class StartForm(forms.Form):
    game = forms.ModelChoiceField(queryset=None, empty_label="Choose a game")
    afk = forms.BooleanField(
        label="AFK timer",
        required=False,
        help_text="Forfeit a player who does nothing for the AFK timeout. Off: with no time "
        "control players may take as long as they want; with one, the turn timer's "
        "consequence comes first (the AFK timeout is never shorter than the turn time).",
    )
    afk_timeout = forms.IntegerField(
        label="AFK timeout (s)", min_value=10, max_value=3600, initial=60
    )
    afk_warning = forms.IntegerField(label="Warning (s)", min_value=1, max_value=3599, initial=20)
    # Blank: the usual, which is gentle in a person's first games against a bot (issue 38).
    turn_timer = forms.ChoiceField(
        label="Turn timer",
        required=False,
        choices=[
            ("", "Usual: the game's, but none in your first games against a bot"),
            ("on", "On: the game's time a turn"),
            ("off", "Off: take as long as you like"),
        ],
    )
    series = forms.ChoiceField(
        label="After the game",
        required=False,
        choices=[
            ("", "Usual: a series with people, one game in your first games against a bot"),
            ("on", "A series: another game once all say Ready"),
            ("off", "One game"),
        ],
        help_text="Series are for the nested-board games (Ultimate and its kin).",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["game"].queryset = featured_first(visible_rule_sets(user))
        if not self.initial.get("game"):  # one click plays: the best-known game is chosen
            first = self.fields["game"].queryset.only("pk").first()
            self.initial["game"] = first.pk if first else None
        options = seat_options(user)
        opponents = default_opponents()
        for n in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{n}"] = SeatField(
                label=f"Player {n}",
                choices=options,
                initial=ME if n == 1 else opponents[n - 2],
                required=False,  # only the game's seats are needed (checked in clean)
            )
            self.fields[f"invite_{n}"] = forms.CharField(
                label=f"Player {n}'s username", required=False, max_length=150
            )
            self.fields[f"crew_{n}"] = forms.CharField(
                label=f"Also on Player {n}'s team",
                required=False,
                max_length=600,
                help_text="Usernames or your personas' names, separated by commas.",
            )

        # A universe other than the public one, where the user has a persona.
        self.universes = {u.slug: u for u in universes_for(user)[1:]}
        if self.universes:
            public = [("", "Public Universe")]
            self.fields["universe"] = forms.ChoiceField(
                label="Universe",
                choices=public + [(slug, u.name) for slug, u in self.universes.items()],
                required=False,
                help_text="Where the match is rated.",
            )

    def seat_count(self, rule_set) -> tuple[int, int | None]:
        game = game_of_rule_set(rule_set)
        return game.nseats - (game.chaos is not None), game.chaos

    def clean(self):
        data = super().clean()
        rule_set = data.get("game")
        if rule_set is None or self.errors:
            return data
        needed, _chaos = self.seat_count(rule_set)
        crews = crew_order(rule_set.document) is not None
        data["choices"] = [self._with_crew(n, data, crews) for n in range(1, needed + 1)]
        data["universe"] = self.universes.get(data.get("universe") or "")
        if data["universe"] is not None and any(
            c is not None and c.kind == "open" for c in data["choices"]
        ):
            self.add_error("universe", "Next available human plays in the Public Universe only.")
        if data["afk_warning"] >= data["afk_timeout"]:
            self.add_error("afk_warning", "The warning must come before the timeout.")
        return data

    def _with_crew(self, n: int, data, crews: bool) -> SeatChoice | None:
        """The seat's choice with the people named in its crew box."""
        choice = self._choice(n, data)
        names = [x.strip() for x in (data.get(f"crew_{n}") or "").split(",") if x.strip()]
        if choice is None or not names:
            return choice
        field = f"crew_{n}"
        if not crews:
            self.add_error(field, f"Player {n}: crews are for nested-board games only.")
        elif choice.player is None or choice.player.kind not in (
            Player.Kind.HUMAN,
            Player.Kind.PERSONA,
        ):
            self.add_error(field, f"Player {n}: only a seat played by a person can have a crew.")
        elif len(names) + 1 > MAX_CREW:
            self.add_error(field, f"Player {n}: at most {MAX_CREW} people share a team.")
        else:
            crew = [self._person(name) for name in names]
            missing = [name for name, player in zip(names, crew, strict=True) if player is None]
            if missing:
                self.add_error(field, f"Player {n}'s crew: there is no user {missing[0]!r}.")
            else:
                return SeatChoice(choice.kind, choice.player, tuple(crew))
        return None

    def _person(self, name: str) -> Player | None:
        """A username, or the name of one of the user's personas."""
        person = get_user_model().objects.filter(username__iexact=name).first()
        if person is not None and hasattr(person, "player"):
            return person.player
        return Player.objects.filter(
            kind=Player.Kind.PERSONA, owner=self.user, name__iexact=name
        ).first()

    def _choice(self, n: int, data) -> SeatChoice | None:
        value = data.get(f"seat_{n}")
        if not value:
            self.add_error(f"seat_{n}", f"Player {n}: choose who plays this seat.")
            return None
        if value == ME:
            return SeatChoice("player", human_player(self.user))
        if value == OPEN:
            return SeatChoice("open")
        if value == INVITE:
            name = (data.get(f"invite_{n}") or "").strip()[:150]  # a username's longest
            person = get_user_model().objects.filter(username__iexact=name).first()
            if not name or person is None or not hasattr(person, "player"):
                self.add_error(f"invite_{n}", f"Player {n}: there is no user {name!r}.")
                return None
            if person == self.user:
                return SeatChoice("player", human_player(self.user))
            return SeatChoice("player", person.player)
        player = Player.objects.filter(pk=int(value.split(":", 1)[1])).first()
        if player is None:  # gone since the form was checked
            self.add_error(f"seat_{n}", f"Player {n}: that player no longer exists.")
            return None
        from ownbots.keys import may_seat, seat_refusal

        if not may_seat(self.user, player):
            self.add_error(f"seat_{n}", f"Player {n}: {seat_refusal(player)}")
            return None
        if player.kind == Player.Kind.AI:
            from aiplayers.curriculum import is_studying

            if is_studying(player):  # an AI completes its curriculum before it plays
                self.add_error(
                    f"seat_{n}",
                    f"Player {n}: {player.name} is still studying its curriculum; "
                    "choose it again when it has finished.",
                )
                return None
        return SeatChoice("player", player)
