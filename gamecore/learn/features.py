"""A position as a seat sees it, as a fixed-length vector (DESIGN §9).

``layout_for(game)`` computes, once per rule document, which number of the vector
means what; ``layout.encode(view, seat)`` fills it from ``state.view(seat)`` — the
seat's view, never the state, so nothing hidden from the seat can reach a model.

Everything is **seat-relative**: a piece, a colour, a seat to move or a result belongs
to "the viewer" (relative seat 0), "the next seat" (1), and so on round the table, so
one model plays either seat. The vector holds, with 0/1 values unless said:

- per space of every board: who owns its piece (relative seat, or "unknown" for a
  piece the view shows without its owner), its shape (games of several shapes), its
  colour (games where colours are shared or chosen, so colour is not the owner), whether
  it is obscured or paralysed, whether the space is locked;
- nested boards instead: per cell its owner (relative team), obstacle, protected, and
  whether it lies in the area the next move must go to; per block and the peak its
  owner or a tie;
- the seat to move (relative), the ply as a share of the spaces, pieces placed this turn;
- reserves per (colour, shape) as a share of the starting count (colour relative where a
  colour belongs to one seat);
- the result per relative seat once the game is over, and per board of several;
- the phase, a chain jump or a draw offer in progress, the seats disqualified;
- simultaneous rounds: who has planned, the viewer's own plan and the last round's moves
  (move texts hashed into a few buckets: a round's moves are not a fixed list).
"""

import weakref
import zlib
from collections import OrderedDict

import numpy as np

from gamecore.rules.canonical import fingerprint

PLAN_BUCKETS = 16  # hashed buckets for a plan's or a round's move text
RESULT_WORDS = ("win", "draw", "loss")


def _bucket(text: str) -> int:
    return zlib.crc32(text.encode()) % PLAN_BUCKETS  # stable across processes


