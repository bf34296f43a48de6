"""Crews: several people sharing a team of a nested-board game (seed 000, "In-Crew Order").

In turn: team X = [A], team O = [B, C] moves A, B, A, C, A, B, ... Flexible: any member
of the team moves, first come first served."""

from __future__ import annotations

import pytest

from accounts.personas import create_persona
from leaderboards.models import RatingHistory
from play import services
from play.errors import MatchError
from play.models import CrewMember, Match
from play.services import SeatChoice, create_match
from tests.play_helpers import bot, human, rule_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def ultimate(db):
    return rule_set("Ultimate-Tic-Tac-Toe")


@pytest.fixture
def flexible(db):
    return rule_set("Flexible-Crews", board={"type": "nested"}, nested={"crew_order": "flexible"})


@pytest.fixture
def abc(make_user):
    return make_user("ann"), make_user("bob"), make_user("cat")


def crew_match(rule, a, b, c) -> Match:
    """A (creator) against B with C in B's crew; everyone accepts."""
    choices = [SeatChoice("player", human(a)), SeatChoice("player", human(b), (human(c),))]
    match = create_match(rule, choices, a, seed=3)
    services.answer_invitation(match.pk, b, accept=True)
    services.answer_invitation(match.pk, c, accept=True)
    match.refresh_from_db()
    assert match.status == "active"
    return match


def any_move(match, seat: int) -> str:
    from play.replay import current_state

    match.refresh_from_db()
    state = current_state(match)
    return str(state.legal_moves(seat)[0])


def refused(match, user) -> str:
    with pytest.raises(MatchError) as err:
        services.play(match.pk, user, any_move(match, 1))
    return err.value.code + ": " + err.value.reason


def test_in_turn_crew_rotates_as_the_seed_says(ultimate, abc):
    a, b, c = abc
    match = crew_match(ultimate, a, b, c)
    order = []
    for expected in [a, b, a, c, a, b, a, c]:
        seat = 0 if expected == a else 1
        if seat == 1:  # the crewmate whose turn it is not is refused, and nothing changes
            other = c if expected == b else b
            ply = Match.objects.get(pk=match.pk).ply
            assert refused(match, other) == (
                f"not-your-turn: It is {expected.username}'s turn in your crew."
            )
            assert Match.objects.get(pk=match.pk).ply == ply
        services.play(match.pk, expected, any_move(match, seat))
        order.append(expected.username)
    assert order == ["ann", "bob", "ann", "cat", "ann", "bob", "ann", "cat"]


def test_flexible_crew_lets_either_member_move(flexible, abc):
    a, b, c = abc
    match = crew_match(flexible, a, b, c)
    services.play(match.pk, a, any_move(match, 0))
    services.play(match.pk, c, any_move(match, 1))  # C first, though B leads the crew
    services.play(match.pk, a, any_move(match, 0))
    services.play(match.pk, c, any_move(match, 1))  # and again: no rotation
    services.play(match.pk, a, any_move(match, 0))
    move = any_move(match, 1)
    services.play(match.pk, b, move)
    # The slower crewmate's move arrives after the team's turn is over.
    with pytest.raises(MatchError) as err:
        services.play(match.pk, c, move)
    assert err.value.code == "not-your-turn"
    assert Match.objects.get(pk=match.pk).ply == 6


def test_the_state_event_names_the_crew_and_who_is_due(ultimate, abc):
    a, b, c = abc
    match = crew_match(ultimate, a, b, c)
    services.play(match.pk, a, any_move(match, 0))
    for_b = services.snapshot(match.pk, b)
    for_c = services.snapshot(match.pk, c)
    assert for_b["you"] == [1] and for_c["you"] == [1]  # both play the seat
    assert for_b["blocked"] == [] and for_c["blocked"] == [1]  # B's turn in the crew
    seat = for_c["seats"][1]
    assert [m["name"] for m in seat["crew"]] == ["cat"]
    assert seat["crewDue"] == 0 and seat["crewOrder"] == "in-turn"
    services.play(match.pk, b, any_move(match, 1))
    services.play(match.pk, a, any_move(match, 0))
    assert services.snapshot(match.pk, c)["blocked"] == []
    assert services.snapshot(match.pk, b)["blocked"] == [1]
    assert services.snapshot(match.pk, c)["seats"][1]["crewDue"] == 1
    spectator = services.snapshot(match.pk, None, [])
    assert "blocked" not in spectator and spectator["seats"][1]["crew"][0]["name"] == "cat"


def test_crew_invitations_wait_for_every_member(ultimate, abc):
    a, b, c = abc
    choices = [SeatChoice("player", human(a)), SeatChoice("player", human(b), (human(c),))]
    match = create_match(ultimate, choices, a, seed=1)
    assert [m.pk for m in services.invitations_for(c)] == [match.pk]
    services.answer_invitation(match.pk, b, accept=True)
    assert Match.objects.get(pk=match.pk).status == "invited"  # C has not answered
    assert services.pending_invitation(match, c)
    services.answer_invitation(match.pk, c, accept=False)
    match.refresh_from_db()
    assert match.status == "aborted" and "cat declined" in match.outcome["reason"]
    assert CrewMember.objects.get(player=human(c)).invitation == "declined"


