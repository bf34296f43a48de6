// The live match page: the websocket client of play/PROTOCOL.md.
//
// Boot data: JSON.parse(#match-boot) =
//   {matchId, wsUrl, name, rulesLine, replayUrl, playNewUrl, homeUrl, state}
// where `state` is a `state` event. The server is the only authority: this page shows
// what it is told (boards, seats, clocks) and sends intentions (move, resign, draw).
//
// MatchClient is built from parts, one module each, whose methods are copied onto its
// prototype (they run with `this` the client): match_socket.js, match_actions.js,
// match_render.js, match_seats.js, match_game_over.js, match_series.js,
// match_banners.js, match_clocks.js; match_dom.js holds the DOM helpers they share.

import { fitBoard } from "./board_fit.js";
import { MatchActions } from "./match_actions.js";
import { MatchBanners } from "./match_banners.js";
import { MatchClocks } from "./match_clocks.js";
import { byId } from "./match_dom.js";
import { MatchGameOver } from "./match_game_over.js";
import { MatchRender } from "./match_render.js";
import { MatchSeats } from "./match_seats.js";
import { MatchSeries } from "./match_series.js";
import { MatchSocket } from "./match_socket.js";

export { clock } from "./match_clocks.js";

export class MatchClient {
  constructor(boot) {
    this.boot = boot;
    this.state = null;
    this.gameOver = null;
    this.pending = false;
    this.afk = null; // {seat, deadline, warnAt}
    this.disconnected = new Map(); // seat -> deadline (epoch ms)
    this.skew = 0; // server clock minus ours (state.serverTime if sent, else AFK warnings)
    this.socket = null;
    this.attempt = 0;
    this.reconnecting = false;
    this.lastPing = 0;
    this.resignOpening = false; // the Resign dialog is between show() and shown
    this.baseTitle = document.title;
    this.el = {
      board: byId("vf-board"),
      turn: byId("vf-turn"),
      status: byId("vf-status"),
      turnTimer: byId("vf-turn-timer"),
      afk: byId("vf-afk"),
      drawNote: byId("vf-draw-note"),
      seats: byId("vf-seats"),
      banners: byId("vf-banners"),
      connection: byId("vf-connection"),
      over: byId("vf-game-over"),
      pass: byId("vf-pass"),
      offerDraw: byId("vf-offer-draw"),
      acceptDraw: byId("vf-accept-draw"),
      declineDraw: byId("vf-decline-draw"),
      resign: byId("vf-resign"),
      zoom: byId("vf-zoom"),
      resignModal: byId("vf-resign-modal"),
      resignConfirm: byId("vf-resign-confirm"),
    };
    this.wire();
    if (boot.state) this.handle({ type: "state", ...boot.state });
    else this.render();
    this.timer = window.setInterval(() => this.tick(), 250);
  }

  // --- helpers ---------------------------------------------------------------------------

  now() {
    return Date.now() + this.skew;
  }

  you() {
    return (this.state && this.state.you) || [];
  }

  seats() {
    return (this.state && this.state.seats) || [];
  }

  /** Your seats whose crew's move belongs to another member (crews taking turns). */
  blocked() {
    return (this.state && this.state.blocked) || [];
  }

  /** Is every seat of yours that is to move waiting for a crewmate's move? */
  crewWaiting() {
    const view = this.view();
    const mine = ((view && view.to_move) || []).filter((s) => this.you().includes(s));
    return mine.length > 0 && mine.every((s) => this.blocked().includes(s));
  }

  /** The crew member due to move for a seat, or null (no crew, or anyone may). */
  crewDueName(index) {
    const seat = this.seats().find((s) => s.index === index);
    if (!seat || seat.crewDue == null) return null;
    if (seat.crewDue === 0) return seat.name;
    const member = (seat.crew || [])[seat.crewDue - 1];
    return member ? member.name : null;
  }

  view() {
    return (this.state && this.state.view) || null;
  }

  seatLabel(index) {
    return `Player ${Number(index) + 1}`;
  }

  seatName(index) {
    const seat = this.seats().find((s) => s.index === index);
    return seat && seat.name ? seat.name : this.seatLabel(index);
  }

  myPlayerId() {
    const seat = this.seats().find((s) => this.you().includes(s.index) && s.playerId != null);
    return seat ? seat.playerId : null;
  }

  outcome() {
    const view = this.view();
    if (this.gameOver) return this.gameOver;
    if (view && view.outcome) return view.outcome;
    return null;
  }

  isOver() {
    return Boolean(this.gameOver || (this.state && this.state.status === "finished"));
  }

  myTurn() {
    const view = this.view();
    if (!view || !this.state || this.state.status !== "active" || this.isOver()) return false;
    return (
      (view.to_move || []).some((s) => this.you().includes(s) && !this.blocked().includes(s)) &&
      (view.legal_moves || []).length > 0
    );
  }
}

// Each part's methods, as if written in the class (not enumerable, like a class's own).
for (const part of [
  MatchSocket,
  MatchActions,
  MatchRender,
  MatchSeats,
  MatchGameOver,
  MatchSeries,
  MatchBanners,
  MatchClocks,
]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === "constructor") continue;
    Object.defineProperty(
      MatchClient.prototype,
      name,
      Object.getOwnPropertyDescriptor(part.prototype, name),
    );
  }
}

function start() {
  const node = document.getElementById("match-boot");
  if (!node) return;
  const boot = JSON.parse(node.textContent);
  const client = new MatchClient(boot);
  window.vfMatch = client; // for people debugging in the console, and for tests
  const rules = document.getElementById("vf-rules");
  if (rules) rules.addEventListener("click", () => rules.classList.toggle("is-open"));
  client.connect();
  fitBoard(document.getElementById("vf-board"));
}

start();
