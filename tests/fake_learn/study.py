from .labels import label_for


def samples_from_match(game, moves, results, strategic, seed):
    """One sample a move: its mover's label. ``moves``: texts (seats take turns, as in
    the tests' games) or (seat, text) pairs."""
    X, y = [], []
    for i, entry in enumerate(moves):
        seat, text = (i % len(results), entry) if isinstance(entry, str) else entry
        X.append([len(text)])
        y.append(label_for(results[seat], (strategic or {}).get(seat)))
    return X, y
