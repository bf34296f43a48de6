// The match page's banners (match.js): a disconnected player, an error, a short note.
// A part of MatchClient: `this` is the client.

import { element } from "./match_dom.js";

export class MatchBanners {
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
}
