"""manage.py variant: list, show, perft, play, bench."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("variant", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_list_names_every_catalogue_game():
    out = run("list")
    for name in ("Tic-Tac-Toe", "Connect4", "Wild-TTT-6sq3143", "3on5sq"):
        assert name in out
    assert len(out.strip().splitlines()) == 59  # 29 + 22 dilemmas + 4 cloaked + 4 decks


def test_show_json_has_document_fingerprint_summary():
    data = json.loads(run("show", "connect4", "--json"))
    assert data["name"] == "Connect4"
    assert data["document"]["board"] == {"type": "stacks", "size": [7, 1, 6]}
    assert len(data["fingerprint"]) == 64
    assert data["summary"].startswith("Played on 7x1x6 stacks")


def test_show_draws_the_starting_board():
    out = run("show", "Connect6-19x19")
    assert "fingerprint" in out and "O" in out  # the white opening stone


def test_perft_prints_the_count_last():
    assert run("perft", "Tic-Tac-Toe", "4").strip().splitlines()[-1] == "3024"


def test_play_json_tallies_every_seat():
    data = json.loads(run("play", "3P-Notakto", "--seats", "random,random,random",
                          "--games", "30", "--seed", "5", "--json"))  # fmt: skip
    assert data["games"] == 30 and data["mean_moves"] >= 3
    assert [s["spec"] for s in data["seats"]] == ["random"] * 3
    for seat in data["seats"]:
        assert seat["wins"] + seat["draws"] + seat["losses"] == 30


def test_play_fills_chaos_itself(creator):
    from variants.services import create_rule_set

    create_rule_set({"name": "Chaos-TTT", "players": "2-vs-chaos",
                     "board": {"type": "squares", "size": [4, 4, 1]}}, creator)  # fmt: skip
    data = json.loads(run("play", "Chaos-TTT", "--seats", "random,random", "--games", "5",
                          "--json"))  # fmt: skip
    assert [s["spec"] for s in data["seats"]] == ["random", "random", "chaos"]


def test_play_is_reproducible():
    args = (
        "play",
        "Connect4",
        "--seats",
        "random,random",
        "--games",
        "20",
        "--seed",
        "9",
        "--json",
    )
    a, b = json.loads(run(*args)), json.loads(run(*args))
    assert a["seats"] == b["seats"] and a["mean_moves"] == b["mean_moves"]


@pytest.mark.parametrize(
    "args, message",
    [
        (("show", "No-Such-Game"), "no catalogue game"),
        (("play", "Connect4", "--seats", "random"), "needs 2 seats"),
        (("play", "Connect4", "--seats", "random,genius"), "unknown bot"),
        (("perft", "Connect4", "99"), "depth"),
    ],
)
def test_errors_are_clear(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_bench_prints_moves_per_second():
    out = run("bench", "--seconds", "0.05", "--only", "Tic-Tac-Toe")
    assert "Tic-Tac-Toe" in out and "moves/s" in out
