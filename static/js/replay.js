// A match, move by move: first/previous/next/last, a slider, arrow keys and the move list.
//
// Data: JSON.parse(#replay-data) =
//   {matchId, name, rulesLine, seats: [{index, name, color}],
//    frames: [{ply, seat, move, view}], total, pageSize, framesUrl, outcome}
// Frame 0 is the start (move null); frame k is the position after its move. `outcome` is
// the game's end ({reason, winners, detail, ...} as in game:over or the engine's outcome),
// or null while the match is not finished. A link may name a frame: #ply=12.
// The page holds the first `pageSize` of the `total` frames; the others are fetched a page
// at a time (framesUrl?start=K -> {start, total, frames}) as the viewer steps to them: a
// long game's every view at once was an 83 MB page.

import {
  markIcon,
  moveWords,
  pieceIcon,
  plainDetail,
  reasonWords,
  renderBoard,
  renderLegend,
} from "./board.js";
import { fitBoard } from "./board_fit.js";
import { byId, element } from "./match_dom.js";
import { roundFrameText } from "./rounds.js";

export class Replay {
  constructor(data) {
    this.data = data;
    this.frames = []; // sparse: the frames loaded so far, by index
    (data.frames || []).forEach((frame, k) => (this.frames[k] = frame));
    this.total = Number.isFinite(data.total) ? data.total : this.frames.length;
    this.pageSize = data.pageSize || Math.max(1, this.frames.length);
    this.loading = null;
    this.index = 0;
    this.el = {
      board: byId("vf-board"),
      moveText: byId("vf-move-text"),
      position: byId("vf-position"),
      slider: byId("vf-slider"),
      first: byId("vf-first"),
      prev: byId("vf-prev"),
      next: byId("vf-next"),
      last: byId("vf-last"),
      moves: byId("vf-moves"),
      seats: byId("vf-seats"),
      outcome: byId("vf-outcome"),
    };
    this.el.slider.max = String(Math.max(0, this.total - 1));
    this.buildMoves();
    this.renderSeats();
    this.renderOutcome();
    this.wire();
    this.goToHash();
  }

