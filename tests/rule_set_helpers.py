"""Rule documents for tests that need many different games."""


def game_doc(n: int, **extra) -> dict:
    """The ``n``-th (0..288) of many valid rule documents, all with different rules and
    names, none equal to a catalogue game (no catalogue game has all players lose a
    stalemate)."""
    x, y = 3 + n % 17, 3 + n // 17
    board = {"type": "squares", "size": [x, y, 1]}
    return {"name": f"Game-{n}", "board": board, "stalemate": "all-lose", **extra}


def create_games(creator, count: int, start: int = 0) -> list:
    from variants.services import create_rule_set

    return [create_rule_set(game_doc(n), creator) for n in range(start, start + count)]
