"""The credits the seeds' licences ask for, shown on a game's page.

Strategic Tic-Tac-Toe (seed 002): "Starategic Tic-Tac-Toe by Demchenko Mikhail Alexeevich
and Shashkov Anton Igorevich is licensed under a Creative Commons Attribution 4.0
International License." A game is credited when it uses any of the rules that seed
invented (its routing, its limits, drawn blocks counting for all), whatever its name.
"""

from __future__ import annotations

from gamecore import rules

STRATEGIC = {
    "work": "Strategic Tic-Tac-Toe",
    "authors": "Mikhail Alexeevich Demchenko and Anton Igorevich Shashkov",
    "licence": "CC BY 4.0",
    "licence_url": "https://creativecommons.org/licenses/by/4.0/",
    "note": "the rules and the paper game fields",
}


def uses_strategic(doc: rules.RuleDoc) -> bool:
    n = doc.nested
    if doc.board.type != "nested" or n is None:
        return False
    return bool(
        n.routing in ("map", "hypermap")
        or n.level_routing
        or n.draws_count_for_all
        or n.free_when_decided
        or n.no_send_back
    )


def game_credits(document: dict) -> list[dict]:
    try:
        doc = rules.parse(document)
    except rules.RulesError:
        return []
    return [STRATEGIC] if uses_strategic(doc) else []
