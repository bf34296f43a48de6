// The match page's websocket (match.js): connecting and reconnecting, sending, and what
// the server says (play/PROTOCOL.md). A part of MatchClient: `this` is the client.

import { moveWords } from "./board.js";
import { show } from "./match_dom.js";
import { roundNote } from "./rounds.js";

const RECONNECT_MAX_MS = 10000;

export class MatchSocket {
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
        this.hideModal(); // the game is over: nothing left to resign
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
}
