"""Seed 002's licence asks for credit: Strategic's game pages name the authors
(Demchenko and Shashkov) and CC BY 4.0; other games do not."""

import re

import pytest

from variants.credits import game_credits
from variants.models import RuleSet
from variants.rule_words import rule_list


@pytest.mark.parametrize("name", ["Strategic-Tactical", "Strategic-Map", "Strategic-Hypermap"])
def test_strategic_game_pages_credit_the_authors_and_the_licence(client, catalogue, name):
    game = RuleSet.objects.get(name=name)
    html = client.get(game.get_absolute_url()).content.decode()
    credit = re.search(r'data-testid="game-credit">(.*?)</dd>', html, re.S).group(1)
    assert "Demchenko" in credit and "Shashkov" in credit
    assert "CC BY 4.0" in credit and "creativecommons.org/licenses/by/4.0" in credit


@pytest.mark.parametrize("name", ["Ultimate-Tic-Tac-Toe", "TacticToy", "Tic-Tac-Toe"])
def test_other_games_carry_no_strategic_credit(client, catalogue, name):
    html = client.get(RuleSet.objects.get(name=name).get_absolute_url()).content.decode()
    assert "game-credit" not in html and "Shashkov" not in html


def test_a_factory_game_using_a_strategic_rule_is_credited_too():
    doc = {"name": "Mine", "board": {"type": "nested"}, "nested": {"no_send_back": True}}
    assert game_credits(doc)[0]["licence"] == "CC BY 4.0"
    assert game_credits({"name": "Plain", "board": {"type": "nested"}}) == []
    assert game_credits({"broken": True}) == []


def test_rules_in_words_say_the_combination_and_no_sending_back():
    doc = {
        "name": "Mix",
        "board": {"type": "nested"},
        "nested": {"depth": 3, "level_routing": ["map", "hypermap"], "no_send_back": True},
    }
    words = dict(rule_list(doc))
    where = words["Where you may play"]
    assert "the strategic cell (big block) by the number beside your move's row" in where
    assert "the tactical cell inside it by the number in your move's cell" in where
    assert "never send the next player back" in words["Also"]
