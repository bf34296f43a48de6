"""Seed 001's turn time (in milliseconds: default 15,000, min 5,000, max 60,000) offered by
the factory's nested time control, in words, with every saved fingerprint unchanged."""

from __future__ import annotations

import html as entities
import re

import pytest

from gamecore.rules import fingerprint as rules_fingerprint
from gamecore.rules import parse
from tests.test_factory_nested import (  # noqa: F401 (fixtures)
    ann,
    fingerprint,
    nested,
    options,
    refresh,
    saved,
)
from tests.test_general_rules import SAVED
from variants import catalogue
from variants.factory.nested_state import TIME_CONTROLS, ULTIMATE_TURN_MS


def labels(html: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.S).group(0)
    pairs = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', select)
    return {value: entities.unescape(text).strip() for value, text in pairs}


def test_the_seeds_values_are_offered():
    default, least, most = ULTIMATE_TURN_MS
    assert (default, least, most) == (15_000, 5_000, 60_000)
    for ms in ULTIMATE_TURN_MS:
        assert ms // 1000 in TIME_CONTROLS


def test_the_time_control_reads_as_words(client, nested):  # noqa: F811
    html, _fields = refresh(client, nested, n_seconds="15")
    words = labels(html, "n_seconds")
    assert words["5"] == "5 s per turn (5,000 ms: Ultimate's least)"
    assert words["15"] == "15 s per turn (15,000 ms: Ultimate's default)"
    assert words["60"] == "1 min per turn (60,000 ms: Ultimate's most)"
    assert words["300"] == "5 min per turn" and words["3600"] == "1 h per turn"
    assert "15 s per turn by default" in html
    assert options(html, "n_seconds")[:5] == ["", "5", "10", "15", "30"]


@pytest.mark.parametrize("seconds", [5, 15, 60])
def test_ultimate_with_the_seeds_turn_times_saves(client, nested, seconds):  # noqa: F811
    last = {"n_lock_captured": "1", "n_timeout": "random-move"}
    game = saved(client, nested, f"MyUltimate{seconds}", [{"n_seconds": str(seconds)}], **last)
    assert game.document["seconds_per_turn"] == seconds
    if seconds == 15:
        assert game.fingerprint == fingerprint("Ultimate-Tic-Tac-Toe")


def test_every_catalogue_fingerprint_is_unchanged():
    for name, document in catalogue.documents().items():
        if name in SAVED:
            assert rules_fingerprint(parse(document)) == SAVED[name], name