def test_a_persona_in_ones_own_crew_needs_no_invitation(ultimate, abc):
    a, b, _ = abc
    alter = create_persona(a, "Alter")
    choices = [SeatChoice("player", human(a), (alter,)), SeatChoice("player", bot())]
    match = create_match(ultimate, choices, a, seed=1)
    assert match.status == "active"
    # A moves first; the second team turn of seat 0 is Alter's, which A also controls.
    assert services.snapshot(match.pk, a)["blocked"] == []


@pytest.mark.parametrize(
    "case, message",
    [
        ("flat", "crews are for nested-board games only"),
        ("bot-seat", "only a seat played by a person can have a crew"),
        ("bot-member", "Easy is not a person"),
        ("twice", "is on it twice"),
        ("leader-again", "is on it twice"),
        ("too-many", "at most 8 people share a team"),
    ],
)
def test_bad_crews_are_refused_and_nothing_is_saved(ultimate, abc, make_user, case, message):
    a, b, c = abc
    rule, first = ultimate, SeatChoice("player", human(a))
    second = SeatChoice("player", human(b), (human(c),))
    if case == "flat":
        rule = rule_set("Tic-Tac-Toe")
    elif case == "bot-seat":
        second = SeatChoice("player", bot(), (human(c),))
    elif case == "bot-member":
        second = SeatChoice("player", human(b), (bot(),))
    elif case == "twice":
        second = SeatChoice("player", human(b), (human(c), human(c)))
    elif case == "leader-again":
        second = SeatChoice("player", human(b), (human(b),))
    else:
        many = tuple(human(make_user(f"extra{k}")) for k in range(8))
        second = SeatChoice("player", human(b), many)
    before = Match.objects.count()
    with pytest.raises(MatchError) as err:
        create_match(rule, [first, second], a, seed=1)
    assert message in err.value.reason
    assert Match.objects.count() == before and not CrewMember.objects.exists()


def test_a_crew_is_rated_as_one_team(ultimate, abc, django_capture_on_commit_callbacks):
    a, b, c = abc
    match = crew_match(ultimate, a, b, c)
    with django_capture_on_commit_callbacks(execute=True):  # rating runs on commit
        services.resign(match.pk, a)
    match.refresh_from_db()
    assert match.status == "finished"
    rows = {h.player.user.username: h for h in RatingHistory.objects.select_related("player__user")}
    assert set(rows) == {"ann", "bob", "cat"}
    assert rows["bob"].ordinal_after > rows["bob"].ordinal_before
    assert rows["cat"].ordinal_after > rows["cat"].ordinal_before
    assert rows["ann"].ordinal_after < rows["ann"].ordinal_before


def test_a_crew_member_sees_the_match_in_their_list(client, ultimate, abc):
    a, b, c = abc
    match = crew_match(ultimate, a, b, c)
    client.force_login(c)
    page = client.get("/matches/")
    assert page.status_code == 200
    assert f'href="/matches/{match.pk}/"' in page.content.decode()


def test_the_start_form_takes_a_crew_by_username_and_persona(client, ultimate, abc):
    a, b, c = abc
    create_persona(a, "Alter")
    client.force_login(a)
    form = {"game": ultimate.pk, "seat_1": "me", "crew_1": "Alter, cat", "seat_2": "invite"}
    form |= {"invite_2": "bob", "afk_timeout": 60, "afk_warning": 20}
    response = client.post("/play/", form)
    assert response.status_code == 302
    match = Match.objects.get()
    crew = CrewMember.objects.filter(seat__match=match).order_by("order")
    assert [(m.player.display_name, m.invitation) for m in crew] == [
        ("Alter", "accepted"),
        ("cat", "pending"),
    ]


@pytest.mark.parametrize(
    "game, crew, message",
    [
        (
            "Ultimate-Tic-Tac-Toe",
            "nobody",
            "Player 1&#x27;s crew: there is no user &#x27;nobody&#x27;",
        ),
        ("Tic-Tac-Toe", "cat", "Player 1: crews are for nested-board games only."),
    ],
)
def test_the_start_form_says_what_is_wrong_with_a_crew(client, abc, game, crew, message):
    a, _, _ = abc
    client.force_login(a)
    form = {"game": rule_set(game).pk, "seat_1": "me", "crew_1": crew, "seat_2": "invite"}
    form |= {"invite_2": "bob", "afk_timeout": 60, "afk_warning": 20}
    response = client.post("/play/", form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_a_crew_members_stats_count_the_match(ultimate, abc, make_user):
    from leaderboards.stats import player_stats
    from variants.models import RuleSet

    a, b, c = abc
    d = make_user("dan")
    crew = (human(c), human(d))  # two members: the crew join repeats B's seat twice
    choices = [SeatChoice("player", human(a)), SeatChoice("player", human(b), crew)]
    match = create_match(ultimate, choices, a, seed=1)
    for person in (b, c, d):
        services.answer_invitation(match.pk, person, accept=True)
    services.resign(match.pk, a)
    games = RuleSet.objects.all()
    for person, won in [(a, 0.0), (b, 1.0), (c, 1.0), (d, 1.0)]:
        rows = player_stats(human(person), games)
        assert [(r.matches, r.won) for r in rows] == [(1, won)], person.username
