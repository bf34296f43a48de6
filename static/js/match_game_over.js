// The match page's game-over card (match.js): why and who, the links on, and the rating
// changes. A part of MatchClient: `this` is the client.

import { plainDetail, reasonWords } from "./board.js";
import { byId, element, show } from "./match_dom.js";

/** A number with a real minus sign, as the leaderboard writes it. */
const minus = (n) => (n < 0 ? `\u2212${Math.abs(n)}` : String(n));

export class MatchGameOver {
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
}
