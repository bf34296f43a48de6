// The match page's seats panel (match.js): each seat's player, crew, colour or mark,
// reserves and result. A part of MatchClient: `this` is the client.

import { markIcon, pieceIcon } from "./board.js";
import { element } from "./match_dom.js";

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

export class MatchSeats {
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
        // cloaked (issue 32): another seat's count as this seat saw it go: at most
        const cloaking = (view && view.cloaking) || {};
        const asSeen = (cloaking.counted || []).includes(color);
        const shapes = Object.keys(byShape);
        if (!shapes.length) {
          box.append(
            pieceIcon(color, "circle", 18),
            element("span", "text-body-secondary", "none left"),
          );
        }
        for (const shape of shapes) {
          const item = element("span", "vf-reserve");
          item.title =
            `${byShape[shape]} ${color} ${shape}${byShape[shape] === 1 ? "" : "s"} in reserve` +
            (asSeen ? " at most: pieces placed out of your sight are not counted" : "");
          const count = (asSeen ? "≤" : "") + String(byShape[shape]);
          item.append(pieceIcon(color, shape, 18), element("span", "", count));
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
}
