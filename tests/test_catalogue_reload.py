"""load_catalogue on a database that already holds the catalogue, after a game's document
changed (issue 35: a new reading changes the game's fingerprint)."""

import copy

import pytest

from gamecore import rules
from variants import catalogue
from variants.models import RuleSet
from variants.services import load_catalogue

NAME = "3P-TrolleyDilemma"


def _only(monkeypatch, doc):
    monkeypatch.setattr(catalogue, "documents", lambda: {NAME: doc})


def _older():
    """The document as it was before the reading changed: one phase fewer."""
    doc = copy.deepcopy(catalogue.get(NAME))
    doc["phases"] = doc["phases"][:2]
    return doc


@pytest.mark.django_db
def test_a_changed_unplayed_game_is_updated_in_place(monkeypatch):
    _only(monkeypatch, _older())
    assert [r.action for r in load_catalogue()] == ["created"]
    before = RuleSet.objects.get(name=NAME)
    _only(monkeypatch, catalogue.get(NAME))
    assert [r.action for r in load_catalogue()] == ["updated"]
    after = RuleSet.objects.get(name__iexact=NAME)
    assert after.pk == before.pk and after.fingerprint != before.fingerprint
    assert after.fingerprint == rules.fingerprint(rules.parse(catalogue.get(NAME)))
    assert after.document["phases"] == rules.document(rules.parse(catalogue.get(NAME)))["phases"]
    assert [r.action for r in load_catalogue()] == ["exists"]  # idempotent
    assert RuleSet.objects.count() == 1


@pytest.mark.django_db
def test_a_changed_played_game_keeps_its_old_rules_for_its_matches(monkeypatch):
    from play.models import Match

    _only(monkeypatch, _older())
    load_catalogue()
    old = RuleSet.objects.get(name=NAME)
    match = Match.objects.create(rule_set=old, seed=1)
    _only(monkeypatch, catalogue.get(NAME))
    (result,) = load_catalogue()
    assert result.action == "replaced"
    match.refresh_from_db()
    kept = match.rule_set
    assert kept.pk == old.pk and kept.fingerprint == old.fingerprint and kept.hidden
    assert kept.name == f"{NAME}-was{old.pk}"
    new = RuleSet.objects.get(name=NAME)
    assert new.pk != old.pk and new.document == rules.document(rules.parse(catalogue.get(NAME)))
    assert [r.action for r in load_catalogue()] == ["exists"]
    assert RuleSet.objects.count() == 2


@pytest.mark.django_db
def test_a_game_of_the_name_made_by_someone_else_is_left_alone(monkeypatch, django_user_model):
    from variants.services import create_rule_set

    user = django_user_model.objects.create_user("maker", password="pw-12345678")
    other = create_rule_set(_older(), user, check_play=False)
    _only(monkeypatch, catalogue.get(NAME))
    assert [r.action for r in load_catalogue()] == ["exists"]
    other.refresh_from_db()
    assert other.fingerprint == rules.fingerprint(rules.parse(_older()))


@pytest.mark.django_db
def test_the_command_says_what_it_updated(monkeypatch):
    from io import StringIO

    from django.core.management import call_command

    monkeypatch.setattr(
        "variants.management.commands.load_catalogue.request_analysis", lambda r: None
    )
    _only(monkeypatch, _older())
    call_command("load_catalogue", stdout=StringIO())
    _only(monkeypatch, catalogue.get(NAME))
    out = StringIO()
    call_command("load_catalogue", stdout=out)
    assert f"updated  {NAME}" in out.getvalue()
    assert "0 created, 1 updated, 0 replaced, 0 already there or skipped." in out.getvalue()
