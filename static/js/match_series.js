// A series on the match page (match.js): the intermission between games, who is ready,
// and the move to the next game. A part of MatchClient: `this` is the client.

import { byId, element, show } from "./match_dom.js";

export class MatchSeries {
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
}