  /** Fetch the page of frames holding frame ``index`` (once; resolves when stored). */
  load(index) {
    const start = Math.floor(index / this.pageSize) * this.pageSize;
    if (this.loading && this.loading.start === start) return this.loading.promise;
    const url = `${this.data.framesUrl}?start=${start}`;
    const promise = fetch(url, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json();
      })
      .then((page) => {
        (page.frames || []).forEach((frame, k) => (this.frames[page.start + k] = frame));
        if (Number.isFinite(page.total)) this.total = page.total;
        this.el.slider.max = String(Math.max(0, this.total - 1));
        this.buildMoves();
      })
      .finally(() => {
        if (this.loading && this.loading.start === start) this.loading = null;
      });
    this.loading = { start, promise };
    return promise;
  }

  goToHash() {
    const ply = this.plyFromHash();
    const at = this.frameOfPly(ply);
    if (at >= 0 || ply === null || ply >= this.total) {
      this.go(at >= 0 ? at : 0, false);
      return;
    }
    // Not loaded yet: frame k is after ply k, or earlier (a round is one frame).
    this.load(ply).then(
      () => this.go(Math.max(0, this.frameOfPly(ply)), false),
      () => this.go(0, false),
    );
  }

  seatName(index) {
    const seat = (this.data.seats || []).find((s) => s.index === index);
    return seat && seat.name ? seat.name : `Player ${Number(index) + 1}`;
  }

  plyFromHash() {
    const match = /ply=(\d+)/.exec(window.location.hash || "");
    return match ? Number(match[1]) : null;
  }

  frameOfPly(ply) {
    if (ply === null) return 0;
    return this.frames.findIndex((f) => f && f.ply === ply);
  }

  wire() {
    this.el.first.addEventListener("click", () => this.go(0));
    this.el.prev.addEventListener("click", () => this.go(this.index - 1));
    this.el.next.addEventListener("click", () => this.go(this.index + 1));
    this.el.last.addEventListener("click", () => this.go(this.total - 1));
    this.el.slider.addEventListener("input", () => this.go(Number(this.el.slider.value)));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      // The slider and text fields handle their own keys.
      if (target && (target === this.el.slider || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)))
        return;
      const inList = Boolean(target && target.closest && target.closest(".vf-moves"));
      // Left/right step anywhere; up/down step inside the move list (elsewhere they scroll).
      const keys = inList
        ? { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }
        : { ArrowLeft: -1, ArrowRight: 1 };
      const step = keys[event.key];
      if (step) {
        event.preventDefault();
        this.go(this.index + step);
        if (inList) this.focusCurrentMove();
      } else if (event.key === "Home") {
        event.preventDefault();
        this.go(0);
      } else if (event.key === "End") {
        event.preventDefault();
        this.go(this.total - 1);
      }
    });
  }

  buildMoves() {
    const list = this.el.moves;
    list.replaceChildren();
    this.frames.forEach((frame, i) => {
      const li = element("li");
      const button = element("button");
      button.type = "button";
      button.dataset.testid = "move-item";
      button.dataset.frame = i;
      button.dataset.ply = frame.ply;
      if (i === 0) {
        button.append(element("span", "vf-ply", ""), "Start");
      } else if (this.roundText(frame)) {
        // A simultaneous round: every seat's move in one frame (or who planned, unresolved).
        button.append(element("span", "vf-ply", `${frame.ply}.`), this.roundText(frame));
      } else {
        const words = this.words(frame);
        button.append(
          element("span", "vf-ply", `${frame.ply}.`),
          `${this.seatName(frame.seat)}: ${words} `,
        );
        // The notation as written, in grey, when the words say it differently.
        if (words !== (frame.move || "")) {
          button.append(element("code", "vf-move small text-body-secondary", frame.move || ""));
        }
      }
      button.addEventListener("click", () => this.go(i));
      li.append(button);
      list.append(li);
    });
  }

  roundText(frame) {
    return roundFrameText(
      frame,
      (s) => this.seatName(s),
      (m) => moveWords(m, frame.view || null),
    );
  }

  /** The frame's move in plain words ("column 4", "centre block, top-right cell"). */
  words(frame) {
    const view = frame.view || (this.frames[0] && this.frames[0].view) || null;
    return moveWords(frame.move || "", view);
  }

  /** "column 4 (4,1)"; just the words when they are the notation ("Disconnect"). */
  wordsAndNotation(frame) {
    const words = this.words(frame);
    return words === (frame.move || "") ? words : `${words} (${frame.move})`;
  }

  focusCurrentMove() {
    const current = this.el.moves.querySelector('[aria-current="true"]');
    if (current) current.focus();
  }

  go(index, updateHash = true) {
    if (!this.total) {
      this.el.moveText.textContent = "No moves to show.";
      return;
    }
    const i = Math.max(0, Math.min(this.total - 1, Number.isFinite(index) ? index : 0));
    const frame = this.frames[i];
    if (!frame) {
      // Not loaded yet: fetch its page, then show it (unless the viewer moved on).
      this.el.moveText.textContent = "Loading…";
      this.wanted = i;
      this.load(i).then(
        () => {
          if (this.wanted === i && this.frames[i]) this.go(i, updateHash);
        },
        () => {
          this.el.moveText.textContent = "These moves could not be loaded. Reload the page.";
        },
      );
      return;
    }
    this.wanted = i;
    this.index = i;
    const lastFrame = i === this.total - 1;
    const highlight = {};
    const outcome = this.data.outcome;
    const viewLines = frame.view && frame.view.outcome && frame.view.outcome.lines;
    if (lastFrame && outcome && !(viewLines && viewLines.length)) {
      const lines =
        outcome.winningLines ||
        outcome.lines ||
        (outcome.winningLine ? [outcome.winningLine] : null);
      if (lines) highlight.lines = lines;
    }
    if (frame.view) renderBoard(this.el.board, frame.view, { highlight });
    renderLegend(this.el.board, byId("vf-legend"));
    const round = this.roundText(frame);
    this.el.moveText.textContent =
      i === 0
        ? "The start"
        : round
          ? `${frame.ply}. ${round}`
          : `${frame.ply}. ${this.seatName(frame.seat)}: ${this.wordsAndNotation(frame)}`;
    this.el.position.textContent = `Position ${i} of ${this.total - 1}`;
    this.el.slider.value = String(i);
    this.el.slider.setAttribute(
      "aria-valuetext",
      i === 0 ? "Start" : round || `Move ${frame.ply}: ${frame.move}`,
    );
    this.el.first.disabled = this.el.prev.disabled = i === 0;
    this.el.next.disabled = this.el.last.disabled = lastFrame;
    for (const button of this.el.moves.querySelectorAll("button")) {
      const current = Number(button.dataset.frame) === i;
      button.setAttribute("aria-current", current ? "true" : "false");
      if (current) button.scrollIntoView({ block: "nearest" });
    }
    this.el.board.dataset.frame = i;
    if (updateHash && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", `#ply=${frame.ply}`);
    }
  }

  renderSeats() {
    const list = this.el.seats;
    const first = this.frames[0] && this.frames[0].view;
    const nested = first && first.family === "nested";
    const results = (this.data.outcome && this.data.outcome.results) || null;
    list.replaceChildren();
    for (const seat of this.data.seats || []) {
      const li = element("li", "vf-seat");
      li.dataset.testid = "seat";
      const body = element("div", "vf-seat-body");
      const name = element("div", "vf-seat-name", `Player ${seat.index + 1}: ${seat.name || ""}`);
      body.append(name);
      const meta = element("div", "vf-seat-meta");
      if (nested && first.symbols) {
        const team = first.teams ? first.teams[seat.index] : seat.index;
        meta.append(markIcon(first.symbols[team], first.seat_colors[team], 18));
      } else if (seat.color) {
        meta.append(pieceIcon(seat.color, "circle", 18), element("span", "", seat.color));
      }
      const result = results && results[seat.index];
      if (result) {
        const words = { win: "won", draw: "drew", loss: "lost" };
        meta.append(
          element(
            "span",
            `badge ${result === "win" ? "text-bg-success" : "text-bg-secondary"}`,
            words[result] || result,
          ),
        );
      }
      body.append(meta);
      li.append(body);
      list.append(li);
    }
  }

  renderOutcome() {
    const outcome = this.data.outcome;
    if (!outcome) return;
    byId("vf-outcome-reason").textContent = reasonWords(outcome.reason);
    const winners = outcome.winners || (outcome.winner != null ? [outcome.winner] : []);
    byId("vf-outcome-winners").textContent = winners.length
      ? `${winners.length > 1 ? "Winners" : "Winner"}: ${winners.map((w) => this.seatName(w)).join(" & ")}`
      : "No winner";
    byId("vf-outcome-detail").textContent = plainDetail(outcome.detail || "").replace(
      /\bSeat (\d+)/g,
      (_m, n) => this.seatName(Number(n) - 1),
    );
    this.el.outcome.dataset.reason = outcome.reason || "";
    this.el.outcome.hidden = false;
  }
}

function start() {
  const node = document.getElementById("replay-data");
  if (!node) return;
  window.vfReplay = new Replay(JSON.parse(node.textContent));
  fitBoard(document.getElementById("vf-board"));
}

start();
