from .labels import label_for


def samples_from_match(game, moves, results, strategic, seed):
    """One sample a move: its mover's label (seats take turns, as in the tests' games)."""
    X, y = [], []
    for i, text in enumerate(moves):
        seat = i % len(results)
        X.append([len(text)])
        y.append(label_for(results[seat], (strategic or {}).get(seat)))
    return X, y
