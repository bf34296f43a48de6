"""``manage.py variant``: the engine for people and scripts.

variant list
variant show NAME [--json]
variant perft NAME DEPTH
variant play NAME --seats random,mcts:500 --games N --seed S [--json]
variant bench [--seconds S] [--only NAME,...] [--family general]
variant analyse NAME [--seconds S] [--json]
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from gamecore import rules
from gamecore.engine import RulesError, compile_game, perft, playout_rate
from variants import catalogue

MCTS_BENCH_GAMES = ("Tic-Tac-Toe", "Connect4", "Qubic-4", "Tapatan")


def find_document(name: str) -> dict:
    """A saved rule set by name (any case), else a catalogue game."""
    try:
        from variants.models import RuleSet

        rule_set = RuleSet.objects.filter(name__iexact=name).first()
        if rule_set is not None:
            return rule_set.document
    except DatabaseError:
        pass  # no database yet (e.g. before migrate): the catalogue still works
    try:
        return catalogue.get(name)
    except KeyError as exc:
        raise CommandError(exc.args[0]) from None


def known_documents() -> dict[str, dict]:
    docs = catalogue.documents()
    try:
        from variants.models import RuleSet

        docs |= {r.name: r.document for r in RuleSet.objects.order_by("id")}
    except DatabaseError:
        pass
    return docs


class Command(BaseCommand):
    help = "List, show, perft, play and benchmark variants."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("list", help="every game, with its rules in one line")
        show = sub.add_parser("show", help="a game's rules, fingerprint and starting board")
        show.add_argument("name")
        show.add_argument("--json", action="store_true")
        p = sub.add_parser("perft", help="count move sequences of exactly DEPTH moves")
        p.add_argument("name")
        p.add_argument("depth", type=int)
        play = sub.add_parser("play", help="bots play games against each other")
        play.add_argument("name")
        play.add_argument("--seats", required=True, help="comma-separated bot specs")
        play.add_argument("--games", type=int, default=10)
        play.add_argument("--seed", type=int, default=0)
        play.add_argument("--time-limit", type=float, default=None, help="seconds per move")
        play.add_argument("--json", action="store_true")
        analyse = sub.add_parser("analyse", help="balance, length, solved value, difficulty")
        analyse.add_argument("name")
        analyse.add_argument("--seconds", type=float, default=30.0, help="time budget")
        analyse.add_argument("--json", action="store_true")
        bench = sub.add_parser("bench", help="random-playout moves/s and MCTS simulations/s")
        bench.add_argument("--seconds", type=float, default=1.0)
        bench.add_argument("--only", default="", help="comma-separated game names")
        bench.add_argument(
            "--family",
            choices=("flat", "nested", "general"),
            default=None,
            help="play every game in this family (those it cannot play are skipped)",
        )

    def handle(self, *args, action, **options):
        getattr(self, f"do_{action}")(**options)

    def game(self, name, family=None):
        try:
            return compile_game(find_document(name), family=family)
        except RulesError as exc:
            raise CommandError(f"{name}: {exc}") from None

    def do_list(self, **_):
        for name, doc in known_documents().items():
            try:
                line = rules.summary(rules.parse(doc))
            except RulesError as exc:
                line = f"(invalid: {exc})"
            self.stdout.write(f"{name:24} {line}")

    def do_show(self, name, json: bool = False, **_):
        game = self.game(name)
        doc = game.doc
        if json:
            data = {
                "name": doc.name,
                "document": rules.document(doc),
                "fingerprint": rules.fingerprint(doc),
                "summary": rules.summary(doc),
            }
            self.stdout.write(_json.dumps(data, indent=2))
            return
        self.stdout.write(doc.name)
        self.stdout.write(rules.summary(doc))
        self.stdout.write(f"fingerprint {rules.fingerprint(doc)}")
        self.stdout.write(str(game.new_initial_state()))

    def do_analyse(self, name, seconds: float = 30.0, json: bool = False, **_):
        from variants.analysis import analyse
        from variants.templatetags.analysis import (
            balance_sentence,
            difficulty_sentence,
            length_sentence,
            solved_sentence,
        )

        if not 1 <= seconds <= 3600:
            raise CommandError("--seconds: from 1 to 3600")
        result = analyse(self.game(name), seconds=seconds)
        if json:
            self.stdout.write(_json.dumps(result, indent=2))
            return
        self.stdout.write(name)
        self.stdout.write(balance_sentence(result["random"], "random play"))
        self.stdout.write(balance_sentence(result["equal_bots"], "two equal bots"))
        self.stdout.write(length_sentence(result["random"]))
        self.stdout.write("Solved: " + solved_sentence(result["solved"]))
        self.stdout.write("Difficulty: " + difficulty_sentence(result["difficulty"]))

    def do_perft(self, name, depth, **_):
        if not 0 <= depth <= 12:
            raise CommandError("depth: from 0 to 12")
        state = self.game(name).new_initial_state(seed=0)
        started = time.perf_counter()
        count = perft(state, depth) if depth else 1
        self.stderr.write(f"{time.perf_counter() - started:.2f} s")
        self.stdout.write(str(count))

    def do_play(self, name, seats, games, seed, time_limit, json: bool = False, **_):
        from gamecore.bots import SpecError, play_games

        if not 1 <= games <= 100_000:
            raise CommandError("--games: from 1 to 100000")
        try:
            report = play_games(self.game(name), seats.split(","), games, seed, time_limit)
        except (SpecError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        if json:
            self.stdout.write(_json.dumps(report))
            return
        self.stdout.write(
            f"{report['game']}: {games} games, {report['mean_moves']:.1f} moves on average, "
            f"{report['seconds']} s"
        )
        for i, seat in enumerate(report["seats"]):
            self.stdout.write(
                f"  seat {i + 1} {seat['spec']:12} {seat['wins']:6} won "
                f"{seat['draws']:6} drawn {seat['losses']:6} lost"
            )

    def do_bench(self, seconds, only, family=None, **_):
        names = [n for n in only.split(",") if n] or catalogue.names()
        self.stdout.write(f"Random playouts through the public API ({seconds:g} s each, one core)")
        for name in names:
            try:
                game = compile_game(find_document(name), family=family)
            except RulesError:
                continue  # not a game of that family
            moves, games = playout_rate(game, seconds)
            self.stdout.write(
                f"  {name:24} {moves:12,.0f} moves/s {games:10,.0f} games/s  {game.family}"
            )
        try:
            from gamecore.bots.bench import mcts_rate
        except ImportError:
            return
        self.stdout.write("MCTS simulations from the start position")
        for name in MCTS_BENCH_GAMES:
            if name in names or not only:
                rate = mcts_rate(self.game(name), seconds)
                self.stdout.write(f"  {name:24} {rate:12,.0f} simulations/s")


_json = json
