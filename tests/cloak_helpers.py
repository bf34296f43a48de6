"""Cloaked rule documents for the tests of issue 20 (cloaked spaces are ``Phase.cloaked``)."""

from gamecore.engine import compile_game
from variants import catalogue


def cloak_doc(data: dict, cloaked_per_phase: list[list[tuple]]) -> dict:
    """``data`` with one phase per list of cloaked (board, x, y, z) spaces (z = 0: the
    whole stack); the option to pass moves into the phases."""
    data = dict(data)
    allow_pass = data.pop("allow_pass", False)
    phases = data.pop("phases", None) or [{} for _ in cloaked_per_phase]
    data["phases"] = [
        {**phase, "allow_pass": phase.get("allow_pass", allow_pass),
         "cloaked": [{"board": b, "at": [x, y, z]} for b, x, y, z in spaces]}
        for phase, spaces in zip(phases, cloaked_per_phase, strict=True)
    ]  # fmt: skip
    return data


def cloak_game(data: dict, cloaked_per_phase: list[list[tuple]]):
    doc = cloak_doc(data, cloaked_per_phase)
    if not any(p["cloaked"] for p in doc["phases"]):
        doc["cloaking"] = "none"  # the same rules, nothing cloaked
    return compile_game(doc, family="general")


def blotto_data(soldiers: int = 13) -> dict:
    """3Blotto13 (seed 004; the catalogue's document) without its cloaked spaces, with
    ``soldiers`` each (13 in the game)."""
    doc = catalogue.get("3Blotto13")
    del doc["phases"]
    doc["board"]["size"][2] = soldiers
    doc["reserves"] = {"black": {"circle": soldiers}, "white": {"circle": soldiers}}
    return doc


def blotto_cloaked() -> list[list[tuple]]:
    """All spaces cloaked (z = 0: the whole stack), as in the catalogue."""
    return [[(b, x, 1, 0) for b in (1, 2, 3) for x in (1, 2)]]


def blotto_game(soldiers: int = 13):
    if soldiers == 13:
        return compile_game(catalogue.get("3Blotto13"))
    return cloak_game(blotto_data(soldiers), blotto_cloaked())
