"""Small facts about piece codes and bit masks shared by move generation and captures."""

LOCKED = -1  # a space no piece may enter


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def enemy(g, code: int, seat: int) -> bool:
    owner = g.piece[code][0]
    return owner is None or g.teams[owner] != g.teams[seat]
