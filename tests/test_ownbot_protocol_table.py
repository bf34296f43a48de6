"""The bot protocol's error table (play/PROTOCOL.md, "Bring your own bot") is what the
server sends: each case is sent over a real /ws/bot/ socket, live and in a tournament,
and its code compared with the table's row for it. A turn id that is not this bot's is
answered exactly as one that does not exist (no enumerating other bots' turns)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from ownbots import turns
from ownbots.protocol import ERROR_CODES
from play import services
from tests.ownbot_helpers import Inbox, bot_socket, own_bot
from tests.play_helpers import rule_set, start

pytestmark = pytest.mark.django_db(transaction=True)

PROTOCOL = Path(__file__).resolve().parent.parent / "play" / "PROTOCOL.md"


def bot_error_table() -> dict[str, str]:
    """code -> "when" of the bot section's Errors table."""
    text = PROTOCOL.read_text()
    section = text[text.index("## Bring your own bot") :]
    section = section[section.index("### Errors") :]
    section = section[: section.index("\n### ", 5)]
    rows = re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \|", section, re.M)
    return {code: when for code, when in rows}


def test_the_table_lists_exactly_the_codes_the_socket_sends():
    assert set(bot_error_table()) == set(ERROR_CODES)


# What each case is, in the table's words: its code's row must say so.
CASES = {
    "unparsable move": ("illegal", "does not parse"),
    "illegal move": ("illegal", "not a legal move"),
    "future turn": ("unknown-turn", "not sent yet"),
    "made-up turn": ("unknown-turn", "no turn"),
    "another bot's turn": ("unknown-turn", "another bot"),
    "answered twice": ("late", "answered already"),
}


def test_the_table_says_what_each_case_gets():
    table = bot_error_table()
    for case, (code, words) in CASES.items():
        assert words in table[code], f"{case}: the row of {code} should say {words!r}"


async def answer(inbox: Inbox, turn: str, move: str) -> dict:
    await inbox.comm.send_json_to({"type": "move", "turn": turn, "move": move})
    while True:
        event = await inbox.next(timeout=5)
        if event["type"] in ("error", "moved") and event["turn"] == turn:
            return event
        if event["type"] not in ("error", "moved"):
            inbox.kept.append(event)


def same_as_unknown(error: dict, unknown: dict) -> bool:
    """The same code and sentence, but for the turn id it names."""
    return error["code"] == unknown["code"] and error["reason"].replace(
        error["turn"], "?"
    ) == unknown["reason"].replace(unknown["turn"], "?")


@pytest.mark.asyncio
async def test_live_turns_get_the_tables_codes(trainer, creator, make_user):
    mine, token = await sync_to_async(own_bot)(trainer, "Mine")
    theirs, their_token = await sync_to_async(own_bot)(
        await sync_to_async(make_user)("tom", "trainer"), "Theirs"
    )
    game = await sync_to_async(rule_set)("Tic-Tac-Toe")
    match = await sync_to_async(start)(game, creator, mine, creator)
    other = await sync_to_async(start)(game, creator, theirs, creator)
    inbox = Inbox(await bot_socket(token, "v1"))
    their_inbox = Inbox(await bot_socket(their_token, "v1"))
    await inbox.until("welcome")
    await their_inbox.until("welcome")
    turn = await inbox.until("your-move")
    their_turn = await their_inbox.until("your-move")
    assert turn["turn"] == f"m{match.pk}.0.0" and their_turn["turn"] == f"m{other.pk}.0.0"

    unknown = await answer(inbox, f"m{other.pk + 1000}.0.0", "1,1,1")
    assert unknown["code"] == CASES["made-up turn"][0]
    assert (await answer(inbox, "nonsense", "1,1,1"))["code"] == "unknown-turn"
    theirs_answered = await answer(inbox, their_turn["turn"], "1,1,1")
    assert same_as_unknown(theirs_answered, unknown)
    their_other_seat = await answer(inbox, f"m{match.pk}.0.1", "1,1,1")  # the person's seat
    assert same_as_unknown(their_other_seat, unknown)
    future = await answer(inbox, f"m{match.pk}.2.0", "1,1,1")
    assert same_as_unknown(future, unknown) and future["code"] == CASES["future turn"][0]
    assert (await answer(inbox, turn["turn"], "zz"))["code"] == CASES["unparsable move"][0]
    assert (await answer(inbox, turn["turn"], "9,9,9"))["code"] == CASES["illegal move"][0]
    assert (await answer(inbox, turn["turn"], "1,1,1"))["type"] == "moved"
    twice = await answer(inbox, turn["turn"], "2,2,1")
    assert twice["code"] == CASES["answered twice"][0]
    # The other bot's match is untouched by all of it.
    assert (await sync_to_async(lambda: type(other).objects.get(pk=other.pk).ply)()) == 0
    await sync_to_async(services.play)(match.pk, creator, "2,2,1")
    assert (await inbox.until("your-move"))["turn"] == f"m{match.pk}.2.0"
    await inbox.comm.disconnect()
    await their_inbox.comm.disconnect()


def _turns(player, stranger, trainer) -> tuple[int, int]:
    """A waiting tournament turn of each bot."""
    from leaderboards.models import Tournament
    from leaderboards.services import default_universe

    tournament = Tournament.objects.create(
        name="t", rule_set=rule_set("Tic-Tac-Toe"), universe=default_universe(),
        created_by=trainer, seed=1, total_games=2, batch_size=1,
    )  # fmt: skip
    ids = []
    for number, who in enumerate([player, stranger], start=1):  # as a worker opens them
        turn = turns.open_turn(who.pk, tournament.pk, number, 0, 0, {"v": 1}, ["1,1,1", "2,2,1"])
        ids.append(turn.pk)
    return ids[0], ids[1]


@pytest.mark.asyncio
async def test_tournament_turns_get_the_tables_codes(trainer, make_user):
    mine, token = await sync_to_async(own_bot)(trainer, "Mine")
    theirs, _ = await sync_to_async(own_bot)(
        await sync_to_async(make_user)("tom", "trainer"), "Theirs"
    )
    my_turn, their_turn = await sync_to_async(_turns)(mine, theirs, trainer)
    inbox = Inbox(await bot_socket(token, "v1"))
    await inbox.until("welcome")
    turn = await inbox.until("your-move")
    assert turn["turn"] == f"t{my_turn}"

    unknown = await answer(inbox, f"t{their_turn + 1000}", "1,1,1")
    assert unknown["code"] == CASES["future turn"][0]
    theirs_answered = await answer(inbox, f"t{their_turn}", "1,1,1")
    assert same_as_unknown(theirs_answered, unknown)
    assert (await answer(inbox, turn["turn"], "zz"))["code"] == CASES["unparsable move"][0]
    assert (await answer(inbox, turn["turn"], "3,3,1"))["code"] == CASES["illegal move"][0]
    assert (await answer(inbox, turn["turn"], "2,2,1"))["type"] == "moved"
    twice = await answer(inbox, turn["turn"], "1,1,1")
    assert twice["code"] == CASES["answered twice"][0]
    statuses = await sync_to_async(lambda: {t: turns.status(t) for t in (my_turn, their_turn)})()
    assert statuses == {my_turn: "answered", their_turn: "waiting"}
    await inbox.comm.disconnect()
