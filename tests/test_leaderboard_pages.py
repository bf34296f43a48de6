"""The leaderboard, evolution, stats and tournaments-tab pages over HTTP."""

from __future__ import annotations

import json
import re

import pytest

from accounts.models import Player
from accounts.services import STANDARD_BOTS, random_player, send_friend_request
from leaderboards.models import Rating, StandardPlayer, Universe
from leaderboards.services import default_universe, leaderboard
from tests.leaderboard_helpers import finish
from tests.play_helpers import bot, rule_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt(db):
    return rule_set("Tic-Tac-Toe")


def ladder(rules, n: int, *, loser=None) -> list[Player]:
    """n bots; bot i beats bot j (i < j) once each: bot 0 ends on top."""
    bots = [bot(f"Bot{i:02d}") for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            finish(rules, [bots[i], bots[j]], ["win", "loss"])
    if loser is not None:
        finish(rules, [bots[0], loser], ["win", "loss"])
    return bots


def names(board) -> list[str]:
    return [row.player.display_name for row in board.rows]


def test_board_sorted_by_rating_plus_burst_top_ten_ranked(ttt, creator):
    bots = ladder(ttt, 12)
    board = leaderboard(ttt, default_universe(), creator)
    scores = [row.score for row in board.rows]
    assert scores == sorted(scores, reverse=True)
    assert len(board.rows) <= 10 and board.total == 12
    assert board.rows[0].player == bots[0] and board.rows[0].rank == 1
    assert "Random" in names(board)  # always, even unrated
    ranked = [row.rank for row in board.rows if row.rank]
    assert ranked == list(range(1, len(ranked) + 1))
    assert all(row.rank is None or row.rank <= 10 for row in board.rows)


def test_the_user_random_and_the_standard_player_are_always_shown(ttt, creator):
    bots = ladder(ttt, 14)
    me = creator.player
    finish(ttt, [me, bots[0]], ["loss", "win"])  # the user played: shown, low down
    StandardPlayer.objects.create(rule_set=ttt, player=bots[13])
    board = leaderboard(ttt, default_universe(), creator)
    shown = {row.player for row in board.rows}
    assert {me, random_player(), bots[13]} <= shown and len(board.rows) == 10
    sp = next(row for row in board.rows if row.player == bots[13])
    assert sp.is_standard and sp.rank is None and sp.gap_before
    mine = next(row for row in board.rows if row.player == me)
    assert mine.is_user


def test_user_who_never_played_is_not_shown(ttt, creator):
    ladder(ttt, 3)
    assert creator.player not in [
        row.player for row in leaderboard(ttt, default_universe(), creator).rows
    ]


STANDARD_NAMES = [name for name, _spec, _blurb in STANDARD_BOTS]


def test_random_and_the_standard_bots_appear_in_every_universe(ttt, creator):
    lab = Universe.objects.create(slug="lab", name="Lab")
    board = leaderboard(ttt, lab, creator)
    assert names(board) == ["Random", *STANDARD_NAMES]
    assert all(row.rating is None and row.action == "play" and row.checkbox for row in board.rows)
    # Nobody is rated: no ranks, and ties (everyone at 0) are no gap.
    assert not any(row.rank or row.gap_before for row in board.rows)


def test_the_standard_bots_give_way_to_the_top_ten(ttt, creator):
    ladder(ttt, 12)
    board = leaderboard(ttt, default_universe(), creator)
    assert not set(STANDARD_NAMES) & set(names(board))  # ten rows: Random and nine ranked


def test_row_actions_follow_the_visibility_rules(ttt, creator, other_creator, make_user):
    stranger = make_user("stan")
    persona = Player.objects.create(kind="persona", name="Alter", owner=creator)
    others = Player.objects.create(kind="persona", name="Other", owner=stranger)
    b = bot("Bot")
    send_friend_request(creator, other_creator)
    send_friend_request(other_creator, creator)  # accepts
    for p in (persona, others, other_creator.player, stranger.player, creator.player):
        finish(ttt, [p, b], ["win", "loss"])
    board = leaderboard(ttt, default_universe(), creator)
    action = {row.player.display_name: row.action for row in board.rows}
    assert action["Bot"] == action["Random"] == "play"
    assert action["otto"] == "play"  # a friend
    assert action["stan"] == "friend" and action["Other"] == "friend"  # not friends
    assert action["Alter"] == "play" and action["carla"] == "play"  # own persona, self
    checkable = {row.player.display_name for row in board.rows if row.checkbox}
    shown_standard = set(STANDARD_NAMES) & set(names(board))  # the rows left: 3 of 4
    assert len(board.rows) == 10 and len(shown_standard) == 3
    assert checkable == {"Bot", "Random"} | shown_standard
    anonymous = leaderboard(ttt, default_universe(), None)
    assert {r.player.display_name: r.action for r in anonymous.rows}["otto"] == "friend"


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def test_leaderboard_page_buttons(client, ttt, creator, trainer):
    ladder(ttt, 3)
    url = f"/games/{ttt.pk}/leaderboard/"
    html = page(client, url)  # anonymous
    assert "Bot00" in html and "Random" in html and 'data-testid="show-player"' in html
    assert 'data-testid="benchmark"' not in html and 'data-testid="show-evolution"' in html
    assert 'data-testid="universe"' not in html  # one universe: hidden
    client.force_login(creator)
    assert 'data-testid="benchmark"' not in page(client, url)
    client.force_login(trainer)
    html = page(client, url)
    assert 'data-testid="benchmark"' in html and "fa-balance-scale" in html
    # three bots, Random and the four standard bots (AI)
    assert html.count('data-testid="play-new-game"') == 8
    assert html.count('data-testid="ai-badge"') == 8
    assert f"?game={ttt.pk}&amp;seat2=player:" in html


def rows(html: str) -> str:
    return html[html.index('data-testid="leaderboard"') :]


def test_add_player_by_name_and_unknown_names(client, ttt, creator):
    bots = ladder(ttt, 13)
    url = f"/games/{ttt.pk}/leaderboard/"
    assert "Bot12" not in rows(page(client, url))
    assert "Bot12" in rows(page(client, url + "?player=bot12"))
    html = page(client, url + "?player=nobody")
    assert "Nobody called" in html
    assert "Bot11" in rows(page(client, url + f"?add={bots[11].pk}&add=junk"))


def test_universe_combobox_lists_the_users_persona_universes(client, ttt, creator):
    lab = Universe.objects.create(slug="lab", name="Lab")
    persona = Player.objects.create(kind="persona", name="Alter", owner=creator)
    lab.members.add(persona)
    b = bot("Labbot")
    finish(ttt, [persona, b], ["win", "loss"], universe=lab)
    client.force_login(creator)
    url = f"/games/{ttt.pk}/leaderboard/"
    html = page(client, url)
    assert 'data-testid="universe"' in html and "Labbot" not in rows(html)
    assert "Labbot" in rows(page(client, url + "?universe=lab"))
    assert "Labbot" in rows(page(client, url))  # remembered
    assert "Labbot" not in rows(page(client, url + "?universe=main"))
    client.logout()
    assert "Labbot" not in page(client, url + "?universe=lab")  # not offered to others


def test_hidden_games_have_no_leaderboard(client, ttt, site_admin):
    from variants.services import hide_rule_set

    hide_rule_set(ttt, True, by=site_admin)
    assert client.get(f"/games/{ttt.pk}/leaderboard/").status_code == 404
    assert client.get("/games/999999/leaderboard/").status_code == 404


def test_evolution_page_draws_a_curve_per_checked_player(client, ttt):
    bots = ladder(ttt, 3)
    url = f"/games/{ttt.pk}/evolution/?players={bots[0].pk}&players={bots[2].pk}"
    html = page(client, url)
    assert html.count('data-testid="curve"') == 2 and html.count('data-testid="delete-curve"') == 2
    data = json.loads(re.search(r'id="evolution-data"[^>]*>([^<]+)</script>', html).group(1))
    curve = next(c for c in data["curves"] if c["player"] == bots[0].pk)
    assert [p["x"] for p in curve["points"]] == [0, 1, 2]  # the start and two rated matches
    assert data["measure"] == "Rating" and data["xLabel"] == "Rated matches played"
    assert "/static/vendor/chart.js/chart.umd.min.js" in html and "cdn" not in html.lower()
    html = page(client, url + "&add=Bot01")
    assert html.count('data-testid="curve"') == 3
    removed = re.search(r'data-testid="delete-curve"\s+href="([^"]+)"', html).group(1)
    assert str(bots[0].pk) not in removed.replace("&amp;", "&").split("players=")[1:2][0]
    assert "Add a player" in page(client, f"/games/{ttt.pk}/evolution/")


def test_evolution_measures_score_skill_and_uncertainty(client, ttt):
    from leaderboards import stats

    a, b = bot("Alpha"), bot("Beta")
    for results in (["win", "loss"], ["win", "loss"], ["loss", "win"], ["draw", "draw"]):
        finish(ttt, [a, b], results)
    score = stats.evolution_chart(ttt, default_universe(), [a.pk, b.pk], "score")
    # running mean of (1, 1, 0, ½) and of (0, 0, 1, ½), in percent
    assert [p for _, p in score.curves[0].points] == [100, 100, 67, 62]
    assert [p for _, p in score.curves[1].points] == [0, 0, 33, 38]
    sigma = stats.evolution_chart(ttt, default_universe(), [a.pk], "uncertainty")
    values = [v for _, v in sigma.curves[0].points]
    assert len(values) == 5 and values == sorted(values, reverse=True)  # σ only shrinks
    rating = Rating.objects.get(rule_set=ttt, player=a)
    mu = stats.evolution_chart(ttt, default_universe(), [a.pk], "skill").curves[0]
    assert mu.last == round(1000 + 40 * rating.mu)  # on the rating scale (R = μ − 3σ)
    html = page(client, f"/games/{ttt.pk}/evolution/?players={a.pk}&measure=score")
    assert 'value="score" selected' in html and "over the last 20 matches" in html
    html = page(client, f"/games/{ttt.pk}/evolution/?players={a.pk}&measure=height")
    assert "There is no measure called" in html and 'value="rating" selected' in html


def test_favouritism_tab_lists_opponents_highest_preference_first(client, ttt, site_admin):
    from variants.services import hide_rule_set

    me, kind, tough = bot("Me"), bot("Kind"), bot("Tough")
    for _ in range(3):
        finish(ttt, [me, kind], ["win", "loss"])
    finish(ttt, [me, tough], ["loss", "win"])
    finish(ttt, [tough, me], ["draw", "draw"])
    c4 = rule_set("Connect4")
    finish(c4, [me, tough], ["win", "loss"])
    html = page(client, me.get_absolute_url() + "?tab=favouritism")
    # Tic-Tac-Toe has the most matches, so it is shown first
    assert 'data-testid="favour-game"' in html and "Connect4" in html
    rows = re.findall(r'data-testid="favour-row" data-player="(\d+)"', html)
    assert rows == [str(kind.pk), str(tough.pk)]
    preference = re.findall(r'data-testid="favour-preference">([^<]*)<', html)
    assert preference[0].startswith("+") and preference[1].startswith("−")
    html = page(client, me.get_absolute_url() + f"?tab=favouritism&game={c4.pk}&universe=main")
    assert re.findall(r'data-testid="favour-row" data-player="(\d+)"', html) == [str(tough.pk)]
    # a game the visitor may not see is not offered, and an unknown one falls back
    hide_rule_set(c4, True, by=site_admin)
    html = page(client, me.get_absolute_url() + f"?tab=favouritism&game={c4.pk}&universe=main")
    assert "Connect4" not in html and len(re.findall('data-testid="favour-row"', html)) == 2
    html = page(client, bot("Fresh").get_absolute_url() + "?tab=favouritism")
    assert "is not rated in any game yet" in html


def test_stats_tab(client, ttt, creator):
    me, b = creator.player, bot("B")
    finish(
        ttt, [me, b], ["win", "loss"], moves=[(0, "1,1,1", 400), (1, "2,2,1", 5), (0, "3,3,1", 600)]
    )
    finish(ttt, [b, me], ["draw", "draw"], moves=[(0, "1,1,1", 5), (1, "2,2,1", 1000)])
    html = page(client, me.get_absolute_url() + "?tab=stats")
    row = html[html.index('data-testid="stats-row"') :]
    assert ">2<" in row  # matches
    assert "50%" in row  # won and drawn
    assert "667 ms" in row  # (400 + 600 + 1000) / 3
    rating = Rating.objects.get(player=me)
    assert f">{rating.shown}<" in row and "stats-evolution" in row


def test_tournaments_tab_lists_tournaments(client, ttt, trainer):
    html = page(client, f"/games/{ttt.pk}/tournaments/")
    assert "No tournaments" in html and 'data-testid="new-tournament"' not in html
    client.force_login(trainer)
    assert 'data-testid="new-tournament"' in page(client, f"/games/{ttt.pk}/tournaments/?sort=junk")


def test_game_page_links_its_leaderboard_and_tournaments(client, ttt):
    html = page(client, ttt.get_absolute_url())
    assert f"/games/{ttt.pk}/leaderboard/" in html and f"/games/{ttt.pk}/tournaments/" in html


def test_unrated_rows_have_no_rank_and_rated_ranks_are_not_shared(ttt, creator):
    """Issue 35: four unrated rows (Random, the standard bots) showed the rank of the next
    rated player ("4" four times). An unrated row has no rank; rated ones count 1, 2, 3."""
    bots = ladder(ttt, 3)
    board = leaderboard(ttt, default_universe(), creator)
    unrated = [row for row in board.rows if row.rating is None]
    assert unrated and all(row.rank is None for row in unrated)
    assert [row.rank for row in board.rows if row.rating is not None] == [1, 2, 3]
    assert [row.player for row in board.rows if row.rank] == bots
