// The paper game's fields (seed 002), drawn by board_nested.js: numbers on the board.
//
// Switched on by static/js/paper.js (the match page): `numbers` writes each block's
// number (S/T, as moves are written) in its corner; `routes` writes the route numbers
// (Map-like: beside each row of a block; Hypermap-like: in each empty cell) and, while a
// legal cell is pointed at or focused, outlines the block it would send the next player to.

import { U, blockLow, el } from "./board_layout.js";

export const paperFields = { numbers: false, routes: false };

/** Positions (0-based, levels 1..N) of ground cell (x, y). */
function cellPath(x, y, S, N) {
  const path = [];
  for (let lv = 1; lv <= N; lv++) {
    const size = S ** (N - lv);
    path.push((Math.floor(x / size) % S) + S * (Math.floor(y / size) % S));
  }
  return path;
}

/** Index (path order) of the level-lv block holding a cell with this path. */
function blockIndex(path, lv, P) {
  let j = 0;
  for (let l = 0; l < lv; l++) j = j * P + path[l];
  return j;
}

/** The block path (1-based positions, levels 1..N-1) a move at (x, y) sends the next
 * player to, by the view's routes (rules/nested.py); null when nothing is routed. */
export function sendsTo(view, x, y) {
  const routes = view.routes || [];
  if (!routes.length) return null;
  const S = view.side;
  const N = view.depth;
  const P = S ** 2;
  const path = cellPath(x, y, S, N);
  return routes.map((route, k) => {
    if (route.kind === "map") {
      const rows = S ** (N - 1 - k);
      return route.numbers[blockIndex(path, k + 1, P) * rows + (y % rows)];
    }
    if (route.kind === "hypermap") return route.numbers[x + view.edge * y];
    return path[k + 1] + 1;
  });
}

export function drawPaperFields(sheet, svg, { S, N, E, cells }) {
  const view = sheet.view;
  const P = S * S;
  const g = el("g", { class: "vf-paper", "data-testid": "paper-fields", "aria-hidden": "true" }, svg);
  if (paperFields.numbers) {
    // Numbered: every block one level above the cells carries its path ("5/3"), written
    // large and faint across the block so that marks stay readable through it.
    const lv = N - 1;
    const size = Math.round(U * 0.95);
    for (let j = 0; j < P ** lv; j++) {
      const lo = blockLow(j, lv, S, N, 2);
      const path = [];
      let rest = j;
      for (let l = 0; l < lv; l++) {
        path.unshift((rest % P) + 1);
        rest = Math.floor(rest / P);
      }
      const label = path.join("/");
      const t = el("text", {
        class: "vf-paper-number",
        "data-testid": "paper-number",
        "data-block": label,
        x: (lo[0] + S / 2) * U,
        y: (lo[1] + S / 2) * U,
        "font-size": size,
        "dominant-baseline": "central",
        "text-anchor": "middle",
      }, g);
      t.textContent = label;
    }
  }
  if (paperFields.routes) {
    (view.routes || []).forEach((route, k) => {
      const lv = k + 1;
      if (route.kind === "map") {
        // Mapped: a number beside each row of every level-lv block.
        const rows = S ** (N - lv);
        for (let j = 0; j < P ** lv; j++) {
          const lo = blockLow(j, lv, S, N, 2);
          for (let r = 0; r < rows; r++) {
            const n = route.numbers[j * rows + r];
            // On the block's left border, as the paper field's mapping column is.
            const x = lo[0] * U - 6.5 + k * 14;
            const y = (lo[1] + r) * U + U / 2;
            const tag = el("g", { class: `vf-route-map vf-route-${lv}`, "data-testid": "route-number", "data-row": `${j}:${r}` }, g);
            el("rect", { x, y: y - 14, width: 13, height: 28, rx: 3 }, tag);
            const t = el("text", { x: x + 6.5, y: y + 1, "font-size": 17, "dominant-baseline": "central", "text-anchor": "middle" }, tag);
            t.textContent = String(n);
          }
        }
      }
    });
    const hyper = (view.routes || []).filter((r) => r.kind === "hypermap");
    if (hyper.length) {
      // Hypermapped: the number(s) in every empty cell.
      for (let y = 0; y < E; y++) {
        for (let x = 0; x < E; x++) {
          if ((cells[x + E * y] || "_") !== "_") continue;
          const t = el("text", {
            class: "vf-route-cell",
            "data-testid": "route-number",
            x: (x + 1) * U - 3,
            y: (y + 1) * U - 11,
            "font-size": hyper.length > 1 ? 14 : 19,
            "dominant-baseline": "central",
            "text-anchor": "end",
          }, g);
          t.textContent = hyper.map((r) => r.numbers[x + E * y]).join("·");
        }
      }
    }
    if ((view.routes || []).length) watchSends(sheet, svg, { S, N, E });
  }
}

/** While a legal cell is pointed at or focused, outline the block it sends to. */
function watchSends(sheet, svg, { S, N, E }) {
  const view = sheet.view;
  const outline = el("rect", { class: "vf-sends", "data-testid": "sends-outline", visibility: "hidden" }, svg);
  const show = (record) => {
    const index = Number(record.key);
    const x = index % E;
    const y = Math.floor(index / E);
    const dest = sendsTo(view, x, y);
    if (!dest) return;
    let j = 0;
    for (const p of dest) j = j * S * S + (p - 1);
    const lo = blockLow(j, dest.length, S, N, 2);
    const span = S ** (N - dest.length);
    outline.setAttribute("x", lo[0] * U + 1);
    outline.setAttribute("y", lo[1] * U + 1);
    outline.setAttribute("width", span * U - 2);
    outline.setAttribute("height", span * U - 2);
    outline.setAttribute("visibility", "visible");
    outline.setAttribute("data-sends", dest.join("/"));
    svg.dispatchEvent(new CustomEvent("vf-sends", { bubbles: true, detail: { move: record.moves[0], sends: dest.join("/") } }));
  };
  const hide = () => {
    outline.setAttribute("visibility", "hidden");
    svg.dispatchEvent(new CustomEvent("vf-sends", { bubbles: true, detail: null }));
  };
  // A touch screen has no pointing: the first tap on a cell shows where it sends, a
  // second tap on the same cell plays it (a tap elsewhere shows that cell instead).
  let touch = false;
  let shown = null;
  svg.addEventListener("pointerdown", (event) => {
    touch = event.pointerType === "touch";
  }, true);
  svg.addEventListener("click", (event) => {
    const g = event.target.closest && event.target.closest(".vf-cell.is-legal");
    const record = g && sheet.cells.find((c) => c.g === g);
    if (!record || !touch) return;
    if (shown !== record) {
      event.stopPropagation();
      event.preventDefault();
      shown = record;
      show(record);
    }
  }, true);
  for (const record of sheet.cells) {
    if (!record.moves.length) continue;
    record.g.addEventListener("pointerenter", () => show(record));
    record.g.addEventListener("focus", () => show(record));
    record.g.addEventListener("pointerleave", hide);
    record.g.addEventListener("blur", hide);
  }
}
