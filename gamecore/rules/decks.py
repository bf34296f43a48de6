"""Decks (release 1.7 "Batch Play"): the notation, its plain-words label, its count of
variations, and assembling it for a match.

Notation (READINGS.md, "Decks"): ``{ … }`` a shuffled set, ``[ … ]`` an ordered sequence
(each may hold the other, up to ``MAX_DEPTH`` deep); letters for items: ``O`` circle,
``P`` pentagon, ``X`` x, ``+`` cross, ``^`` triangle, ``*`` star, ``S`` a blank. A digit
1-4 right after a shape letter names the colour of that seat (``O3``: a circle of seat
3's colour). Whitespace and commas separate items; an item outside brackets is part of
an ordered sequence. The top of the deck is its first item.

Pure functions; parse errors name the character position (1-based) in the text.
"""

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

MAX_TEXT = 2000
MAX_ITEMS = 512
MAX_DEPTH = 6
MAX_VARIATIONS = 10**18  # counted exactly below this; "more than" above
LETTERS = {"O": "circle", "P": "pentagon", "X": "x", "+": "cross", "^": "triangle", "*": "star"}
BLANK = "S"
PLURAL = {"x": "Xs", "cross": "crosses"}


class DeckError(ValueError):
    def __init__(self, position: int, message: str):
        self.position = position
        super().__init__(f"at character {position}: {message}")


@dataclass(frozen=True)
class Item:
    shape: str | None  # None: a blank
    seat: int | None = None  # the colour of this seat (1-based); None: as dealt

    def text(self) -> str:
        if self.shape is None:
            return BLANK
        letter = next(k for k, v in LETTERS.items() if v == self.shape)
        return letter + (str(self.seat) if self.seat else "")


@dataclass(frozen=True)
class Group:
    shuffled: bool
    parts: tuple  # of Item | Group


def parse_deck(text: str) -> Group:
    """The deck as a tree (the top level is an ordered sequence); DeckError if malformed."""
    if not isinstance(text, str):
        raise DeckError(1, "a deck is text")
    if len(text) > MAX_TEXT:
        raise DeckError(MAX_TEXT + 1, f"a deck is at most {MAX_TEXT} characters")
    stack: list[tuple[str, int, list]] = [("", 0, [])]  # (closing bracket, opened at, parts)
    count = 0
    i = 0
    while i < len(text):
        ch, pos = text[i], i + 1
        i += 1
        if ch.isspace() or ch == ",":
            continue
        if ch in "{[":
            if len(stack) > MAX_DEPTH:
                raise DeckError(pos, f"brackets nest at most {MAX_DEPTH} deep")
            stack.append(("}" if ch == "{" else "]", pos, []))
        elif ch in "}]":
            closing, opened, parts = stack[-1]
            if not closing:
                raise DeckError(pos, f"'{ch}' closes nothing")
            if ch != closing:
                raise DeckError(pos, f"expected '{closing}' to close the bracket at {opened}")
            if not parts:
                raise DeckError(pos, "empty brackets")
            stack.pop()
            stack[-1][2].append(Group(closing == "}", tuple(parts)))
        elif ch == BLANK or ch in LETTERS:
            seat = None
            if i < len(text) and text[i].isdigit():
                if ch == BLANK:
                    raise DeckError(i + 1, "a blank has no colour")
                seat = int(text[i])
                if not 1 <= seat <= 4:
                    raise DeckError(i + 1, "a colour is a seat from 1 to 4")
                i += 1
            count += 1
            if count > MAX_ITEMS:
                raise DeckError(pos, f"a deck holds at most {MAX_ITEMS} items")
            stack[-1][2].append(Item(None if ch == BLANK else LETTERS[ch], seat))
        else:
            letters = "O P X + ^ * S"
            raise DeckError(pos, f"'{ch}' is not an item ({letters}), a bracket or a digit")
    if len(stack) > 1:
        closing, opened, _ = stack[-1]
        raise DeckError(opened, f"this bracket is never closed (expected '{closing}')")
    return Group(False, tuple(stack[0][2]))


def items(node) -> list[Item]:
    """The deck's items in written order."""
    if isinstance(node, Item):
        return [node]
    return [x for part in node.parts for x in items(part)]


def size(text: str) -> int:
    return len(items(parse_deck(text))) if text else 0


