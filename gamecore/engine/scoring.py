"""Stalemate rules: who wins when the player to move cannot move (or all passed).

A team's pieces are the pieces of its colours where colours belong to seats (assigned,
partners share), and the pieces its seats placed where colours do not (shared, choose).
"Same-color-in-a-row" is the longest straight run of one colour among a team's pieces.
"""

from .outcome import DRAW, LOSS, WIN


def team_pieces(state, board: int | None) -> dict[int, dict[int, set[int]]]:
    """team -> colour -> spaces holding that team's pieces of that colour."""
    g = state.game
    owned_by_color = not (g.choose or g.doc.colors == "shared")
    color_team = {g.seat_color[s]: g.teams[s] for s in range(g.nseats)}
    # A common dealt card (release 1.7) in a colour that is one seat's is still nobody's:
    # it counts for no team (in a shared colour, nobody's pieces count by colour as ever).
    communal = (
        () if not getattr(g, "dealt", ()) else {c for c in color_team if g.seat_color.count(c) == 1}
    )
    out: dict[int, dict[int, set[int]]] = {t: {} for t in set(g.teams)}
    lo, hi = (
        (0, g.geometry.n)
        if board is None
        else (board * g.geometry.cells, (board + 1) * g.geometry.cells)
    )
    squares = state.board  # (read once: on some states it is made when read)
    for i in range(lo, hi):
        code = squares[i]
        if code <= 0:
            continue
        owner, color, _shape = g.decode(code)
        if owner is None and color in communal:
            continue
        team = (
            color_team.get(color) if owned_by_color else (None if owner is None else g.teams[owner])
        )
        if team is not None:
            out[team].setdefault(color, set()).add(i)
    return out


def team_values(state, board: int | None, rule: str) -> dict[int, int]:
    pieces = team_pieces(state, board)
    if rule == "most-pieces-wins":
        return {t: sum(map(len, by_color.values())) for t, by_color in pieces.items()}
    geometry = state.game.geometry
    return {
        t: max((geometry.longest_run(spaces) for spaces in by_color.values()), default=0)
        for t, by_color in pieces.items()
    }


def stalemate_results(state, board: int | None) -> list[str]:
    """Per-seat results of the game's stalemate rule (on one board, or on all)."""
    g = state.game
    rule = g.stalemate
    if rule == "draw":
        return [DRAW] * g.nseats
    if rule == "all-win":
        return [WIN] * g.nseats  # Chaos's loss is applied when the game finishes
    if rule == "all-lose":
        return [WIN if s == g.chaos else LOSS for s in range(g.nseats)]
    values = team_values(state, board, rule)
    if rule == "least-in-a-row-loses":
        worst = min(values.values())
        return [LOSS if values[g.teams[s]] == worst else WIN for s in range(g.nseats)]
    best = max(values.values())
    return [WIN if values[g.teams[s]] == best else LOSS for s in range(g.nseats)]
