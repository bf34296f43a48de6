// The legend under a board (board.js renderLegend): what the marks on it mean.

import { el } from "./board_layout.js";

// What a mark on the board means, in words (the legend under the board): the selector
// that finds it on the board, a small drawing, and the words.
const LEGEND = [
  ["vf-last", "the last move", (g) => el("rect", { class: "vf-last", x: 2, y: 2, width: 16, height: 16 }, g)],
  ["vf-locked", "locked space: nobody can play there", (g, uid) => el("rect", { class: "vf-locked", x: 2, y: 2, width: 16, height: 16, fill: `url(#${uid}-hatch)` }, g)],
  ["vf-obstacle", "obstacle: nobody can play there", (g) => el("rect", { class: "vf-obstacle", x: 2, y: 2, width: 16, height: 16 }, g)],
  ["vf-protected", "protected: cannot be captured", (g, uid) => el("rect", { class: "vf-protected", x: 2, y: 2, width: 16, height: 16, fill: `url(#${uid}-hatch)` }, g)],
  ["vf-area", "where the next move must go", (g) => el("rect", { class: "vf-area", x: 2, y: 2, width: 16, height: 16 }, g)],
  ["is-captured", "a won block (the faded mark of its winner)", (g) => el("rect", { x: 2, y: 2, width: 16, height: 16, fill: "#0d6efd", opacity: 0.22 }, g)],
  ["is-drawn", "a drawn block: nobody won it", (g) => el("rect", { x: 2, y: 2, width: 16, height: 16, fill: "#6c757d", opacity: 0.3 }, g)],
  ["vf-mark-exclusive", "exclusive: only the numbered players may enter or leave", (g) => { el("rect", { class: "vf-mark-exclusive", x: 2, y: 2, width: 16, height: 16 }, g); el("text", { class: "vf-badge vf-badge-exclusive", x: 4, y: 8, "font-size": 8 }, g).textContent = "1"; }],
  ["vf-badge-locked", "locked to the numbered players (e: entry only, x: exit only)", (g) => { el("text", { class: "vf-badge vf-badge-locked", x: 3, y: 12, "font-size": 9 }, g).textContent = "✕2"; }],
  ["vf-mark-phase-locked", "locked to everyone this phase", (g, uid) => el("rect", { class: "vf-mark-phase-locked", x: 3, y: 3, width: 14, height: 14 }, g)],
  ["vf-mark-sticky", "sticky: no piece may leave", (g) => el("rect", { class: "vf-mark-sticky", x: 3, y: 14, width: 14, height: 3.5, rx: 1.5 }, g)],
  ["is-paralysed", "paralysed: this piece never moves again", (g) => el("circle", { class: "is-paralysed", cx: 10, cy: 10, r: 6, fill: "#777" }, g)],
  ["vf-obscured", "a piece whose shape you cannot see", (g) => el("rect", { x: 4, y: 4, width: 12, height: 12, rx: 4, fill: "#777" }, g)],
  ["vf-fog", "cloaked: you cannot see this space", (g) => el("rect", { class: "vf-fog-swatch", x: 2, y: 2, width: 16, height: 16 }, g)],
  ["vf-win-line", "the winning line", (g) => el("line", { class: "vf-win-line", x1: 2, y1: 18, x2: 18, y2: 2, "stroke-width": 4 }, g)],
];

/** Fill `legend` (a <ul>) with what the marks on the board in `container` mean; hidden
 * when the board has none of them. */
export function renderLegend(container, legend) {
  if (!legend) return;
  legend.replaceChildren();
  const svg = container.querySelector("svg.vf-board");
  for (const [cls, words, draw] of LEGEND) {
    if (!svg || !svg.querySelector(`.${cls}`)) continue;
    const li = document.createElement("li");
    li.dataset.legend = cls;
    const icon = el("svg", { viewBox: "0 0 20 20", width: 18, height: 18, class: "vf-icon", "aria-hidden": "true" });
    const defs = el("defs", {}, icon);
    const uid = `lg${cls}`;
    const hatch = el("pattern", { id: `${uid}-hatch`, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 6, height: 6, fill: "#eceff1" }, hatch);
    el("rect", { width: 3, height: 6, fill: "#b0bec5" }, hatch);
    el("rect", { x: 0.5, y: 0.5, width: 19, height: 19, fill: "#fff", stroke: "#ced4da" }, icon);
    draw(icon, uid);
    li.append(icon, document.createTextNode(` ${words}`));
    legend.append(li);
  }
  legend.hidden = !legend.children.length;
}
