// The match page drawn from the state (match.js): render() redraws every panel; here are
// the turn and status lines, the board, the buttons and the draw note. A part of
// MatchClient: `this` is the client.

import { moveWords, renderBoard, renderLegend } from "./board.js";
import { byId, show } from "./match_dom.js";
import { renderPhase, turnText } from "./rounds.js";

export class MatchRender {
  // --- drawing ---------------------------------------------------------------------------

  render() {
    this.renderTurn();
    renderPhase(this.view(), this.you(), (s) => this.seatName(s), (m) => moveWords(m, this.view()));
    this.renderStatus();
    this.renderBoard();
    this.renderButtons();
    this.renderSeats();
    this.renderDrawNote();
    this.renderGameOver();
    this.renderBanners();
    this.tick();
  }

  renderTurn() {
    const node = this.el.turn;
    const view = this.view();
    node.classList.remove("is-you");
    let text = "";
    const status = this.state ? this.state.status : null;
    if (!this.state || !view) text = "Connecting…";
    else if (status === "invited") text = "Waiting for players";
    else if (status === "aborted") text = "Match aborted";
    else if (this.isOver() || view.outcome) text = "Game over";
    else {
      const toMove = view.to_move || [];
      const mine = toMove.filter((s) => this.you().includes(s));
      const round = turnText(view, this.you(), (m) => moveWords(m, view));
      if (round && !view.draw_offer) {
        text = round; // a simultaneous round: your plan, or who is still planning
        if (mine.length && (view.legal_moves || []).length) node.classList.add("is-you");
      } else if (view.draw_offer) {
        const waiting = view.draw_offer.waiting || [];
        text = waiting.some((s) => this.you().includes(s))
          ? "Draw offered: your answer"
          : `Draw offered: waiting for ${waiting.map((s) => this.seatLabel(s)).join(", ")}`;
      } else if (this.crewWaiting()) {
        text = `Your team's move: ${this.crewDueName(mine[0]) || "a crewmate"} plays it`;
      } else if (mine.length && (view.legal_moves || []).length) {
        text = "Your move";
        if (this.you().length > 1) text += ` (${this.seatName(view.seat)})`;
        if ((view.pieces_per_turn || 1) > 1) {
          text += ` · piece ${(view.placed_this_turn || 0) + 1} of ${view.pieces_per_turn}`;
        }
        node.classList.add("is-you");
      } else if (toMove.length) {
        text = `${toMove.map((s) => this.seatLabel(s)).join(", ")} Moving`;
      }
    }
    node.textContent = text;
    document.title = (node.classList.contains("is-you") ? "(Your move) " : "") + this.baseTitle;
  }

  renderStatus() {
    const state = this.state;
    if (!state) return;
    const you = this.you();
    let text = "";
    if (state.status === "invited") {
      const waiting = this.seats()
        .filter((s) => s.invitation && s.invitation !== "accepted")
        .map((s) => `${s.name || this.seatLabel(s.index)} (${s.invitation})`);
      for (const seat of this.seats()) {
        for (const m of seat.crew || []) {
          if (m.invitation !== "accepted") waiting.push(`${m.name} (${m.invitation})`);
        }
      }
      text = waiting.length
        ? `Waiting for invitations: ${waiting.join(", ")}`
        : "Waiting for players";
    } else if (state.status === "active") {
      const view = this.view();
      const rounds = view && view.phase && view.phase.order !== "sequential";
      const count = rounds
        ? `round ${Number(view.round || 0) + 1}` // the log counts every plan: say rounds
        : `move ${Number(state.ply || 0) + 1}`;
      text = this.isOver() ? "Finished" : `In play · ${count}`;
      if (!this.isOver() && view && view.last_move) {
        text += ` · last move: ${moveWords(view.last_move, view)}`;
      }
    } else if (state.status === "finished") {
      text = "Finished";
    } else if (state.status === "aborted") {
      text = "Aborted: this match will not be played.";
    }
    if (!you.length) text += " · You are watching";
    if (state.series && state.series.game > 1) text = `Game ${state.series.game} of a series · ${text}`;
    this.el.status.textContent = text;
    this.el.status.dataset.status = state.status || "";
  }

  renderBoard() {
    const view = this.view();
    if (!view) return;
    const highlight = {};
    const over = this.gameOver;
    if (over && (!view.outcome || !(view.outcome.lines || []).length)) {
      highlight.lines = over.winningLines || (over.winningLine ? [over.winningLine] : []);
    }
    // A crewmate whose turn it is not sees the board without targets to click.
    const shown = this.crewWaiting() ? { ...view, legal_moves: [], legal_cells: [] } : view;
    renderBoard(this.el.board, shown, {
      onMove: this.myTurn() ? (notation) => this.move(notation) : null,
      highlight,
    });
    this.el.board.classList.toggle("is-pending", this.pending);
    renderLegend(this.el.board, byId("vf-legend"));
    // Big boards (a 27x27 nested grid) are tiny on a phone: offer a scrollable zoom.
    const cells = this.el.board.querySelectorAll("[data-testid=cell]").length;
    show(this.el.zoom, cells > 100);
  }

  renderButtons() {
    const view = this.view();
    const playing = Boolean(
      this.state &&
      this.state.status === "active" &&
      !this.isOver() &&
      this.you().length &&
      view &&
      !view.outcome,
    );
    const legal = (playing && view.legal_moves) || [];
    show(this.el.pass, legal.includes("pass"));
    show(this.el.offerDraw, legal.includes("draw"));
    show(this.el.acceptDraw, legal.includes("accept"));
    show(this.el.declineDraw, legal.includes("decline"));
    show(this.el.resign, playing);
  }

  renderDrawNote() {
    const view = this.view();
    const node = this.el.drawNote;
    if (view && view.draw_offer && !this.isOver()) {
      const waiting = view.draw_offer.waiting || [];
      node.textContent = `A draw is offered. Waiting for: ${waiting.map((s) => this.seatName(s)).join(", ")}.`;
      show(node, true);
    } else {
      show(node, false);
    }
  }
}
