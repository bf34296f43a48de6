// Flat games (board.js): squares, # and stacks boards, one or several, 1-D to 3-D (a 3-D
// board as slices side by side).

import * as moving from "./board_moving.js";
import { BOARD_GAP, U, el, layoutPanels, slicesPerRow } from "./board_layout.js";
import { flatKey, parseFlatMove } from "./board_notation.js";
import { drawPiece } from "./board_pieces.js";

// --- flat games --------------------------------------------------------------------------

function flatPanels(board) {
  const [X, Y, Z] = board.size;
  if (board.type === "stacks") {
    // Columns stand on a floor, z up; one panel per y (x across), or y across when X is 1.
    if (X === 1 && Y > 1) {
      return {
        perRow: 1,
        panels: [{ label: "", cols: Y, rows: Z, column: (c) => [1, c + 1] }],
      };
    }
    const panels = [];
    for (let y = 1; y <= Y; y++) {
      panels.push({ label: Y > 1 ? `y=${y}` : "", cols: X, rows: Z, column: (c) => [c + 1, y] });
    }
    return { perRow: slicesPerRow(Y), panels };
  }
  const size = [X, Y, Z];
  const long = [0, 1, 2].filter((a) => size[a] > 1);
  if (long.length <= 1) {
    const across = long.length ? long[0] : 0;
    return {
      perRow: 1,
      panels: [
        {
          label: "",
          cols: size[across],
          rows: 1,
          space: (c) => {
            const p = [1, 1, 1];
            p[across] = c + 1;
            return p;
          },
        },
      ],
    };
  }
  if (long.length === 2) {
    const [across, up] = long;
    return {
      perRow: 1,
      panels: [
        {
          label: "",
          cols: size[across],
          rows: size[up],
          space: (c, r) => {
            const p = [1, 1, 1];
            p[across] = c + 1;
            p[up] = size[up] - r; // the largest at the top
            return p;
          },
        },
      ],
    };
  }
  const panels = [];
  for (let z = 1; z <= Z; z++) {
    panels.push({ label: `z=${z}`, cols: X, rows: Y, space: (c, r) => [c + 1, Y - r, z] });
  }
  return { perRow: slicesPerRow(Z), panels };
}

function coordsText(coords, size) {
  // "2,3" on a plane board, "2,3,1" when the board has depth.
  return size && size[2] === 1 && coords.length === 3
    ? coords.slice(0, 2).join(",")
    : coords.join(",");
}

export function renderFlat(sheet) {
  const view = sheet.view;
  const multi = view.boards.length > 1;

  // Legal targets: board:coords -> notations.
  const legal = new Map();
  for (const move of view.legal_moves || []) {
    const parsed = parseFlatMove(move);
    if (!parsed) continue;
    // A piece moving by stack names its space (x,y,z); the stacks board keys stacks (x,y).
    const stacks = view.boards[0] && view.boards[0].type === "stacks";
    const at = parsed.to && stacks ? parsed.coords.slice(0, 2) : parsed.coords;
    const key = flatKey(parsed.board, at);
    if (!legal.has(key)) legal.set(key, []);
    legal.get(key).push(move);
  }
  const lastMove = sheet.highlight.lastMove === false ? null : parseFlatMove(view.last_move);
  const lastKey = lastMove ? flatKey(lastMove.board, lastMove.to || lastMove.coords) : null;

  // Lay out each board, then the boards side by side.
  const laid = view.boards.map((board) => ({ board, ...flatPanels(board) }));
  const across = laid.reduce(
    (n, b) => n + b.panels[0].cols * Math.min(b.perRow, b.panels.length),
    0,
  );
  sheet.setScale(across);
  const boards = laid.map(({ board, perRow, panels }) => {
    const labelled = panels.some((p) => p.label);
    const size = layoutPanels(panels, perRow, labelled ? sheet.labelH : 0);
    return { board, panels, size };
  });
  const top = multi ? sheet.labelH + 4 : 0;
  const bottom = multi ? sheet.labelH + 4 : 0;
  let width = 0;
  let height = 0;
  for (const b of boards) {
    b.x = width;
    width += b.size.width + BOARD_GAP;
    height = Math.max(height, b.size.height + top + bottom);
  }
  width -= BOARD_GAP;
  const type = view.boards[0] ? view.boards[0].type : "squares";
  const svg = sheet.svgRoot(width, height, `flat vf-type-${type}`);
  for (const { board, panels, x: bx, size } of boards) {
    const b = board.index;
    const pieces = new Map(board.pieces.map((p) => [flatKey(b, p.at), p]));
    const locked = new Set(board.locked.map((at) => flatKey(b, at)));
    const boardG = el(
      "g",
      { class: "vf-board-one", "data-board": b, transform: `translate(${bx} ${top})` },
      svg,
    );
    if (board.results) boardG.classList.add("is-decided");
    if (multi) {
      const label = sheet.text(boardG, "vf-board-label", size.width / 2, -sheet.labelH / 2);
      label.textContent = `Board ${b}`;
      if (board.results) {
        const result = sheet.text(
          boardG,
          "vf-board-result",
          size.width / 2,
          size.height + sheet.labelH * 0.7,
        );
        result.textContent = boardResultText(board);
        result.setAttribute("data-testid", "board-result");
      }
    }
    for (const panel of panels) {
      const pg = el(
        "g",
        { class: "vf-panel", transform: `translate(${panel.x} ${panel.y})` },
        boardG,
      );
      panel.g = pg;
      panel.abs = { x: bx + panel.x, y: top + panel.y };
      if (panel.label) {
        sheet.text(pg, "vf-slice-label", (panel.cols * U) / 2, -sheet.labelH / 2).textContent =
          panel.label;
      }
      if (board.type === "stacks")
        drawStacksPanel(sheet, pg, panel, b, { pieces, locked, legal, lastKey, multi, board });
      else drawSpacesPanel(sheet, pg, panel, b, board, { pieces, locked, legal, lastKey, multi });
    }
  }
  const outcomeLines = sheet.highlight.lines || (view.outcome && view.outcome.lines) || [];
  const overlay = el("g", { class: "vf-overlay" }, svg);
  const pointOf = (point) => {
    const [b, x, y, z] = point;
    const at = sheet.positions.get(flatKey(b, [x, y, z]));
    if (!at) return null;
    at.mark.classList.add("is-win");
    if (at.cell) at.cell.setAttribute("data-win", "true");
    return [{ ...at, point: flatKey(b, [x, y, z]) }];
  };
  sheet.drawLines(outcomeLines, pointOf, overlay);
  return svg;
}

