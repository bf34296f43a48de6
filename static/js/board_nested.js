// Nested games (board.js): the ground grid with every level's block borders, captured
// and drawn blocks, the allowed area, and the winning units at the deciding level.

import { U, blockLow, el, layoutPanels, slicesPerRow } from "./board_layout.js";
import { drawPaperFields, paperFields } from "./board_paper.js";
import { drawMark } from "./board_pieces.js";

// --- nested games ------------------------------------------------------------------------

export function renderNested(sheet) {
  const view = sheet.view;
  const S = view.side;
  const N = view.depth;
  const D = view.dimensions;
  const E = view.edge;
  const symbols = view.symbols || [];
  const colors = view.seat_colors || [];
  const teamColor = (symbol) => colors[symbols.indexOf(symbol)] || "#333";

  // Panels: one per (z, t); 3-D side by side, 4-D a matrix with a row per t.
  const zs = D >= 3 ? E : 1;
  const ts = D >= 4 ? E : 1;
  const panels = [];
  for (let t = 0; t < ts; t++) {
    for (let z = 0; z < zs; z++) {
      let label = "";
      if (D === 3) label = `z=${z + 1}`;
      if (D === 4) label = `z=${z + 1}, t=${t + 1}`;
      panels.push({ label, cols: E, rows: E, z, t });
    }
  }
  const perRow = D === 4 ? E : D === 3 ? (N >= 2 ? S : slicesPerRow(E)) : 1;
  sheet.setScale(E * Math.min(perRow, panels.length));
  const size = layoutPanels(panels, perRow, D >= 3 ? sheet.labelH : 0);
  const svg = sheet.svgRoot(size.width, size.height, "nested");

  const legal = new Map();
  (view.legal_cells || []).forEach((index, k) => {
    if (!legal.has(index)) legal.set(index, []);
    legal.get(index).push(view.legal_moves[k]);
  });
  const area = view.area;
  const inArea = (coords) => !!area && coords.every((v, k) => v >= area[k][0] && v <= area[k][1]);
  const wholeArea = !!area && area.every((r) => r[0] === 0 && r[1] === E - 1);
  if (area) svg.classList.add(wholeArea ? "vf-area-all" : "vf-area-part");
  const last = sheet.highlight.lastMove === false ? null : view.last_cell;
  const lastIndex = last ? last.reduce((acc, v, k) => acc + (v - 1) * E ** k, 0) : -1;
  const cells = view.cells || "";

  for (const panel of panels) {
    const pg = el("g", { class: "vf-panel", transform: `translate(${panel.x} ${panel.y})` }, svg);
    panel.g = pg;
    if (panel.label) {
      sheet.text(pg, "vf-slice-label", (E * U) / 2, -sheet.labelH / 2).textContent = panel.label;
    }
    el("rect", { class: "vf-panel-bg", x: 0, y: 0, width: E * U, height: E * U }, pg);
    // The allowed area, tinted (when it is not the whole board).
    if (
      area &&
      !wholeArea &&
      (D < 3 || inRange(panel.z, area[2])) &&
      (D < 4 || inRange(panel.t, area[3]))
    ) {
      el(
        "rect",
        {
          class: "vf-area",
          "data-testid": "area",
          x: area[0][0] * U,
          y: area[1][0] * U,
          width: (area[0][1] - area[0][0] + 1) * U,
          height: (area[1][1] - area[1][0] + 1) * U,
        },
        pg,
      );
    }
    const cellsG = el("g", { class: "vf-cells" }, pg);
    for (let y = 0; y < E; y++) {
      for (let x = 0; x < E; x++) {
        const coords = [x, y, panel.z, panel.t].slice(0, D);
        const index = coords.reduce((acc, v, k) => acc + v * E ** k, 0);
        const symbol = cells[index] || "_";
        const moves = legal.get(index) || [];
        const where = coords.map((v) => v + 1).join(",");
        const classes = ["vf-nested-cell"];
        if (inArea(coords)) classes.push("is-area");
        if (index === lastIndex) classes.push("is-last");
        if (symbol === "#") classes.push("is-obstacle");
        if (symbol === "%") classes.push("is-protected");
        const name =
          symbol === "_"
            ? "empty"
            : symbol === "#"
              ? "obstacle"
              : symbol === "%"
                ? "protected"
                : symbol;
        const moveText = moves[0] ? `${moves[0]} (${where})` : where;
        const g = sheet.cell(cellsG, {
          x: x * U,
          y: y * U,
          w: U,
          h: U,
          key: String(index),
          coords: where,
          label: { action: `Place at ${moveText}`, describe: `${where}: ${name}` },
          moves,
          classes,
          data: { index, symbol },
        });
        if (index === lastIndex) {
          el(
            "rect",
            { class: "vf-last", x: x * U + 2, y: y * U + 2, width: U - 4, height: U - 4 },
            g,
          );
        }
        if (symbol === "#") {
          el(
            "rect",
            {
              class: "vf-obstacle",
              "data-testid": "obstacle",
              x: x * U + 3,
              y: y * U + 3,
              width: U - 6,
              height: U - 6,
            },
            g,
          );
        } else if (symbol === "%") {
          el(
            "rect",
            {
              class: "vf-protected",
              "data-testid": "protected",
              x: x * U + 3,
              y: y * U + 3,
              width: U - 6,
              height: U - 6,
              fill: `url(#${sheet.uid}-hatch)`,
            },
            g,
          );
        } else if (symbol !== "_") {
          drawMark(g, x * U + U / 2, y * U + U / 2, U * 0.9, symbol, teamColor(symbol));
        }
      }
    }
    drawBlockLines(pg, S, N, E);
  }

  // Captured and drawn blocks: a big faint mark over the block, in every slice it covers.
  const marks = el("g", { class: "vf-block-marks" }, svg);
  (view.blocks || []).forEach((level, lv0) => {
    const lv = lv0 + 1;
    const span = S ** (N - lv);
    [...level].forEach((symbol, j) => {
      if (symbol === "_") return;
      const lo = blockLow(j, lv, S, N, D);
      forPanels(panels, D, lo, span, (panel) => {
        const cx = panel.x + (lo[0] + span / 2) * U;
        const cy = panel.y + (lo[1] + span / 2) * U;
        drawMark(
          marks,
          cx,
          cy,
          span * U * 0.92,
          symbol,
          symbol === "*" ? "#607d8b" : teamColor(symbol),
          `vf-block-mark ${symbol === "*" ? "is-drawn" : "is-captured"}`,
        ).setAttribute("data-testid", "block-mark");
      });
    });
  });

  if (D === 2 && N >= 2 && (paperFields.numbers || paperFields.routes)) {
    drawPaperFields(sheet, svg, { S, N, E, cells });
  }

  // Winning line(s): units at the level that decided the game.
  const outcomeLines = sheet.highlight.lines || (view.outcome && view.outcome.lines) || [];
  if (outcomeLines.length) {
    let unit = S ** Math.max(N - 1, 0);
    let base = new Array(D).fill(0);
    const peakOwned = symbols.includes(view.peak);
    if (N >= 2 && !peakOwned && view.blocks && view.blocks[0]) {
      // Quick: a top-level block decided the game; its units are one level further down.
      const j = [...view.blocks[0]].findIndex((s) => symbols.includes(s));
      if (j >= 0) {
        base = blockLow(j, 1, S, N, D);
        unit = S ** (N - 2);
      }
    }
    const overlay = el("g", { class: "vf-overlay" }, svg);
    const pointOf = (point) => {
      const lo = point.map((u, k) => base[k] + (u - 1) * unit);
      const out = [];
      forPanels(panels, D, lo, unit, (panel) => {
        const rect = el(
          "rect",
          {
            class: "vf-win-unit",
            "data-testid": "win-unit",
            x: panel.x + lo[0] * U + 2,
            y: panel.y + lo[1] * U + 2,
            width: unit * U - 4,
            height: unit * U - 4,
          },
          overlay,
        );
        rect.setAttribute("data-point", point.join(","));
        out.push({
          panel,
          point: point.join(","),
          cx: panel.x + (lo[0] + unit / 2) * U,
          cy: panel.y + (lo[1] + unit / 2) * U,
        });
      });
      if (unit === 1) {
        const index = lo.reduce((acc, v, k) => acc + v * E ** k, 0);
        const cellG = sheet.cells.find((c) => c.key === String(index));
        if (cellG) {
          cellG.g.classList.add("is-win");
          cellG.g.setAttribute("data-win", "true");
        }
      }
      return out;
    };
    sheet.drawLines(outcomeLines, pointOf, overlay);
  }
  return svg;
}

function inRange(v, range) {
  return v >= range[0] && v <= range[1];
}

/** Call fn(panel) for each slice a box (lo, span) covers. */
function forPanels(panels, D, lo, span, fn) {
  for (const panel of panels) {
    if (D >= 3 && !(panel.z >= lo[2] && panel.z < lo[2] + span)) continue;
    if (D >= 4 && !(panel.t >= lo[3] && panel.t < lo[3] + span)) continue;
    fn(panel);
  }
}

/** Grid lines, thicker at each higher level's block borders. */
function drawBlockLines(pg, S, N, E) {
  const g = el("g", { class: "vf-grid" }, pg);
  for (let i = 0; i <= E; i++) {
    let level = 0;
    while (level < N && i % S ** (level + 1) === 0) level++;
    const cls = `vf-grid-line vf-level-${level}`;
    const w = [0.6, 2, 3.5, 5, 6.5][level];
    el("line", { class: cls, x1: i * U, y1: 0, x2: i * U, y2: E * U, "stroke-width": w }, g);
    el("line", { class: cls, x1: 0, y1: i * U, x2: E * U, y2: i * U, "stroke-width": w }, g);
  }
}
