"""Issue 38: a newcomer's second ten minutes (tests that leave no work behind, ratings a
person reads, a menu and messages that say what happened)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings

# --- Tests leave no work behind -----------------------------------------------------------


def queued(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="the embedded (file-system) broker only")
def test_a_task_queued_by_a_test_never_reaches_the_real_broker_folder():
    """``make test`` used to leave its tasks in var/celery/queue, where the next
    ``make run`` worker picked them up; the tests queue into a folder of their own."""
    from config.celery import app

    real = Path(settings.CELERY_FS_ROOT) / "queue"
    before = queued(real)
    app.send_task("config.ping")
    added = queued(real) - before
    for name in added:  # on the code as it was: tidy up what this test wrote
        (real / name).unlink(missing_ok=True)
    assert not added, f"a test queued {len(added)} message(s) in {real}"
    ours = Path(app.conf.broker_transport_options["data_folder_out"])
    assert ours != real and not ours.is_relative_to(Path(settings.VAR_DIR))
    assert any(ours.iterdir())  # it went to the tests' own folder


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis broker only")
def test_tasks_queued_by_the_tests_are_purged_from_redis():
    from config.celery import app
    from tests.conftest import purge_test_queues

    app.send_task("config.ping")
    assert purge_test_queues(app) >= 1
    assert purge_test_queues(app) == 0


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis broker only")
def test_tasks_queued_by_the_tests_go_to_keys_of_their_own():
    """A ``make run`` worker (or another test process) on the same Redis reads the plain
    ``celery`` list: the tests' tasks wait under their session's ``CELERY_KEY_PREFIX``."""
    import redis

    from config.celery import app
    from tests.conftest import purge_test_queues

    prefix = app.conf.broker_transport_options["global_keyprefix"]
    assert prefix.startswith("test.") and os.environ["CELERY_KEY_PREFIX"] == prefix
    client = redis.Redis.from_url(settings.REDIS_URL)
    plain = client.llen("celery")
    app.send_task("config.ping")
    try:
        assert client.llen(prefix + "celery") >= 1
        assert client.llen("celery") == plain
    finally:
        client.close()
        purge_test_queues(app)


# --- Ratings a person reads -----------------------------------------------------------------


def leaderboard_html(client, rules) -> str:
    response = client.get(f"/games/{rules.pk}/leaderboard/")
    assert response.status_code == 200
    return response.content.decode()


def row_of(html: str, player) -> str:
    start = html.index(f'data-player="{player.pk}"')
    return html[start : html.index("</tr>", start)]


def words(fragment: str) -> str:
    """What a sighted person reads in a fragment of HTML (no icons, no screen-reader text)."""
    fragment = re.sub(r'<span class="visually-hidden">.*?</span>', "", fragment, flags=re.S)
    return re.sub(r"<[^>]+>", "", fragment).strip()


@pytest.mark.django_db
def test_a_beginner_after_one_loss_reads_a_rating_without_a_minus_sign(client, creator):
    from leaderboards.models import Rating
    from tests.leaderboard_helpers import finish
    from tests.play_helpers import bot, human, rule_set

    ttt = rule_set("Tic-Tac-Toe")
    me, winner = human(creator), bot("Winner")
    finish(ttt, [me, winner], ["loss", "win"])
    client.force_login(creator)
    html = leaderboard_html(client, ttt)
    cell = re.search(r'data-testid="rating"[^>]*>(.*?)</td>', row_of(html, me), re.S).group(1)
    shown = int(re.search(r'class="fs-5"[^>]*>([^<]+)<', cell).group(1))
    assert 0 < shown < 1000  # below a beginner's 1000, never negative (was −183)
    # The exact R one hover away.
    rating = Rating.objects.get(player=me, rule_set=ttt)
    assert f"R = μ − 3σ = {rating.ordinal:.2f}".replace("-", "−") in cell
    # The winner reads more than a beginner; the change on the game-over card is the same.
    assert Rating.objects.get(player=winner, rule_set=ttt).shown > 1000
    match = rating.history.get().match
    changes = client.get(f"/matches/{match.pk}/ratings/").json()["changes"]
    mine = next(c for c in changes if c["name"] == me.display_name)
    assert mine["before"] == 1000 and mine["after"] == shown and mine["change"] < 0


@pytest.mark.django_db
def test_the_leaderboard_says_its_order_and_its_row_buttons_have_words(client, creator, make_user):
    from accounts.services import human_player
    from tests.leaderboard_helpers import finish
    from tests.play_helpers import bot, rule_set

    ttt = rule_set("Tic-Tac-Toe")
    stranger = human_player(make_user("otto"))
    finish(ttt, [stranger, bot("Easy one")], ["win", "loss"])
    client.force_login(creator)
    html = leaderboard_html(client, ttt)
    header = html[html.index('data-testid="leaderboard"') : html.index("<tbody>")]
    assert "rating + top burst" in words(header).lower()
    kinds = "show-player|play-new-game|add-friend"
    buttons = re.findall(
        rf'<(?:a|button) [^>]*data-testid="({kinds})"[^>]*>(.*?)</(?:a|button)>', html, re.S
    )
    assert {kind for kind, _ in buttons} == {"show-player", "play-new-game", "add-friend"}
    for kind, inner in buttons:
        assert words(inner), f"the {kind} button is an icon alone"


# --- A menu and messages that say what happened ----------------------------------------------


def nav(html: str) -> str:
    return html[html.index('aria-label="Main"') : html.index("</nav>")]


@pytest.mark.django_db
def test_trainers_and_admins_find_my_bots_in_the_menu(client, make_user):
    for role, shown in (("creator", False), ("trainer", True), ("admin", True)):
        client.force_login(make_user(f"u-{role}", role))
        menu = nav(client.get("/games/").content.decode())
        assert ('href="/bots/"' in menu and "My bots" in menu) is shown, role
        if shown:
            assert client.get("/bots/").status_code == 200
    client.logout()
    assert "My bots" not in nav(client.get("/games/").content.decode())


@pytest.mark.django_db
def test_an_admin_is_told_a_game_was_renamed_or_hidden(client, site_admin):
    from tests.play_helpers import rule_set

    game = rule_set("Tic-Tac-Toe")
    client.force_login(site_admin)
    # Rename on the game's own page: the page it comes back to says so.
    page = client.post(f"/games/{game.pk}/rename/", {"name": "Noughts"}, follow=True)
    assert page.status_code == 200
    assert "Renamed Tic-Tac-Toe to Noughts" in page.content.decode()
    # Hide and show on the Manage page.
    url = f"/games/{game.pk}/manage/"
    page = client.post(url, {"action": "hide"}, follow=True).content.decode()
    assert "Noughts is hidden: only Admins see it." in page
    page = client.post(url, {"action": "rename", "name": "Crosses"}, follow=True)
    assert "Renamed Noughts to Crosses" in page.content.decode()


# --- Benchmark Selected Bots in plain words ---------------------------------------------------


def ladder_of_bots(rules, n: int) -> list:
    """n bots; bot i beats bot j (i < j) once each: Bot00 on top, the last one last."""
    from tests.leaderboard_helpers import finish
    from tests.play_helpers import bot

    bots = [bot(f"Bot{i:02d}") for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            finish(rules, [bots[i], bots[j]], ["win", "loss"])
    return bots


def checked(html: str) -> list[int]:
    boxes = re.findall(r'<input [^>]*data-testid="select"[^>]*>', html)
    return [int(re.search(r'value="(\d+)"', b).group(1)) for b in boxes if " checked" in b]


@pytest.mark.django_db
def test_benchmark_names_the_missing_player_and_the_board_prechecks_a_benchmark(
    client, trainer, monkeypatch
):
    from accounts.services import random_player
    from leaderboards import favouritism
    from leaderboards.services import default_universe
    from tests.play_helpers import rule_set
    from tournaments.plans import is_benchmark

    ttt, main = rule_set("Tic-Tac-Toe"), default_universe()
    bots = ladder_of_bots(ttt, 11)
    top, lucky = bots[0], bots[10]  # Lucky: 11th, outside the top ten
    # Say the top player does best, against the ratings, against the last one (which
    # favouritism measures from real results; tested with the Favouritism tab).
    monkeypatch.setattr(
        favouritism, "favoured_by", lambda pk, *_: lucky.pk if pk == top.pk else None
    )
    client.force_login(trainer)
    url = f"/games/{ttt.pk}/leaderboard/"
    # Lucky is not on the board: no set of its checkboxes makes a Benchmark. Benchmark
    # Selected Bots says, in plain words, whom to add.
    html = client.get(url).content.decode()
    assert f'data-player="{lucky.pk}"' not in html
    chosen = checked(html)
    query = "&".join(f"players={pk}" for pk in chosen)
    page = client.get(f"/tournaments/benchmark/?rule_set={ttt.pk}&universe=main&{query}")
    text = words(page.content.decode())
    assert (
        "Standard" in text
        and f"add the player {top.name} is most favoured by: {lucky.name}" in text
    )
    # Lucky added to the board: the checked set is one that makes a Benchmark.
    html = client.get(f"{url}?add={lucky.pk}").content.decode()
    chosen = checked(html)
    assert lucky.pk in chosen and random_player().pk in chosen
    assert is_benchmark(ttt, main, chosen)
    query = "&".join(f"players={pk}" for pk in chosen)
    page = client.get(f"/tournaments/benchmark/?rule_set={ttt.pk}&universe=main&{query}")
    assert "It counts as a Benchmark" in words(page.content.decode())