// A board of several, decided: who won it. A board every seat "won" (an old record of a
// tie) is nobody's, as the engine now records it (READINGS.md: 3Blotto13).
function boardResultText(board) {
  const winners = board.results.map((r, i) => (r === "win" ? i : -1)).filter((i) => i >= 0);
  if (!winners.length || winners.length === board.results.length) return "won by nobody";
  return `won by ${winners.map((i) => `Player ${i + 1}`).join(" & ")}`;
}

function drawSpacesPanel(sheet, pg, panel, b, board, { pieces, locked, legal, lastKey, multi }) {
  const isHash = board.type === "hash";
  const marks = moving.marksByKey(board);
  const fogged = new Set((board.fogged || []).map((at) => flatKey(b, at)));
  if (!isHash) {
    el(
      "rect",
      { class: "vf-panel-bg", x: 0, y: 0, width: panel.cols * U, height: panel.rows * U },
      pg,
    );
  }
  for (let r = 0; r < panel.rows; r++) {
    for (let c = 0; c < panel.cols; c++) {
      const coords = panel.space(c, r);
      const key = flatKey(b, coords);
      const moves = legal.get(key) || [];
      const piece = pieces.get(key);
      const isLocked = locked.has(key);
      const where = (multi ? `board ${b}, ` : "") + coordsText(coords, board.size);
      const classes = [isHash ? "vf-hash-cell" : "vf-square"];
      if (isLocked) classes.push("is-locked");
      if (key === lastKey) classes.push("is-last");
      const describe =
        (isLocked
          ? `${where}: locked`
          : piece
            ? `${where}: ${piece.color} ${piece.shape || "piece (shape unseen)"}`
            : `${where}: empty`) + moving.markWords(marks.get(key));
      const g = sheet.cell(pg, {
        x: c * U,
        y: r * U,
        w: U,
        h: U,
        key,
        coords: coords.join(","),
        label: { action: piece ? `Move the piece at ${where}` : `Place at ${where}`, describe },
        moves,
        classes,
        data: { board: b },
      });
      if (isLocked) {
        el(
          "rect",
          {
            class: "vf-locked",
            x: c * U + 2,
            y: r * U + 2,
            width: U - 4,
            height: U - 4,
            fill: `url(#${sheet.uid}-hatch)`,
          },
          g,
        );
      }
      if (key === lastKey) {
        el(
          "rect",
          { class: "vf-last", x: c * U + 2, y: r * U + 2, width: U - 4, height: U - 4 },
          g,
        );
      }
      const drawn = piece
        ? drawPiece(g, c * U + U / 2, r * U + U / 2, U * 0.8, piece.color, piece.shape)
        : null;
      if (piece && piece.paralysed) drawn.classList.add("is-paralysed");
      moving.drawMarks(g, c * U, r * U, U, marks.get(key));
      if (fogged.has(key)) el("rect", { class: "vf-fog", x: c * U, y: r * U, width: U, height: U }, g);
      sheet.positions.set(key, {
        panel,
        mark: g,
        cell: g,
        piece: drawn,
        cx: panel.abs.x + c * U + U / 2,
        cy: panel.abs.y + r * U + U / 2,
      });
    }
  }
  if (isHash) {
    // The # lines: between cells only, no outer frame.
    for (let c = 1; c < panel.cols; c++) {
      el(
        "line",
        { class: "vf-hash-line", x1: c * U, y1: 2, x2: c * U, y2: panel.rows * U - 2 },
        pg,
      );
    }
    for (let r = 1; r < panel.rows; r++) {
      el(
        "line",
        { class: "vf-hash-line", x1: 2, y1: r * U, x2: panel.cols * U - 2, y2: r * U },
        pg,
      );
    }
  }
}