def assemble(text: str, rng: random.Random) -> list[Item]:
    """The deck for one match, top first: each shuffled set shuffled by ``rng``."""
    return _assemble(parse_deck(text), rng) if text else []


def _assemble(node, rng) -> list[Item]:
    if isinstance(node, Item):
        return [node]
    parts = list(node.parts)
    if node.shuffled:
        rng.shuffle(parts)
    return [x for part in parts for x in _assemble(part, rng)]


def label(text: str, colors: tuple[str, ...] | None = None) -> str:
    """Plain words: "1 black circle, 1 white circle, 7 blanks" (``colors``: the colour of
    each seat, 0-based; without it a colour reads "seat 3's")."""
    if not text:
        return "no deck"
    counts = Counter(items(parse_deck(text)))
    words = []
    for item, n in sorted(counts.items(), key=lambda kv: _order(kv[0])):
        if item.shape is None:
            words.append(f"{n} blank{'s' if n != 1 else ''}")
            continue
        noun = item.shape if n == 1 else PLURAL.get(item.shape, item.shape + "s")
        if noun == "x":
            noun = "X"
        colour = ""
        if item.seat:
            known = colors and item.seat <= len(colors)
            colour = (colors[item.seat - 1] if known else f"seat {item.seat}'s") + " "
        words.append(f"{n} {colour}{noun}")
    if len(words) > 2:
        words[-1] = "and " + words[-1]
    return (", " if len(words) > 2 else " and ").join(words) + " in deck"


def _order(item: Item) -> tuple:
    shapes = list(LETTERS.values())
    return (item.shape is None, shapes.index(item.shape) if item.shape else 0, item.seat or 0)


def variations(text: str, dealt: int | None = None) -> int | None:
    """How many distinct deals the deck makes: distinct top-``dealt`` item sequences
    (``dealt`` None: the whole deck). None when there are more than ``MAX_VARIATIONS``,
    or, for nested decks, when counting them would take more than ``_WORK`` steps
    (``count_words`` says which). Bounded work: the factory recounts as one types."""
    if not text:
        return 1
    root = parse_deck(text)
    n = len(items(root)) if dealt is None else min(dealt, len(items(root)))
    if _simple(root):  # one shuffled set of single items: the multinomial, exactly
        return _multiset_prefixes(Counter(items(root)), n)
    _budget[0] = _WORK
    try:
        return len(_outcomes(root, n))
    except _TooMany:
        return None
    finally:  # the caches hold sets of sequences: free them
        _outcomes_cached.cache_clear()
        _shuffle.cache_clear()
        _sequence.cache_clear()


def count_words(text: str, dealt: int | None = None) -> str:
    """ "72 variations", "1 variation", "more than 10^18 variations" (one shuffled set),
    "too many variations to count" (a nested deck past the counting bound)."""
    count = variations(text, dealt)
    if count is not None:
        return f"{count:,} variation{'s' if count != 1 else ''}"
    if text and _simple(parse_deck(text)):
        return "more than 10^18 variations"
    return "too many variations to count"  # past _CAP deals or _WORK items of work


class _TooMany(Exception):
    pass


_CAP = 200_000  # enumeration cap for nested decks (distinct deals)
_WORK = 3_000_000  # and on the items of the sequences built while enumerating them
_budget = [_WORK]


def _spend(n: int) -> None:
    _budget[0] -= n
    if _budget[0] < 0:
        raise _TooMany


def _simple(root: Group) -> bool:
    """One shuffled set of single items (in any wrapping of one-part groups)."""
    node = root
    while isinstance(node, Group) and len(node.parts) == 1 and isinstance(node.parts[0], Group):
        node = node.parts[0]
    if all(isinstance(p, Item) for p in node.parts):
        return node.shuffled or len(node.parts) == 1
    return False


def _multiset_prefixes(counts: Counter, n: int) -> int | None:
    """Distinct length-n sequences drawn from a multiset, exactly: adding the kinds one
    at a time, ways[m] = sum over j of C(m, j) * previous[m - j] (j of this kind among
    m places). Saturates past ``MAX_VARIATIONS`` so numbers stay small: O(n * items)."""
    cap = MAX_VARIATIONS + 1
    ways = [1] + [0] * n
    for c in counts.values():
        new = [0] * (n + 1)
        for m in range(n + 1):
            total = 0
            binom = 1  # C(m, j)
            for j in range(min(c, m) + 1):
                if j:
                    binom = binom * (m - j + 1) // j
                total += binom * ways[m - j]
                if total >= cap:
                    total = cap
                    break
            new[m] = total
        ways = new
    return ways[n] if ways[n] <= MAX_VARIATIONS else None


