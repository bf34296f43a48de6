// The match page's countdowns (match.js): the move's or the invitations' time, the
// series' intermission, an AFK warning and a disconnected player's wait. A part of
// MatchClient: `this` is the client.

import { byId, element, show } from "./match_dom.js";
import { inRound } from "./rounds.js";

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

export class MatchClocks {
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
