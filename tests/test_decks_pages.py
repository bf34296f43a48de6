"""Dealt pieces on the match and replay pages (issue 34): shown like any piece, a cloaked
one only to the seats that may see it (its own seat), on the match page, the snapshot,
and the replay; once the match is over, the replay shows the whole deal."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from play import services
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.django_db]

ROW = [{"at": [x, 1, 1]} for x in (1, 2, 3)]
DEALT = [{**ROW[0], "seat": 1}, ROW[1], {**ROW[2], "seat": 2}]  # seat 1, common, seat 2


def deal_rule_set(name: str, cloaked: bool):
    extra = {"cloaking": "hides", "phases": [{"cloaked": ROW}]} if cloaked else {}
    return rule_set(name, board={"type": "hash", "size": [3, 3, 1]}, deck="[O O O2]",
                    dealt=DEALT, **extra)  # fmt: skip


def pieces(payload) -> set[tuple]:
    """Where the payload puts pieces: (x, y) of every dict with "at" and "color"."""
    found = set()
    if isinstance(payload, dict):
        if "at" in payload and "color" in payload:
            found.add(tuple(payload["at"][:2]))
        for value in payload.values():
            found |= pieces(value)
    elif isinstance(payload, list):
        for value in payload:
            found |= pieces(value)
    return found


def page_data(client, url, script_id):
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    found = re.search(
        rf'<script id="{script_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, f"{url}: no {script_id}"
    return json.loads(found.group(1))


def _match(name, cloaked, creator, other_creator):
    match = start(deal_rule_set(name, cloaked), creator, creator, other_creator, seed=3)
    services.answer_invitation(match.pk, other_creator, accept=True)
    return match


def _clients(creator, other_creator, make_user):
    out = {}
    for seat, user in ((0, creator), (1, other_creator), (None, make_user("wanda"))):
        out[seat] = Client()
        out[seat].force_login(user)
    return out


def test_uncloaked_dealt_pieces_show_like_any_piece(creator, other_creator, make_user):
    match = _match("DealtOpen", False, creator, other_creator)
    for client in _clients(creator, other_creator, make_user).values():
        boot = page_data(client, f"/matches/{match.pk}/", "match-boot")
        assert pieces(boot) == {(1, 1), (2, 1), (3, 1)}


def test_cloaked_dealt_pieces_reach_only_the_seats_that_may_see_them(
    creator, other_creator, make_user
):
    match = _match("DealtHidden", True, creator, other_creator)
    clients = _clients(creator, other_creator, make_user)
    expected = {0: {(1, 1)}, 1: {(3, 1)}, None: set()}  # its own card; a spectator none
    for seat, client in clients.items():
        boot = page_data(client, f"/matches/{match.pk}/", "match-boot")
        assert pieces(boot) == expected[seat], seat
        replay = page_data(client, f"/matches/{match.pk}/replay/", "replay-data")
        assert pieces(replay) <= expected[seat] and pieces(replay) <= {(1, 1), (3, 1)}
    assert pieces(services.snapshot(match.pk, other_creator)) == {(3, 1)}
    # Over: the replay shows the whole deal, to everyone.
    services.resign(match.pk, creator)
    replay = page_data(clients[None], f"/matches/{match.pk}/replay/", "replay-data")
    assert pieces(replay) == {(1, 1), (2, 1), (3, 1)}
