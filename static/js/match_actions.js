// What the match page's player does (match.js): a move, the buttons (pass, draw, resign,
// zoom, ready) and the "I am here" ping. A part of MatchClient: `this` is the client.

import { byId } from "./match_dom.js";

export class MatchActions {
  // --- actions ---------------------------------------------------------------------------

  move(notation) {
    if (this.pending) {
      // One move at a time: say why this click did nothing (its answer may change the board).
      this.note("Your last move is on its way: wait until it is played.", "info");
      return;
    }
    if (!this.myTurn()) return;
    const sent = this.send(this.withSeat({ type: "move", move: notation, ply: this.state.ply }));
    if (sent) {
      this.pending = true;
      this.el.board.classList.add("is-pending");
    }
  }

  wire() {
    const on = (node, handler) => node && node.addEventListener("click", handler);
    on(this.el.pass, () => this.move("pass"));
    on(this.el.offerDraw, () => this.send(this.withSeat({ type: "draw:offer" })));
    on(this.el.acceptDraw, () => this.send(this.withSeat({ type: "draw:answer", accept: true })));
    on(this.el.declineDraw, () => this.send(this.withSeat({ type: "draw:answer", accept: false })));
    on(this.el.resign, () => this.askResign());
    on(byId("vf-ready"), () => this.sayReady());
    on(this.el.zoom, () => {
      const zoomed = this.el.board.classList.toggle("is-zoomed");
      this.el.zoom.setAttribute("aria-pressed", String(zoomed));
    });
    const modal = this.el.resignModal;
    if (modal) {
      modal.addEventListener("show.bs.modal", () => (this.resignOpening = true));
      modal.addEventListener("shown.bs.modal", () => (this.resignOpening = false));
    }
    on(this.el.resignConfirm, () => {
      this.hideModal();
      this.send(this.withSeat({ type: "game:resign" }));
    });
    const activity = () => this.activity();
    for (const name of ["keydown", "pointerdown", "pointermove", "touchstart", "wheel"]) {
      document.addEventListener(name, activity, { passive: true });
    }
    window.addEventListener("online", () => {
      if (this.reconnecting) {
        window.clearTimeout(this.retry);
        this.connect();
      }
    });
  }

  askResign() {
    const modal = this.el.resignModal;
    const bootstrap = window.bootstrap;
    if (modal && bootstrap && bootstrap.Modal) {
      bootstrap.Modal.getOrCreateInstance(modal).show();
    } else if (window.confirm("Resign this game? Your side loses.")) {
      this.send(this.withSeat({ type: "game:resign" }));
    }
  }

  hideModal() {
    const modal = this.el.resignModal;
    const bootstrap = window.bootstrap;
    if (!modal || !bootstrap || !bootstrap.Modal) return;
    const dialog = bootstrap.Modal.getOrCreateInstance(modal);
    // Bootstrap ignores hide() while the dialog is still opening (a quick second tap on a
    // slow phone), which left it open over the game-over card: hide it once it is open.
    if (this.resignOpening) {
      modal.addEventListener("shown.bs.modal", () => dialog.hide(), { once: true });
    } else {
      dialog.hide();
    }
  }

  /** "I am here": only while this connection's seat is being warned. */
  activity() {
    if (!this.afkShowing() || !this.you().includes(this.afk.seat)) return;
    const now = Date.now();
    if (now - this.lastPing < 2000) return;
    this.lastPing = now;
    this.send({ type: "afk:ping" });
  }

  afkShowing() {
    return Boolean(this.afk && this.now() >= (this.afk.warnAt || 0) && !this.isOver());
  }
}
