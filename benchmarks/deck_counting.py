"""How long the factory's deck control takes to count a deck's variations (issue 34).

    .venv/bin/python benchmarks/deck_counting.py [--bar 2.0]

The factory recounts the deck's label and variations on every refresh (a pause in
typing), so counting must stay bounded whatever is typed: one shuffled set is counted by
a sum over its kinds, a nested deck by enumeration that gives up after a fixed amount of
work ("too many variations to count"). Times the release's decks and the worst shapes we
know (nested pairs, nested groups of groups, a 511-item multiset with many dealt
spaces), each once, and prints the bar (the slowest, in seconds of wall time) and
whether it is met. Pure Python: no Django.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamecore.rules.decks import count_words  # noqa: E402

BIG = "{" + "".join(c * 73 for c in "OPX+^*S") + "}"
DECKS = {
    "4P-Blind-TTT (9 dealt)": ("[{ O3 O4 S S S S S S S }]", 9),
    "3P-NeedyPoker (whole deck)": ("[{ PPPP **** ++++ XXXX ^^^^ }]", None),
    "30 ordered pairs {O S}": ("[" + " ".join("{O S}" for _ in range(30)) + "]", None),
    "12 groups [{O P} {X S}] shuffled": (
        "{" + " ".join("[{O P} {X S}]" for _ in range(12)) + "}",
        None,
    ),
    "511-item multiset, 60 dealt": (BIG, 60),
    "511-item multiset, 300 dealt": (BIG, 300),
    "70 equal groups shuffled, 64 dealt": (
        "{" + " ".join("[O P X + ^ * S]" for _ in range(70)) + "}",
        64,
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bar", type=float, default=2.0, help="seconds for the slowest deck")
    args = parser.parse_args()
    slowest = 0.0
    for name, (text, dealt) in DECKS.items():
        start = time.perf_counter()
        words = count_words(text, dealt)
        took = time.perf_counter() - start
        slowest = max(slowest, took)
        print(f"{name:40} {took:6.2f} s  {words[:60]}")
    met = "met" if slowest <= args.bar else "NOT met"
    print(f"bar: the slowest count within {args.bar:.1f} s: {slowest:.2f} s, {met}")


if __name__ == "__main__":
    main()
