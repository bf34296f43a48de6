// The live match page: the websocket client of play/PROTOCOL.md.
//
// Boot data: JSON.parse(#match-boot) =
//   {matchId, wsUrl, name, rulesLine, replayUrl, playNewUrl, homeUrl, state}
// where `state` is a `state` event. The server is the only authority: this page shows
// what it is told (boards, seats, clocks) and sends intentions (move, resign, draw).

import {
  markIcon,
  moveWords,
  pieceIcon,
  plainDetail,
  reasonWords,
  renderBoard,
  renderLegend,
} from "./board.js";
import { inRound, renderPhase, roundNote, turnText } from "./rounds.js";

const KIND_ICONS = {
  human: "fa-user",
  bot: "fa-cogs",
  random: "fa-random",
  persona: "fa-user-secret",
  ownbot: "fa-plug", // a trainer's own AI, connected over /ws/bot/ (online like a person)
  chaos: "fa-bolt",
  open: "fa-user-plus",
};
const RESULT_WORDS = { win: "won", draw: "drew", loss: "lost" };
const RECONNECT_MAX_MS = 10000;

const byId = (id) => document.getElementById(id);

function show(node, visible) {
  if (node) node.hidden = !visible;
}

/** "1:05" from milliseconds (never negative). */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours
    ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A number with a real minus sign, as the leaderboard writes it. */
