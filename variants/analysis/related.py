"""Related games: the nearest saved games by rule-document distance, with the difference
said in words ("Like Connect4, but 2 pieces a turn").

The distance counts the leaves (field paths) of two canonical documents that differ: a
canonical document leaves out every default, so two games differ exactly where their
rules do. The words are the clauses of this game's plain-English summary that the other
game's summary lacks.
"""

from __future__ import annotations


def leaves(value, path: str = "") -> dict[str, object]:
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            out.update(leaves(item, f"{path}.{key}" if path else key))
        return out
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        out = {}
        for i, item in enumerate(value):
            out.update(leaves(item, f"{path}[{i}]"))
        return out
    return {path: value}


def distance(a: dict, b: dict) -> int:
    la, lb = leaves(a), leaves(b)
    return sum(1 for key in la.keys() | lb.keys() if la.get(key) != lb.get(key))


def _clauses(summary: str) -> list[str]:
    """A summary's clauses, finest first: "Played on 3x3x1 hash, 5 black … in reserve;
    Stalemate draws" -> ["Played on 3x3x1 hash", "5 black … in reserve", "Stalemate draws"]."""
    return [c.strip() for part in summary.split(";") for c in part.split(", ") if c.strip()]


def difference(summary: str, other_summary: str) -> str:
    """What ``summary`` says that ``other_summary`` does not, then what only the other
    says ("…; not: circles move adjacent")."""
    mine, theirs = _clauses(summary), _clauses(other_summary)
    extra = [c for c in mine if c not in theirs]
    missing = [c for c in theirs if c not in mine]
    words = "; ".join(extra)
    if missing:
        words += (
            ("; " if words else "") + "not: " + "; ".join(m[:1].lower() + m[1:] for m in missing)
        )
    return words


def nearest(canonical: dict, summary: str, others: list[tuple], count: int = 3) -> list[dict]:
    """``others``: (id, name, canonical document, summary) of other games."""
    ranked = sorted(
        (distance(canonical, doc), name, pk, other_summary)
        for pk, name, doc, other_summary in others
    )
    out = []
    for d, name, pk, other_summary in ranked[:count]:
        words = difference(summary, other_summary)
        out.append(
            {
                "id": pk,
                "name": name,
                "distance": d,
                "words": f"Like {name}, but {words[:1].lower() + words[1:]}"
                if words
                else f"Like {name}, with a difference the summary does not show",
            }
        )
    return out