def _outcomes(node, n: int) -> frozenset:
    """The distinct top-``n`` sequences ``node`` can assemble to (capped)."""
    return _outcomes_cached(node, n)


@lru_cache(maxsize=4096)
def _outcomes_cached(node, n: int) -> frozenset:
    if n == 0:
        return frozenset({()})
    if isinstance(node, Item):
        return frozenset({(node,)})
    if not node.shuffled:
        return _sequence(node.parts, n)
    return _shuffle(tuple(sorted(Counter(node.parts).items(), key=repr)), n)


@lru_cache(maxsize=4096)
def _sequence(parts: tuple, n: int) -> frozenset:
    if n == 0 or not parts:
        return frozenset({()})
    out: set = set()
    _extend(out, parts[0], n, lambda k: _sequence(parts[1:], k))
    return frozenset(out)


def _extend(out: set, head, n: int, tails_of) -> None:
    """Add to ``out`` each top-``n`` sequence that starts with an outcome of ``head`` and
    goes on with one of ``tails_of(n - len(outcome))`` (the rest of the deck's)."""
    for o in _outcomes_cached(head, min(n, len(items(head)))):
        if len(o) >= n:
            out.add(o[:n])
        else:
            tails = tails_of(n - len(o))
            _spend(len(tails) * n)
            out |= {o + r for r in tails}
        if len(out) > _CAP:
            raise _TooMany


@lru_cache(maxsize=4096)
def _shuffle(kinds: tuple, n: int) -> frozenset:
    """Distinct top-``n`` sequences of a shuffled multiset of parts (kind, count)."""
    if n == 0 or not kinds:
        return frozenset({()})
    out: set = set()
    for i, (part, count) in enumerate(kinds):
        rest = kinds[:i] + (((part, count - 1),) if count > 1 else ()) + kinds[i + 1 :]
        _extend(out, part, n, lambda k, rest=rest: _shuffle(rest, k))
    return frozenset(out)


def check_decks(doc, space_problem) -> list[tuple[str, str]]:
    """The deck and the dealt markers of a rule document, with paths (validation.py)."""
    from .vocabulary import PLAYER_MODES

    errors: list[tuple[str, str]] = []
    seats = PLAYER_MODES[doc.players][0]
    for i, d in enumerate(doc.dealt):
        if d.seat is not None and not 1 <= d.seat <= seats:
            errors.append((f"dealt[{i}].seat", f"this game has seats 1 to {seats}"))
        elif d.seat is not None and doc.colors == "choose":
            errors.append((f"dealt[{i}].seat", "a seat's dealt piece needs assigned colours"))
    if not doc.deck:
        if doc.dealt:
            errors.append(("deck", "dealt spaces need a deck to deal from"))
        return errors
    try:
        found = items(parse_deck(doc.deck))
    except DeckError as exc:
        return errors + [("deck", str(exc))]
    for item in found:
        if item.shape is not None and item.shape not in doc.shapes:
            shapes = ", ".join(doc.shapes)
            errors.append(("deck", f"{item.text()}: this game's shapes are {shapes}"))
            break
    for item in found:
        if item.seat is not None and item.seat > seats:
            errors.append(("deck", f"{item.text()}: this game has seats 1 to {seats}"))
            break
    if len(found) < len(doc.dealt):
        errors.append(
            (
                "deck",
                f"holds {len(found)} item{'s' if len(found) != 1 else ''} for "
                f"{len(doc.dealt)} dealt spaces: too few",
            )
        )
    return errors


def deal_order(dealt) -> list:
    """Dealt markers in dealing order: top-to-bottom as the boards are drawn (the highest
    row first: y runs up on the factory's board and the match page's), then left-to-right;
    on stacks each stack from its highest layer down, one stack at a time, as a post is
    drawn: TheoryOfMind's deck of triples makes "no mixed groups" only so (READINGS.md,
    issue 34); boards in turn."""
    return sorted(dealt, key=lambda d: (d.board, -d.at[1], d.at[0], -d.at[2]))
