"""The factory's largest page stays under the bound the other tests assert (1.5 MB), at
the worst case the seed's limits allow (issue 39: 1.64 MB): three boards of 8×8×8, four
players, every one of the 1,536 spaces holding a marked piece (pink crosses), sticky,
exclusive and locked to all seats, and six phases each locking and cloaking every space."""

from __future__ import annotations

import json

import pytest

from variants.models import RuleSet

pytestmark = pytest.mark.django_db

MAX_PAGE = 1_500_000  # as tests/test_hardening.py and tests/test_fuzz_factory.py
SPOTS = [f"{b},{x},{y},{z}" for b in (1, 2, 3) for x in range(1, 9) for y in range(1, 9)
         for z in range(1, 9)]  # fmt: skip


def _worst() -> dict:
    # All but one space: Save refuses a game nobody can move in (issue 39's playable
    # check), so the last space stays open in every phase; the page is as large.
    shut = SPOTS[:-1]
    phase = {"order": "sequential", "locked": " ".join(shut), "cloaked": " ".join(SPOTS)}
    return {
        "family": "flat", "name": "Biggest", "board_type": "squares", "size_x": "8",
        "size_y": "8", "size_z": "8", "boards": "3", "players": "4", "check": "3-wins-d",
        "shape": ["cross", "x", "star"], "cloaking": "hides", "phase_count": "6",
        "phases": json.dumps([phase] * 6),
        "pieces": " ".join(f"{s},pink,1" for s in shut),
        "reserve-black-1": "1",  # a piece to place on the open space
        "sticky": " ".join(SPOTS),
        "exclusive": " ".join(f"{s}:1.2.3.4" for s in SPOTS),
        "space_locks": " ".join(f"{s}:1.2.3.4:ex" for s in shut),
    }  # fmt: skip


def test_the_largest_factory_pages_stay_under_the_bound(client, creator):
    client.force_login(creator)
    form = _worst()
    refused = client.post("/games/new/", {**form, "name": "Not a name"})  # redrawn, 400
    assert refused.status_code == 400
    html = refused.content.decode()
    assert html.count('class="fc-space') == len(SPOTS) and html.count("fc-flag-cloak") >= 1536
    assert len(refused.content) < MAX_PAGE, len(refused.content)
    saved = client.post("/games/new/", form)
    assert saved.status_code == 302, saved.content.decode()[-3000:]
    game = RuleSet.objects.get(name="Biggest")
    assert len(game.document["phases"]) == 6  # every phase came through the hidden field
    page = client.get(saved.headers["Location"])  # the saved game's page (1.76 MB before)
    assert page.status_code == 200 and len(page.content) < MAX_PAGE, len(page.content)
    copy = client.get("/games/new/", {"copy": game.pk})  # the factory filled from it
    assert copy.status_code == 200 and len(copy.content) < MAX_PAGE, len(copy.content)
    assert copy.content.decode().count('class="fc-space') == len(SPOTS)
    games = client.get("/games/")  # its summary line is bounded on every list too
    assert len(games.content) < 100_000, len(games.content)
