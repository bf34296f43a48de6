"""Related games: the nearest saved games by rule-document distance, with the difference
said in words ("Like Connect4, but 2 pieces a turn instead of 1").

The distance counts the leaves (field paths) of two canonical documents that differ: a
canonical document leaves out every default, so two games differ exactly where their
rules do. The words compare the two documents topic by topic (``variants.related_words``);
they used to be the summary's clauses the other lacked, a raw rule diff (issue 38).
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


def nearest(canonical: dict, summary: str, others: list[tuple], count: int = 3) -> list[dict]:
    """``others``: (id, name, canonical document, summary) of other games. The words say
    what this game does differently, as a person would (``variants.related_words``)."""
    from variants.related_words import sentence

    ranked = sorted((distance(canonical, doc), name, pk, doc) for pk, name, doc, _summary in others)
    out = []
    for d, name, pk, doc in ranked[:count]:
        words = sentence(name, canonical, doc)
        # "after": the words after "Like <name>", so the page links the name only.
        out.append(
            {"id": pk, "name": name, "distance": d, "words": words, "after": words[5 + len(name) :]}
        )
    return out
