"""Issue 38: a person's first games against a bot are gentle (no turn timer, one game
rather than a series) unless they chose otherwise; later games keep the game's."""

from __future__ import annotations

import pytest

from play.models import Match

pytestmark = pytest.mark.django_db


def play_new(client, rules, **extra) -> Match:
    from accounts.services import standard_bots

    medium = next(p for p in standard_bots() if p.name == "Medium bot")
    data = {"game": rules.pk, "seat_1": "me", "seat_2": f"player:{medium.pk}"}
    data.update({"afk_timeout": 60, "afk_warning": 20, **extra})
    response = client.post("/play/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Match.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def test_a_first_ultimate_game_against_a_bot_has_no_clock_and_no_series(client, creator):
    from play.clock import turn_seconds
    from tests.play_helpers import rule_set

    client.force_login(creator)
    match = play_new(client, rule_set("Ultimate-Tic-Tac-Toe"))
    assert (match.turn_timer, match.series_on) == (False, False)
    assert turn_seconds(match) is None and match.turn_deadline is None
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="match-untimed"' in page


def test_an_explicit_choice_is_kept_in_a_first_game(client, creator):
    from play.clock import turn_seconds
    from tests.play_helpers import rule_set

    client.force_login(creator)
    match = play_new(client, rule_set("Ultimate-Tic-Tac-Toe"), turn_timer="on", series="on")
    assert (match.turn_timer, match.series_on) == (True, True)
    assert turn_seconds(match) == 15 and match.turn_deadline is not None


def test_after_the_first_games_the_game_s_clock_and_series_come_back(client, creator):
    from play.create import FIRST_GAMES
    from tests.play_helpers import rule_set

    client.force_login(creator)
    ultimate = rule_set("Ultimate-Tic-Tac-Toe")
    gentle = [play_new(client, ultimate) for _ in range(FIRST_GAMES)]
    assert all(not m.turn_timer and not m.series_on for m in gentle)
    later = play_new(client, ultimate)
    assert (later.turn_timer, later.series_on) == (True, True)
    off = play_new(client, ultimate, turn_timer="off", series="off")  # still a choice
    assert (off.turn_timer, off.series_on) == (False, False)


def test_a_game_against_a_person_keeps_the_game_s_clock(client, creator, make_user):
    from tests.play_helpers import rule_set

    make_user("olga")
    client.force_login(creator)
    data = {"game": rule_set("Ultimate-Tic-Tac-Toe").pk, "seat_1": "me", "seat_2": "invite"}
    data.update({"invite_2": "olga", "afk_timeout": 60, "afk_warning": 20})
    response = client.post("/play/", data)
    assert response.status_code == 302
    match = Match.objects.latest("pk")
    assert (match.turn_timer, match.series_on) == (True, True)


def test_a_one_game_match_offers_no_next_game():
    from django.contrib.auth import get_user_model

    from play.intermission import series_allowed
    from play.seating import load
    from tests.play_helpers import rule_set, start

    users = get_user_model()
    a, b = users.objects.create_user("ann"), users.objects.create_user("ben")
    ultimate = rule_set("Ultimate-Tic-Tac-Toe")
    series = start(ultimate, a, a, b)
    single = start(ultimate, a, a, b, series=False)
    assert series_allowed(series, load(series))
    assert not series_allowed(single, load(single))


@pytest.mark.parametrize("value", ["maybe", "x" * 5000])
def test_the_start_form_refuses_an_unknown_choice(client, creator, value):
    from tests.play_helpers import rule_set

    client.force_login(creator)
    data = {"game": rule_set("Ultimate-Tic-Tac-Toe").pk, "seat_1": "me", "seat_2": "open"}
    response = client.post("/play/", {**data, "turn_timer": value, "afk_timeout": 60})
    assert response.status_code == 400
