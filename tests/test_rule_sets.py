"""RuleSet rows: uniqueness enforced by the database, writes through variants.services."""

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from gamecore import rules
from variants import catalogue
from variants.models import RuleSet
from variants.services import (
    DuplicateRules,
    NameTaken,
    create_rule_set,
    load_catalogue,
    rename_rule_set,
)

pytestmark = pytest.mark.django_db


def make_row(name: str, fingerprint: str) -> RuleSet:
    return RuleSet.objects.create(
        name=name, document={"name": name}, fingerprint=fingerprint, summary="-"
    )


def test_fingerprint_is_unique_in_the_database():
    make_row("First", "a" * 64)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_row("Second", "a" * 64)


def test_name_is_unique_ignoring_case():
    make_row("Gomoku", "a" * 64)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_row("GOMOKU", "b" * 64)


def test_create_rule_set_stores_the_canonical_document(creator):
    rule_set = create_rule_set(catalogue.get("3on5sq"), creator)
    doc = rules.parse(catalogue.get("3on5sq"))
    assert rule_set.name == "3on5sq"
    assert rule_set.document == rules.document(doc)
    assert rule_set.fingerprint == rules.fingerprint(doc)
    assert rule_set.summary == rules.summary(doc)
    assert rules.fingerprint(rule_set.rule_doc()) == rule_set.fingerprint


def test_renamed_copy_of_a_catalogue_game_is_refused(catalogue, creator):
    copy = {**catalogue_doc("Connect4"), "name": "My-Connect-Four"}
    with pytest.raises(DuplicateRules, match="Connect4") as caught:
        create_rule_set(copy, creator)
    assert caught.value.existing.name == "Connect4"
    assert not RuleSet.objects.filter(name="My-Connect-Four").exists()


def test_taken_name_is_refused_whatever_its_case(catalogue, creator):
    other_rules = {**catalogue_doc("3on5sq"), "name": "connect4"}
    RuleSet.objects.filter(name="3on5sq").delete()
    with pytest.raises(NameTaken, match="Connect4"):
        create_rule_set(other_rules, creator)


def test_invalid_document_names_the_field(creator):
    with pytest.raises(rules.RulesError) as caught:
        create_rule_set({"name": "Broken", "board": {"size": [99, 1, 1]}}, creator)
    assert any(e["path"].startswith("board") for e in caught.value.errors)
    assert RuleSet.objects.count() == 0


def test_rename_keeps_the_document_in_step(catalogue, site_admin):
    rule_set = RuleSet.objects.get(name="Tic-Tac-Toe")
    rename_rule_set(rule_set, "Noughts-and-Crosses", by=site_admin)
    rule_set.refresh_from_db()
    assert rule_set.name == rule_set.document["name"] == "Noughts-and-Crosses"
    with pytest.raises(NameTaken):
        rename_rule_set(rule_set, "CONNECT4", by=site_admin)


def test_load_catalogue_is_idempotent():
    first = load_catalogue()
    second = load_catalogue()
    assert [r.action for r in first] == ["created"] * len(catalogue.names())
    assert [r.action for r in second] == ["exists"] * len(catalogue.names())
    assert RuleSet.objects.count() == len(catalogue.names())
    assert set(RuleSet.objects.values_list("name", flat=True)) == set(catalogue.names())


def test_load_catalogue_command(capsys):
    call_command("load_catalogue")
    call_command("load_catalogue")
    out = capsys.readouterr().out
    assert f"{len(catalogue.names())} created" in out and "0 created" in out
    assert RuleSet.objects.count() == len(catalogue.names())


def catalogue_doc(name: str) -> dict:
    return catalogue.get(name)
