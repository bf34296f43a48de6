"""Cloaked rule documents for the tests of issue 20.

Cloaked spaces live in ``Phase.cloaked`` (the phases lane, issue 19). Until that lane is
merged, a test-only document type adds ``phases`` with the contract's field, so the engine
(which reads them through ``knowledge.cloaked_spaces`` alone) can be tested now; with the
real ``Phase`` present, the real one is used.
"""

from variants.engine.general.game import GeneralGame
from variants.rules import parse
from variants.rules.schema import RuleDoc, Space, Strict

try:  # the phases lane's model, once merged
    from variants.rules.schema import Phase
except ImportError:  # pragma: no cover - until engine-19

    class Phase(Strict):
        cloaked: tuple[Space, ...] = ()


REAL_PHASES = "phases" in RuleDoc.model_fields


class CloakDoc(RuleDoc):
    phases: tuple[Phase, ...] = ()


def cloak_doc(data: dict, cloaked_per_phase: list[list[tuple]]):
    """``data`` (a rule document) validated, then cloaked: one phase per list of
    (board, x, y, z) spaces."""
    base = parse(data)
    phases = tuple(
        Phase(cloaked=tuple(Space(board=b, at=(x, y, z)) for b, x, y, z in spaces))
        for spaces in cloaked_per_phase
    )
    if REAL_PHASES:
        return base.model_copy(update={"phases": phases})
    return CloakDoc(**{**base.model_dump(), "phases": phases})


def cloak_game(data: dict, cloaked_per_phase: list[list[tuple]]) -> GeneralGame:
    return GeneralGame(cloak_doc(data, cloaked_per_phase))


def blotto_data(soldiers: int = 13) -> dict:
    """3Blotto13 (seed 004): 3 boards of 2x1x13 stacks, first stack black's, second
    white's; most pieces wins (per board, then most boards); cloaking hides."""
    exclusive = []
    for b in (1, 2, 3):
        for z in range(1, soldiers + 1):
            exclusive.append({"board": b, "at": [1, 1, z], "seats": [1]})
            exclusive.append({"board": b, "at": [2, 1, z], "seats": [2]})
    return {
        "name": "3Blotto13",
        "players": "2",
        "boards": 3,
        "board": {"type": "stacks", "size": [2, 1, soldiers]},
        "reserves": {"black": {"circle": soldiers}, "white": {"circle": soldiers}},
        "turn_checks": [],
        "stalemate": "most-pieces-wins",
        "exclusive": exclusive,
        "cloaking": "hides",
    }


def blotto_cloaked() -> list[list[tuple]]:
    """All spaces cloaked (z = 0: the whole stack)."""
    return [[(b, x, 1, 0) for b in (1, 2, 3) for x in (1, 2)]]


def blotto_game(soldiers: int = 13) -> GeneralGame:
    return cloak_game(blotto_data(soldiers), blotto_cloaked())
