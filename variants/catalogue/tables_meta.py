"""What the outcome tables of ``tables.py`` mean, game by game.

A value is the players' results in seat order (Chaos left out: it wins when every
player loses and loses when every player wins), either one tuple (nothing random
happens) or ``{results: "probability"}`` over Chaos's random moves (uniform over its
legal moves, a pass included where it may pass; it moves until it passes or cannot
move) and, in 3P-PublicGoods, the random start of a split pot (uniform over the
captors). Stacks are numbered from 1 (x), as the seed does.
"""

SEATS2 = ("black", "white")
SEATS3 = ("black", "white", "pink")
SEATS4 = ("black", "white", "pink", "yellow")

META = {
    "RockPaperScissors": {
        "players": SEATS2,
        "key": "(black's shape, white's shape) in a round",
        "value": "results, or 'again': both pieces destroyed, the next round is played "
        "with the shapes left (after three such rounds nothing is left: a draw)",
    },
    "4P-TrendSetter": {
        "players": SEATS4,
        "key": "(square y of black, white, pink, yellow) in the one round",
        "value": "results",
    },
    "4P-Conformist": {
        "players": SEATS4,
        "key": "(square y of black, white, pink, yellow) in the one round",
        "value": "results",
    },
    "3P-PublicGoods": {
        "players": SEATS3,
        "key": "(circles black, white, pink move onto stack 5 in the one round)",
        "value": "distribution of results (split pots and Chaos)",
    },
    "NeedyTrust": {
        "players": SEATS2,
        "key": "(circles black sends to stack 2, circles white returns to stack 3)",
        "value": "distribution of results (Chaos)",
    },
    "RichTrust": {
        "players": SEATS2,
        "key": "(circles black sends to stack 2, circles white returns to stack 3)",
        "value": "distribution of results (Chaos)",
    },
    "StagHunt": {
        "players": SEATS2,
        "key": "(black's stack: 1 hare, 3 stag; white's stack: 2 hare, 4 stag)",
        "value": "distribution of results (Chaos)",
    },
    "PrisonerDilemma": {
        "players": SEATS2,
        "key": "(black's stack: 1 defect, 5 cooperate; white's: 3 defect, 5 cooperate)",
        "value": "distribution of results (Chaos)",
    },
    "OptionalPD": {
        "players": SEATS2,
        "key": "as PrisonerDilemma (an agreed draw ends it as a draw for everyone)",
        "value": "distribution of results (Chaos)",
    },
    "ContractPD": {
        "players": SEATS2,
        "key": "(white's first stack: 3 or 5; black's stack: 1 or 5; white's second: 3 or 5)",
        "value": "distribution of results (Chaos)",
    },
    "NeedyUltimatum": {
        "players": SEATS2,
        "key": "(circles black keeps on stack 2, white's answer: 'accept' = its X on "
        "stack 3, 'reject' = on stack 2)",
        "value": "distribution of results (Chaos)",
    },
    "RichUltimatum": {
        "players": SEATS2,
        "key": "(circles black keeps on stack 2, white's answer as NeedyUltimatum)",
        "value": "distribution of results (Chaos)",
    },
    "NeedyDictator": {
        "players": SEATS2,
        "key": "circles black keeps on stack 2 (the others go to stack 1)",
        "value": "distribution of results (Chaos)",
    },
    "RichDictator": {
        "players": SEATS2,
        "key": "circles black keeps on stack 2 (the others go to stack 1)",
        "value": "distribution of results (Chaos)",
    },
    "3P-Volunteer": {
        "players": SEATS3,
        "key": "(stack of black, white, pink: its own stack keeps, 5 or 6 volunteers)",
        "value": "distribution of results (Chaos)",
    },
    "BoS": {
        "players": SEATS2,
        "key": "(black's board, white's board)",
        "value": "distribution of results (Chaos's board)",
    },
    "3P-BoS": {
        "players": SEATS3,
        "key": "(board of black, white, pink)",
        "value": "distribution of results (Chaos's board)",
    },
    "Centipede9": {
        "players": SEATS2,
        "key": "the placement on stack 1 (1 = black's first, 2 = white's first, ...) that "
        "is the mover's pentagon (a take) instead of a circle; None: nobody takes, the "
        "circles run out. Then each places what it holds on its own stack and passes",
        "value": "distribution of results (Chaos)",
    },
    "NeedyCentipede4": {
        "players": SEATS2,
        "key": "as Centipede9",
        "value": "distribution of results (Chaos)",
    },
    "ContractHunt": {
        "players": SEATS2,
        "key": "(white's first stack: 1 or 2; black's stack: 1 or 3; white's second: 1, 2 or 4)",
        "value": "distribution of results (Chaos)",
    },
    "4P-TrolleyDilemma": {
        "players": SEATS4,
        "key": "black acts (True: its circle onto the white pentagon; False: passes)",
        "value": "results",
    },
    "3P-TrolleyDilemma": {
        "players": SEATS3,
        "key": "black acts (True: its circle onto the white pentagon; False: passes)",
        "value": "results",
    },
}