const minus = (n) => (n < 0 ? `\u2212${Math.abs(n)}` : String(n));

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

  // --- the socket ------------------------------------------------------------------------

  socketUrl() {
    const url = this.boot.wsUrl || `/ws/match/${this.boot.matchId}/`;
    if (/^wss?:\/\//.test(url)) return url;
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + window.location.host + (url.startsWith("/") ? url : `/${url}`);
  }

  connect() {
    let socket;
    try {
      socket = new WebSocket(this.socketUrl());
    } catch (error) {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      if (this.reconnecting) {
        const playerId = this.myPlayerId();
        this.send(playerId ? { type: "game:reconnect", playerId } : { type: "game:reconnect" });
      }
      this.reconnecting = false;
      this.attempt = 0;
      show(this.el.connection, false);
      const outbox = this.outbox || [];
      this.outbox = [];
      outbox.forEach((message) => socket.send(JSON.stringify(message)));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handle(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      const waiting = this.intermission(); // the next game may still start: stay in touch
      if (!waiting && (this.isOver() || (this.state && this.state.status === "aborted"))) return;
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    this.reconnecting = true;
    this.pending = false;
    this.outbox = []; // a move queued on a socket that never opened: made afresh, not replayed
    show(this.el.connection, true);
    const delay = Math.min(500 * 2 ** this.attempt, RECONNECT_MAX_MS) + Math.random() * 250;
    this.attempt += 1;
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => this.connect(), delay);
  }

  send(message) {
    // A click while the page's socket is still opening (just after a load or reload) is
    // sent once it opens, not dropped: the board is drawn before the socket is up.
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING && !this.reconnecting) {
      (this.outbox = this.outbox || []).push(message);
      return true;
    }
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.showError("Not connected to the game server: reconnecting…");
      return false;
    }
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** The seat field, needed only when this connection holds several seats. */
  withSeat(message) {
    const you = this.you();
    if (you.length > 1 && this.state && this.state.view && this.state.view.seat != null) {
      message.seat = this.state.view.seat;
    }
    return message;
  }

  // --- what the server says ------------------------------------------------------------

  handle(message) {
    switch (message.type) {
      case "state":
        this.state = message;
        this.pending = false;
        // Optional: a server clock reading corrects the countdowns for a skewed local clock.
        if (typeof message.serverTime === "number") this.skew = message.serverTime - Date.now();
        this.syncTimers(message.timers || {});
        this.render();
        break;
      case "game:over":
        this.gameOver = message;
        this.afk = null;
        this.render();
        break;
      case "player:disconnected":
        this.disconnected.set(message.seat, message.deadline);
        this.renderBanners();
        this.renderSeats();
        break;
      case "player:reconnected":
        this.disconnected.delete(message.seat);
        // Not to the person who came back ("bob is back." on bob's own page).
        if (!this.you().includes(message.seat)) this.note(`${this.seatName(message.seat)} is back.`);
        this.renderBanners();
        this.renderSeats();
        break;
      case "tictactoe:afk_warning":
        if (typeof message.secondsLeft === "number" && message.deadline) {
          const skew = message.deadline - message.secondsLeft * 1000 - Date.now();
          if (Math.abs(skew) > 1500) this.skew = skew;
        }
        this.afk = { seat: message.seat, deadline: message.deadline, warnAt: 0 };
        this.tick();
        break;
      case "tictactoe:afk_warning_cleared":
        this.afk = null;
        this.tick();
        break;
      case "series:next":
        // Everyone is ready: the series' next game started; every page moves to it.
        this.goNext(message.url);
        break;
      case "series:over":
        this.note(message.reason || "The series is over.", "secondary");
        break;
      case "round:resolved":
        // A simultaneous round's plans, played together (the state came just before).
        this.note(
          roundNote(message, (s) => this.seatName(s), (m) => moveWords(m, this.view())),
          "info",
        );
        break;
      case "draw:offer":
        this.note(`${this.seatLabel(message.seat)} offers a draw.`, "info");
        break;
      case "draw:answer":
        this.note(
          `${this.seatLabel(message.seat)} ${message.accept ? "accepted" : "declined"} the draw.`,
          message.accept ? "success" : "secondary",
        );
        break;
      case "error":
        this.pending = false;
        this.showError(message.reason || message.code || "Something went wrong.", message.code);
        this.renderBoard();
        break;
      default:
        break;
    }
  }

  syncTimers(timers) {
    // Simultaneous order: every team has its own AFK timer; a player watches their own.
    const team = (timers.teams || []).find((t) => t.afk && this.you().includes(t.seat));
    const afk = team ? { seat: team.seat, ...team.afk } : timers.afk;
    if (afk) {
      const same = this.afk && this.afk.seat === afk.seat && this.afk.deadline === afk.deadline;
      if (!same) this.afk = { ...afk };
    } else {
      this.afk = null;
    }
    this.disconnected = new Map((timers.disconnected || []).map((d) => [d.seat, d.deadline]));
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

  // --- actions ---------------------------------------------------------------------------

  move(notation) {
    if (this.pending || !this.myTurn()) return;
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
    if (modal && bootstrap && bootstrap.Modal) bootstrap.Modal.getOrCreateInstance(modal).hide();
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

  /** "Crew: Ann → Bob (to move)": the people sharing a seat's team, in their order. */
  crewLine(seat, moving) {
    const line = element("div", "vf-seat-crew small");
    line.dataset.testid = "crew";
    const people = [seat.name, ...seat.crew.map((m) => m.name)];
    line.append(seat.crewOrder === "flexible" ? "Crew (anyone moves): " : "Crew, in turn: ");
    people.forEach((name, k) => {
      if (k) line.append(seat.crewOrder === "flexible" ? ", " : " → ");
      const member = k ? seat.crew[k - 1] : null;
      const due = moving && !this.isOver() && seat.crewDue === k;
      const span = element("span", due ? "fw-bold" : "", name);
      if (due) span.dataset.due = "1";
      line.append(span);
      if (due) line.append(" (to move)");
      if (member && member.invitation && member.invitation !== "accepted") {
        line.append(" ", element("span", "badge text-bg-warning", `invitation ${member.invitation}`));
      }
    });
    return line;
  }

  renderSeats() {
    const list = this.el.seats;
    const view = this.view();
    if (!list || !this.state) return;
    const toMove = (view && view.to_move) || [];
    const you = this.you();
    const reserves = (view && view.reserves) || {};
    const nested = view && view.family === "nested";
    const outcome = this.outcome();
    const results = (outcome && outcome.results) || null;
    list.replaceChildren();
    for (const seat of this.seats()) {
      const i = seat.index;
      const li = element("li", "vf-seat");
      li.dataset.testid = "seat";
      li.dataset.seat = i;
      if (toMove.includes(i) && !this.isOver()) li.classList.add("is-moving");
      const offline = seat.connected === false || this.disconnected.has(i);
      if (offline && seat.kind !== "bot" && seat.kind !== "random" && seat.kind !== "chaos") {
        li.classList.add("is-offline");
      }
      const avatar = element("div", "vf-avatar");
      const icon = element("i", `fa ${KIND_ICONS[seat.kind] || "fa-user"}`);
      icon.setAttribute("aria-hidden", "true");
      avatar.append(icon);
      const body = element("div", "vf-seat-body");
      const name = element("div", "vf-seat-name");
      name.append(`${this.seatLabel(i)}: ${seat.name || "open seat"}`);
      if (you.includes(i)) name.append(" ", element("span", "badge text-bg-primary", "you"));
      body.append(name);
      if ((seat.crew || []).length) body.append(this.crewLine(seat, toMove.includes(i)));

      const meta = element("div", "vf-seat-meta");
      const team = view && view.teams ? view.teams[i] : i;
      const color = seat.color || (view && view.seat_colors && view.seat_colors[nested ? team : i]);
      if (nested && view.symbols) {
        meta.append(markIcon(view.symbols[team], view.seat_colors[team], 18));
      }
      if (seat.kind) meta.append(element("span", "", seat.kind));
      if (seat.kind === "human" || seat.kind === "persona" || seat.kind === "ownbot") {
        const dot = element("span", "vf-dot");
        dot.title = offline ? "offline" : "online";
        meta.append(dot, element("span", "", offline ? "offline" : "online"));
      }
      if (seat.invitation && seat.invitation !== "accepted") {
        meta.append(element("span", "badge text-bg-warning", `invitation ${seat.invitation}`));
      }
      const result = seat.result || (results && results[i]);
      if (result && this.isOver()) {
        const cls =
          result === "win"
            ? "text-bg-success"
            : result === "loss"
              ? "text-bg-secondary"
              : "text-bg-info";
        const badge = element("span", `badge ${cls}`, RESULT_WORDS[result] || result);
        badge.dataset.testid = "seat-result";
        meta.append(badge);
      }
      body.append(meta);

      if (!nested && color) {
        const box = element("div", "vf-reserves");
        box.dataset.testid = "reserves";
        const byShape = reserves[color] || {};
        const shapes = Object.keys(byShape);
        if (!shapes.length) {
          box.append(
            pieceIcon(color, "circle", 18),
            element("span", "text-body-secondary", "none left"),
          );
        }
        for (const shape of shapes) {
          const item = element("span", "vf-reserve");
          item.title = `${byShape[shape]} ${color} ${shape}${byShape[shape] === 1 ? "" : "s"} in reserve`;
          item.append(pieceIcon(color, shape, 18), element("span", "", String(byShape[shape])));
          item.dataset.color = color;
          item.dataset.shape = shape;
          item.dataset.count = byShape[shape];
          box.append(item);
        }
        body.append(box);
      }
      li.append(avatar, body);
      list.append(li);
    }
    // Reserves of colours no seat owns (a shared or chosen colour).
    const owned = new Set(this.seats().map((s) => s.color));
    const shared = Object.keys(reserves).filter((c) => !owned.has(c));
    if (!nested && shared.length) {
      const li = element("li", "vf-seat vf-shared");
      const body = element("div", "vf-seat-body");
      body.append(element("div", "vf-seat-name", "Shared reserves"));
      const box = element("div", "vf-reserves");
      for (const color of shared) {
        for (const [shape, n] of Object.entries(reserves[color])) {
          const item = element("span", "vf-reserve");
          item.append(pieceIcon(color, shape, 18), element("span", "", String(n)));
          box.append(item);
        }
      }
      body.append(box);
      li.append(body);
      list.append(li);
    }
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

  renderGameOver() {
    const over = this.outcome();
    const node = this.el.over;
    if (!this.isOver() && !(this.view() && this.view().outcome)) {
      show(node, false);
      return;
    }
    const reason = over ? over.reason : null;
    byId("vf-over-reason").textContent = reasonWords(reason);
    const winners = over ? over.winners || (over.winner != null ? [over.winner] : []) : [];
    const names = winners.map((w) => this.seatName(w));
    byId("vf-over-winners").textContent = names.length
      ? `${names.length > 1 ? "Winners" : "Winner"}: ${names.join(" & ")}`
      : "No winner";
    // The engine names seats by number ("Seat 1 left the game") and speaks of nested
    // boards' "peak": say who, in plain words.
    const detail = plainDetail((over && over.detail) || "").replace(/\bSeat (\d+)/g, (_m, n) =>
      this.seatName(Number(n) - 1),
    );
    byId("vf-over-detail").textContent = detail;
    const replay = byId("vf-replay-link");
    const playNew = byId("vf-play-new");
    const home = byId("vf-home-link");
    if (replay) {
      if (this.boot.replayUrl) replay.href = this.boot.replayUrl;
      show(replay, Boolean(this.boot.replayUrl));
    }
    if (playNew) {
      if (this.boot.playNewUrl) playNew.href = this.boot.playNewUrl;
      show(playNew, Boolean(this.boot.playNewUrl));
    }
    if (home && this.boot.homeUrl) home.href = this.boot.homeUrl;
    node.dataset.reason = reason || "";
    this.renderSeries();
    const first = node.hidden;
    show(node, true);
    if (first && this.isOver()) {
      // Phones: the panel sits under the board; bring it into view once.
      if (node.getBoundingClientRect().top > window.innerHeight - 80) {
        node.scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
      this.loadRatings();
    }
  }

  // --- a series: the intermission between games (seed 001) ------------------------------

  /** The running intermission's series data, or null. */
  intermission() {
    const series = this.state && this.state.series;
    return series && series.deadline && this.state.status === "finished" ? series : null;
  }

  goNext(url) {
    if (!url || this.leaving) return;
    this.leaving = true;
    window.location.assign(url);
  }

  /** Player id -> name, seats' players and their crews. */
  playerNames() {
    const names = new Map();
    for (const seat of this.seats()) {
      if (seat.playerId != null) names.set(seat.playerId, seat.name);
      for (const m of seat.crew || []) names.set(m.playerId, m.name);
    }
    return names;
  }

  renderSeries() {
    const box = byId("vf-series");
    const series = this.state && this.state.series;
    if (!box) return;
    if (!series || this.state.status !== "finished" || !(series.deadline || series.end)) {
      show(box, false);
      return;
    }
    const text = byId("vf-series-text");
    const ready = byId("vf-ready");
    const who = byId("vf-series-who");
    const next = series.game + 1;
    who.replaceChildren();
    if (series.end === "next") {
      text.replaceChildren(`Game ${next} of the series has started. `);
      if (series.next) {
        const link = element("a", "", `Go to game ${next}`);
        link.href = series.next;
        link.dataset.testid = "series-next";
        text.append(link);
        if (this.sawIntermission) this.goNext(series.next);
      }
      show(ready, false);
      show(byId("vf-series-clock"), false);
    } else if (series.end === "expired" || !series.deadline) {
      text.textContent = "The series is over: not everyone was ready in time.";
      show(ready, false);
      show(byId("vf-series-clock"), false);
    } else {
      this.sawIntermission = true;
      text.textContent =
        `Game ${next} of the series starts as soon as everyone is ready, ` +
        "with colours swapped.";
      const names = this.playerNames();
      const mineIds = this.seats()
        .filter((s) => this.you().includes(s.index))
        .map((s) => s.playerId);
      const iAmReady =
        this.readySent || (mineIds.length && mineIds.every((id) => series.ready.includes(id)));
      if (this.you().length) {
        byId("vf-ready-label").textContent = iAmReady
          ? "You are ready"
          : `Ready for game ${next}`;
        ready.disabled = Boolean(iAmReady);
        show(ready, true);
      } else {
        show(ready, false);
      }
      for (const id of series.people) {
        const yes = series.ready.includes(id);
        const li = element("li", yes ? "text-success" : "text-body-secondary");
        li.dataset.testid = "series-person";
        li.dataset.ready = yes ? "1" : "0";
        const icon = element("i", `fa ${yes ? "fa-check" : "fa-clock-o"} me-1`);
        icon.setAttribute("aria-hidden", "true");
        li.append(icon, `${names.get(id) || "A player"}: ${yes ? "ready" : "not ready yet"}`);
        who.append(li);
      }
      show(byId("vf-series-clock"), true);
    }
    show(box, true);
  }

  sayReady() {
    if (this.send({ type: "series:ready" })) {
      this.readySent = true;
      this.renderSeries();
    }
  }

  /** The rating change of each rated seat, asked for until the server has rated the match
   * (ratings are applied just after the game ends). */
  async loadRatings(attempt = 0) {
    const box = byId("vf-over-ratings");
    if (!box || !this.boot.ratingsUrl || this.ratingsShown) return;
    let data = null;
    try {
      const response = await fetch(this.boot.ratingsUrl, { headers: { Accept: "application/json" } });
      if (response.ok) data = await response.json();
    } catch (_error) {
      data = null;
    }
    if (!data || !data.ready) {
      if (attempt < 12) setTimeout(() => this.loadRatings(attempt + 1), 500 + attempt * 250);
      else box.textContent = "";
      return;
    }
    this.ratingsShown = true;
    box.replaceChildren();
    if (!data.rated) {
      box.append(element("li", "text-body-secondary", "Not rated: ratings do not change."));
    }
    for (const change of data.changes) {
      const li = element("li", "vf-rating-change");
      li.dataset.testid = "rating-change";
      const sign = change.change > 0 ? "+" : change.change < 0 ? "\u2212" : "\u00b1";
      const tone = change.change > 0 ? "text-success" : change.change < 0 ? "text-danger" : "";
      li.append(
        element("span", "", `${change.name}: rating ${minus(change.before)} \u2192 ${minus(change.after)} `),
        element("strong", tone, `(${sign}${Math.abs(change.change)})`),
      );
      box.append(li);
    }
    show(box, true);
  }

  renderBanners() {
    const host = this.el.banners;
    for (const old of host.querySelectorAll("[data-testid=disconnected-banner]")) {
      if (!this.disconnected.has(Number(old.dataset.seat)) || this.isOver()) old.remove();
    }
    if (this.isOver()) return;
    for (const [seat] of this.disconnected) {
      if (host.querySelector(`[data-testid=disconnected-banner][data-seat="${seat}"]`)) continue;
      const banner = element("div", "alert alert-warning py-2");
      banner.setAttribute("role", "status");
      banner.dataset.testid = "disconnected-banner";
      banner.dataset.seat = seat;
      const icon = element("i", "fa fa-plug me-1");
      icon.setAttribute("aria-hidden", "true");
      const wait = element("span", "vf-banner-wait");
      wait.setAttribute("aria-live", "off");
      banner.append(icon, element("span", "vf-banner-name"), " disconnected.", wait);
      host.append(banner);
    }
    this.tick();
  }

  /** Errors stay until dismissed; one at a time. */
  showError(reason, code = "") {
    const host = this.el.banners;
    for (const old of host.querySelectorAll("[data-testid=error]")) old.remove();
    const alert = element("div", "alert alert-danger alert-dismissible fade show");
    alert.setAttribute("role", "alert");
    alert.dataset.testid = "error";
    alert.dataset.code = code || "";
    alert.append(element("span", "vf-error-text", reason));
    const close = element("button", "btn-close");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss");
    close.dataset.testid = "error-dismiss";
    close.addEventListener("click", () => alert.remove());
    alert.append(close);
    host.prepend(alert);
  }

  /** A short-lived note (a player is back, a draw answered). */
  note(text, tone = "success") {
    // The same note twice (a page reloaded twice) is shown once, its time restarted.
    for (const old of this.el.banners.querySelectorAll("[data-testid=note]")) {
      if (old.textContent === text) old.remove();
    }
    const node = element("div", `alert alert-${tone} py-2`, text);
    node.setAttribute("role", "status");
    node.dataset.testid = "note";
    this.el.banners.append(node);
    window.setTimeout(() => node.remove(), 6000);
  }

  /** Countdowns only: the server decides when anything expires. */
  tick() {
    const now = this.now();
    const timers = (this.state && this.state.timers) || {};
    const active = this.state && this.state.status === "active" && !this.isOver();

    const turn = this.el.turnTimer;
    // Simultaneous order: each team has its own clock; a player sees their team's.
    const team = (timers.teams || []).find((t) => this.you().includes(t.seat));
    const turnDeadline = team ? team.turnDeadline : timers.turnDeadline;
    if (active && turnDeadline) {
      // A plan registered: the clock shown is the others' (yours stopped with your plan).
      const planned = inRound(this.view()) && this.view().plans.mine && !team;
      const label = planned ? "Time left for the others" : "Time for this move";
      turn.textContent = `${label}: ${clock(turnDeadline - now)}`;
      show(turn, true);
    } else if (this.state && this.state.status === "invited" && timers.inviteDeadline) {
      turn.textContent = `Invitations expire in ${clock(timers.inviteDeadline - now)}`;
      show(turn, true);
    } else {
      show(turn, false);
    }

    const series = this.intermission();
    const left = byId("vf-series-left");
    if (series && left) {
      const ms = series.deadline - now;
      left.textContent =
        ms > 0 ? `${clock(ms)} left to get ready` : "Time is up: the series ends unless all are ready";
    }

    const afk = this.el.afk;
    if (this.afkShowing()) {
      const mine = this.you().includes(this.afk.seat);
      const key = `${this.afk.seat}:${this.afk.deadline}:${mine}`;
      if (afk.dataset.key !== key) {
        // Built once per warning: the alert is announced once, not at every tick.
        afk.replaceChildren();
        const icon = element("i", "fa fa-hourglass-half me-1");
        icon.setAttribute("aria-hidden", "true");
        const count = element("strong", "vf-timer");
        count.dataset.testid = "afk-countdown";
        count.setAttribute("aria-live", "off");
        if (mine) {
          afk.append(
            icon,
            "Are you still there? Move, or press any key, within ",
            count,
            " or you lose the game.",
          );
        } else {
          afk.append(
            icon,
            `${this.seatName(this.afk.seat)} seems away: they lose in `,
            count,
            " unless they move.",
          );
        }
        afk.dataset.key = key;
        afk.dataset.seat = this.afk.seat;
      }
      afk.querySelector("[data-testid=afk-countdown]").textContent = clock(this.afk.deadline - now);
      show(afk, true);
    } else {
      afk.dataset.key = "";
      show(afk, false);
    }

    for (const banner of this.el.banners.querySelectorAll("[data-testid=disconnected-banner]")) {
      const seat = Number(banner.dataset.seat);
      const deadline = this.disconnected.get(seat);
      const left = deadline ? deadline - now : 0;
      banner.querySelector(".vf-banner-name").textContent = this.seatName(seat);
      banner.querySelector(".vf-banner-wait").textContent =
        left > 0
          ? ` Waiting ${clock(left)} for them to come back.`
          : " Their time to come back is up.";
    }
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
}

start();