/** ", bottom up: black circle, white x" — what a stack holds, for screen readers. */
function stackWords(b, x, y, H, pieces) {
  const held = [];
  for (let z = 1; z <= H; z++) {
    const p = pieces.get(flatKey(b, [x, y, z]));
    if (p) held.push(`${p.color} ${p.shape || "piece"}`);
  }
  return held.length ? `, bottom up: ${held.join(", ")}` : "";
}

function drawStacksPanel(sheet, pg, panel, b, { pieces, locked, legal, lastKey, multi, board }) {
  const H = panel.rows;
  const marks = moving.marksByKey(board);
  const fogged = new Set((board.fogged || []).map((at) => flatKey(b, at)));
  el("rect", { class: "vf-stacks-bg", x: 0, y: 0, width: panel.cols * U, height: H * U }, pg);
  for (let c = 0; c < panel.cols; c++) {
    const [x, y] = panel.column(c);
    const key = flatKey(b, [x, y]);
    const moves = legal.get(key) || [];
    const where =
      (multi ? `board ${b}, ` : "") + (panel.label || panel.cols === 1 ? `${x},${y}` : `${x}`);
    let height = 0;
    for (let z = 1; z <= H; z++) {
      if (pieces.has(flatKey(b, [x, y, z])) || locked.has(flatKey(b, [x, y, z]))) height = z;
    }
    const classes = ["vf-stack"];
    if (key === lastKey) classes.push("is-last");
    const g = sheet.cell(pg, {
      x: c * U,
      y: 0,
      w: U,
      h: H * U,
      key,
      coords: `${x},${y}`,
      label: {
        action: `Drop in column ${where}`,
        describe:
          `column ${where}: ${height} of ${H} filled` +
          stackWords(b, x, y, H, pieces) +
          moving.markWords(marks.get(flatKey(b, [x, y, 1]))),
      },
      moves,
      classes,
      data: { board: b },
    });
    // A mark the whole stack shares is drawn once, around the stack (after its spaces,
    // so the slots do not cover its badge).
    const whole = moving.stackMark(marks, (z) => flatKey(b, [x, y, z]), board.size[2]);
    for (let z = 1; z <= H; z++) {
      const row = H - z;
      const sk = flatKey(b, [x, y, z]);
      const cx = c * U + U / 2;
      const cy = row * U + U / 2;
      if (key === lastKey && z === height) {
        el(
          "rect",
          { class: "vf-last", x: c * U + 2, y: row * U + 2, width: U - 4, height: U - 4 },
          g,
        );
      }
      let mark;
      if (locked.has(sk)) {
        mark = el(
          "rect",
          {
            class: "vf-locked",
            x: c * U + 3,
            y: row * U + 3,
            width: U - 6,
            height: U - 6,
            fill: `url(#${sheet.uid}-hatch)`,
          },
          g,
        );
      } else if (pieces.has(sk)) {
        const p = pieces.get(sk);
        mark = drawPiece(g, cx, cy, U * 0.8, p.color, p.shape);
      } else {
        mark = el("circle", { class: "vf-slot", cx, cy, r: U * 0.36 }, g);
      }
      if (!whole) moving.drawMarks(g, c * U, row * U, U, marks.get(sk));
      if (fogged.has(sk)) el("rect", { class: "vf-fog", x: c * U, y: row * U, width: U, height: U }, g);
      sheet.positions.set(sk, {
        panel,
        mark,
        piece: pieces.has(sk) ? mark : null,
        cell: null,
        cx: panel.abs.x + cx,
        cy: panel.abs.y + cy,
      });
    }
    if (whole) moving.drawMarks(g, c * U, 0, U, whole, H * U);
    if (c > 0) el("line", { class: "vf-stack-sep", x1: c * U, y1: 0, x2: c * U, y2: H * U }, pg);
  }
  el(
    "line",
    { class: "vf-floor", x1: -3, y1: H * U + 2, x2: panel.cols * U + 3, y2: H * U + 2 },
    pg,
  );
}