class FeatureLayout:
    """The vector layout of one rule document; ``size`` numbers, float32."""

    def __init__(self, game):
        self.fingerprint = fingerprint(game.doc)
        self.game_name = game.name
        self.nseats = game.nseats
        self.teams = tuple(game.teams)
        start = game.new_initial_state(0)
        first = start.view(0)
        self.family = first.get("family", "flat")
        self._next = 0
        if self.family == "nested":
            self._nested_layout(game, first)
        else:
            self._board_layout(game, first)
        self.size = self._next

    def _take(self, n: int) -> int:
        at = self._next
        self._next += n
        return at

    # -- boards of spaces (flat and general families) -----------------------------------
    def _board_layout(self, game, first: dict) -> None:
        n = self.nseats
        self.shapes = {s: i for i, s in enumerate(game.shape_names)} if game.nshapes > 1 else {}
        colour_mode = getattr(game.doc, "colors", "assigned")
        self.colours = (
            {c: i for i, c in enumerate(game.color_names)} if colour_mode != "assigned" else {}
        )
        # per space: owners (n), unknown owner, shapes, colours, obscured, paralysed, locked
        self.ch_unknown = n
        self.ch_shape = n + 1
        self.ch_colour = self.ch_shape + len(self.shapes)
        self.ch_obscured = self.ch_colour + len(self.colours)
        self.ch_paralysed = self.ch_obscured + 1
        self.ch_locked = self.ch_paralysed + 1
        self.channels = self.ch_locked + 1
        self.boards = []  # per board: (offset of its first space, X, Y)
        for board in first["boards"]:
            x, y, z = board["size"]
            self.boards.append((self._take(x * y * z * self.channels), x, y))
        self.spaces = sum(b["size"][0] * b["size"][1] * b["size"][2] for b in first["boards"])
        # a colour bound to exactly one seat is that seat's (relative); others absolute
        owners = {}
        for s, c in enumerate(first["seat_colors"]):
            owners.setdefault(c, []).append(s)
        self.colour_seat = {c: s[0] for c, s in owners.items() if len(s) == 1}
        free = [c for c in game.color_names if c not in self.colour_seat]
        self.reserve_colour = {c: n + i for i, c in enumerate(free)}  # absolute slots
        nslots = n + len(free)
        self.reserve_shapes = {s: i for i, s in enumerate(game.shape_names)}
        self.reserve_at = self._take(nslots * len(self.reserve_shapes))
        self.reserve_scale = np.ones(nslots * len(self.reserve_shapes), dtype=np.float32)
        for colour, shapes in first["reserves"].items():  # the start's counts scale each slot
            for shape, count in shapes.items():
                slot = self._reserve_slot(colour, shape, 0)
                if slot is not None:
                    self.reserve_scale[slot] = max(1.0, float(count))
        self.to_move_at = self._take(n)
        self.ply_at = self._take(1)
        self.placed_at = self._take(1)
        self.outcome_at = self._take(3 * n)
        nboards = len(first["boards"])
        self.board_results_at = self._take(3 * n * nboards) if nboards > 1 else None
        phase = first.get("phase")
        self.phases = phase["of"] if phase else 1
        self.phase_at = self._take(self.phases) if self.phases > 1 else None
        # a chain jump, a draw offer in progress. (Not the seat's own blocked attempt: the
        # seat's own position, which the agent plays forward in a cloaked game, does not
        # carry it, and the features must be the same in study and in play; the piece
        # the attempt revealed is on the board in both.)
        self.flags_at = self._take(2)
        self.dq_at = self._take(n)
        simultaneous = self.family == "general" and any(
            getattr(p, "order", "sequential") != "sequential" for p in game.doc.phases
        )
        self.plans_at = self._take(n + PLAN_BUCKETS + n * PLAN_BUCKETS) if simultaneous else None

    def _reserve_slot(self, colour: str, shape: str, seat: int):
        owner = self.colour_seat.get(colour)
        if owner is None:
            slot = self.reserve_colour.get(colour)
        else:
            slot = (owner - seat) % self.nseats
        col = self.reserve_shapes.get(shape)
        if slot is None or col is None:
            return None
        return slot * len(self.reserve_shapes) + col

    def _encode_boards(self, view: dict, seat: int, out: np.ndarray) -> None:
        n = self.nseats
        C = self.channels
        for (offset, X, Y), board in zip(self.boards, view["boards"], strict=True):
            for piece in board["pieces"]:
                x, y, z = piece["at"]
                base = offset + (((z - 1) * Y + (y - 1)) * X + (x - 1)) * C
                owner = piece.get("owner")
                if owner is None:
                    owner = self.colour_seat.get(piece.get("color"))
                out[base + (self.ch_unknown if owner is None else (owner - seat) % n)] = 1
                shape = self.shapes.get(piece.get("shape"))
                if shape is not None:
                    out[base + self.ch_shape + shape] = 1
                colour = self.colours.get(piece.get("color"))
                if colour is not None:
                    out[base + self.ch_colour + colour] = 1
                if piece.get("obscured"):
                    out[base + self.ch_obscured] = 1
                if piece.get("paralysed"):
                    out[base + self.ch_paralysed] = 1
            for x, y, z in board["locked"]:
                out[offset + (((z - 1) * Y + (y - 1)) * X + (x - 1)) * C + self.ch_locked] = 1
        at = self.reserve_at
        for colour, shapes in view["reserves"].items():
            for shape, count in shapes.items():
                slot = self._reserve_slot(colour, shape, seat)
                if slot is not None:
                    out[at + slot] = min(2.0, count / self.reserve_scale[slot])
        ppt = view.get("pieces_per_turn") or 1
        if ppt > 1:
            out[self.placed_at] = view.get("placed_this_turn", 0) / ppt
        if self.board_results_at is not None:
            for b, board in enumerate(view["boards"]):
                self._results(board.get("results"), seat, self.board_results_at + 3 * n * b, out)
        phase = view.get("phase")
        if self.phase_at is not None and phase:
            out[self.phase_at + min(self.phases, phase["number"]) - 1] = 1
        out[self.flags_at] = view.get("chain") is not None
        out[self.flags_at + 1] = view.get("draw_offer") is not None
        for s in view.get("disqualified") or ():
            out[self.dq_at + (s - 1 - seat) % n] = 1
        if self.plans_at is not None:
            self._encode_plans(view, seat, out)

    def _encode_plans(self, view: dict, seat: int, out: np.ndarray) -> None:
        n = self.nseats
        at = self.plans_at
        plans = view.get("plans") or {}
        for s in plans.get("registered") or ():
            out[at + (s - 1 - seat) % n] = 1
        if plans.get("mine"):
            out[at + n + _bucket(plans["mine"])] = 1
        for s, text in view.get("last_round") or ():
            out[at + n + PLAN_BUCKETS + ((s - 1 - seat) % n) * PLAN_BUCKETS + _bucket(text)] = 1

    def _results(self, results, seat: int, at: int, out: np.ndarray) -> None:
        if not results:
            return
        n = self.nseats
        for s, word in enumerate(results):
            if word in RESULT_WORDS:
                out[at + ((s - seat) % n) * 3 + RESULT_WORDS.index(word)] = 1

    # -- nested boards ------------------------------------------------------------------
    def _nested_layout(self, game, first: dict) -> None:
        self.symbols = {sym: i for i, sym in enumerate(first["symbols"])}
        self.nteams = len(first["symbols"])
        self.edge = first["edge"]
        self.dims = first["dimensions"]
        self.ncells = len(first["cells"])
        self.channels = self.nteams + 3  # owners, obstacle, protected, in the area
        self.cells_at = self._take(self.ncells * self.channels)
        self.spaces = self.ncells
        self.block_counts = [len(level) for level in first["blocks"]]
        self.blocks_at = self._take((sum(self.block_counts) + 1) * (self.nteams + 1))
        self.to_move_at = self._take(self.nseats)
        self.ply_at = self._take(1)
        self.outcome_at = self._take(3 * self.nseats)
        # the area box as a cell mask: strides of the cells string (x fastest)
        self.strides = [self.edge**d for d in range(self.dims)]

    def _encode_nested(self, view: dict, seat: int, out: np.ndarray) -> None:
        t = self.nteams
        me = self.teams[seat] if seat < len(self.teams) else seat
        C = self.channels
        at = self.cells_at
        symbols = self.symbols
        for i, ch in enumerate(view["cells"]):
            if ch == "_":
                continue
            team = symbols.get(ch)
            if team is not None:
                out[at + i * C + (team - me) % t] = 1
            elif ch == "#":
                out[at + i * C + t] = 1
            elif ch == "%":
                out[at + i * C + t + 1] = 1
        area = view.get("area")
        if area:
            idx = np.zeros(1, dtype=np.int64)
            for d, (lo, hi) in enumerate(area):
                idx = (idx[:, None] + np.arange(lo, hi + 1) * self.strides[d]).ravel()
            out[at + idx * C + t + 2] = 1
        b = 0
        for text in [*view["blocks"], view["peak"]]:
            for ch in text:
                team = symbols.get(ch)
                if team is not None:
                    out[self.blocks_at + b * (t + 1) + (team - me) % t] = 1
                elif ch == "*":
                    out[self.blocks_at + b * (t + 1) + t] = 1
                b += 1

    # -- both ---------------------------------------------------------------------------
    def encode(self, view: dict, seat: int) -> np.ndarray:
        """The vector of ``view`` (``state.view(seat)``), seen from ``seat``."""
        out = np.zeros(self.size, dtype=np.float32)
        self.encode_into(view, seat, out)
        return out

    def encode_into(self, view: dict, seat: int, out: np.ndarray) -> None:
        """Fill ``out`` (zeros, length ``size``): a row of a batch, without a copy."""
        if self.family == "nested":
            self._encode_nested(view, seat, out)
        else:
            self._encode_boards(view, seat, out)
        n = self.nseats
        for s in view.get("to_move") or ():
            out[self.to_move_at + (s - seat) % n] = 1
        out[self.ply_at] = min(2.0, (view.get("ply") or 0) / max(1, self.spaces))
        outcome = view.get("outcome")
        if outcome:
            self._results(outcome.get("results"), seat, self.outcome_at, out)


_BY_GAME: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_BY_FINGERPRINT: "OrderedDict[str, FeatureLayout]" = OrderedDict()
_KEEP = 64


def layout_for(game) -> FeatureLayout:
    """The layout of ``game``'s rule document, computed once (per compiled game, and per
    fingerprint for games compiled again)."""
    found = _BY_GAME.get(game)
    if found is not None:
        return found
    key = fingerprint(game.doc)
    found = _BY_FINGERPRINT.get(key)
    if found is None:
        found = FeatureLayout(game)
        _BY_FINGERPRINT[key] = found
        while len(_BY_FINGERPRINT) > _KEEP:
            _BY_FINGERPRINT.popitem(last=False)
    _BY_GAME[game] = found
    return found
