// The live board: an engine view drawn as SVG (flat and nested games).
//
//   renderBoard(container, view, {onMove, highlight}) -> {svg, cells}
//
// `view` is what the engine's State.view(seat) returns (variants/engine/view.py for flat
// games, variants/engine/nested/view.py for nested ones). The drawing is rebuilt from
// the view on every call; nothing here knows the rules beyond the view's data.
//
// onMove(notation): called with the exact notation string from view.legal_moves when a
//   legal target is clicked or activated with Enter/Space. Without onMove the board is
//   read-only (a replay, a spectator).
// highlight: {lines, lastMove}. `lines` replaces view.outcome.lines (the same format:
//   1-based [board, x, y, z] per point for flat games, unit coordinates at the deciding
//   level for nested games); `lastMove: false` leaves the last move unmarked.
//
// Every drawn space (a stack's column on stacks boards) is a `.vf-cell` with
// data-testid="cell", data-key, data-coords, and data-move (or data-moves, "|"-joined,
// when several legal moves share it). Legal ones are focusable buttons.

import * as moving from "./board_moving.js";

const NS = "http://www.w3.org/2000/svg";
const U = 40; // one cell, in SVG units
const SLICE_GAP = 14;
const BOARD_GAP = 36;
const LABEL_H = 20;
const PAD = 6;

// The engine's vocabulary (variants/rules/vocabulary.py) and the teams of nested games.
export const COLOR_WORDS = ["black", "white", "pink", "yellow"];
export const PIECE_COLORS = {
  black: "#1b1b1b",
  white: "#ffffff",
  pink: "#f06292",
  yellow: "#fdd835",
  blue: "#1e63d6",
  red: "#d32f2f",
  green: "#2e7d32",
  purple: "#7b1fa2",
};
const OUTLINES = { white: "#222", yellow: "#6d5400", pink: "#8c1b48", black: "#000" };
// Told apart without colour too: every colour but black carries its own mark inside the
// piece (a ring, a cross, a dot), so no piece looks like an empty space or like another
// colour to a colour-blind player. Empty spaces are grey holes with no mark.
const PATTERNS = {
  white: (g) => el("circle", { cx: 20, cy: 20, r: 8, fill: "none", stroke: "#222", "stroke-width": 3 }, g),
  pink: (g) =>
    el("path", { d: "M13 20h14M20 13v14", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round" }, g),
  yellow: (g) => el("circle", { cx: 20, cy: 20, r: 5, fill: "#6d5400" }, g),
  blue: (g) => el("path", { d: "M13 13l14 14M27 13l-14 14", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round" }, g),
  red: (g) => el("rect", { x: 15, y: 15, width: 10, height: 10, fill: "#fff" }, g),
  green: (g) => el("polygon", { points: "20,13 27,26 13,26", fill: "#fff" }, g),
  purple: (g) => el("path", { d: "M12 20h16", stroke: "#fff", "stroke-width": 4, "stroke-linecap": "round" }, g),
};

// Shapes in a 40×40 box (the factory's drawings, templates/variants/factory/piece.html).
const SHAPE_POINTS = {
  triangle: "20,4 36,34 4,34",
  x: "8,4 20,14 32,4 36,8 26,20 36,32 32,36 20,26 8,36 4,32 14,20 4,8",
  cross: "14,4 26,4 26,14 36,14 36,26 26,26 26,36 14,36 14,26 4,26 4,14 14,14",
  star: "20,3 24.5,15 37,15 27,23 31,36 20,28 9,36 13,23 3,15 15.5,15",
  pentagon: "20,3 37,15 31,36 9,36 3,15",
  square: "6,6 34,6 34,34 6,34",
};

let renderCount = 0;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// --- pieces and marks --------------------------------------------------------------------

/** A piece (colour, shape) centred in a box of `size` units at (cx, cy). */
function drawPiece(parent, cx, cy, size, color, shape, extraClass = "") {
  const g = el(
    "g",
    {
      class: `vf-piece vf-c-${color} vf-s-${shape} ${extraClass}`.trim(),
      transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 40})`,
    },
    parent,
  );
  const paint = {
    fill: PIECE_COLORS[color] || "#777",
    stroke: OUTLINES[color] || "none",
    "stroke-width": OUTLINES[color] ? 2.5 : 0,
  };
  if (!shape) {
    // Obscured (cloaking, issue 20): the colour is seen, not the shape.
    g.classList.add("vf-obscured", "is-obscured");
    el("rect", { x: 6, y: 6, width: 28, height: 28, rx: 9, ...paint }, g);
    el("text", { x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 18, fill: color === "black" ? "#fff" : "#222" }, g).textContent = "?";
    return g;
  }
  if (shape === "circle" || !SHAPE_POINTS[shape]) {
    el("circle", { cx: 20, cy: 20, r: 17, ...paint }, g);
  } else {
    el("polygon", { points: SHAPE_POINTS[shape], ...paint }, g);
  }
  if (PATTERNS[color]) PATTERNS[color](g);
  return g;
}

/** A team's mark of a nested game (X, O, Δ, ▢ or any other symbol), drawn as a pen stroke. */
function drawMark(parent, cx, cy, size, symbol, color, extraClass = "") {
  const g = el(
    "g",
    {
      class: `vf-mark ${extraClass}`.trim(),
      "data-symbol": symbol,
      transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 40})`,
      stroke: PIECE_COLORS[color] || color || "#333",
      fill: "none",
      "stroke-width": 5,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    },
    parent,
  );
  if (symbol === "X") {
    el("path", { d: "M9 9 L31 31 M31 9 L9 31" }, g);
  } else if (symbol === "O") {
    el("circle", { cx: 20, cy: 20, r: 12 }, g);
  } else if (symbol === "Δ") {
    el("polygon", { points: "20,7 33,31 7,31" }, g);
  } else if (symbol === "▢") {
    el("rect", { x: 9, y: 9, width: 22, height: 22, rx: 2 }, g);
  } else if (symbol === "*") {
    el("path", { d: "M20 7 L20 33 M8.7 13.5 L31.3 26.5 M31.3 13.5 L8.7 26.5" }, g);
  } else {
    const text = el(
      "text",
      { x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 26 },
      g,
    );
    text.setAttribute("fill", PIECE_COLORS[color] || color || "#333");
    text.setAttribute("stroke", "none");
    text.textContent = symbol;
  }
  return g;
}

/** A standalone <svg> of a piece, for side panels and choosers. */
export function pieceIcon(color, shape = "circle", size = 22) {
  const svg = el("svg", {
    class: "vf-icon",
    viewBox: "0 0 40 40",
    width: size,
    height: size,
    "aria-hidden": "true",
    focusable: "false",
  });
  drawPiece(svg, 20, 20, 40, color, shape);
  return svg;
}

/** A standalone <svg> of a nested game's team mark. */
export function markIcon(symbol, color, size = 22) {
  const svg = el("svg", {
    class: "vf-icon",
    viewBox: "0 0 40 40",
    width: size,
    height: size,
    "aria-hidden": "true",
    focusable: "false",
  });
  drawMark(svg, 20, 20, 40, symbol, color);
  return svg;
}

// --- notation ----------------------------------------------------------------------------

/**
 * A flat game's notation -> {board, coords, color, shape}, or null for pass/draw/accept/
 * decline. coords are the 1-based numbers as written (x,y,z, or x,y for a stack).
 */
export function parseFlatMove(text) {
  if (!text) return null;
  const words = String(text).trim().toLowerCase().split(/\s+/);
  const step = /^(?:b(\d+):)?(\d+(?:,\d+)+)([-x])(\d+(?:,\d+)+)(?:=([a-z]+))?$/.exec(
    words[words.length - 1],
  );
  if (step && words.length === 1) {
    // A step of a placed piece (general family): keyed by the piece it moves; "=shape"
    // names what a piece that reached its goal becomes.
    const to = step[4].split(",").map(Number);
    const coords = step[2].split(",").map(Number);
    const board = step[1] ? Number(step[1]) : 1;
    return { board, coords, to, capture: step[3] === "x", shape: step[5] || null };
  }
  const target = words.pop();
  if (!/^(b\d+:)?\d+(,\d+)+$/.test(target)) return null;
  let board = 1;
  let where = target;
  if (target.includes(":")) {
    const [prefix, rest] = target.split(":");
    board = Number(prefix.slice(1));
    where = rest;
  }
  let color = null;
  let shape = null;
  for (const word of words) {
    if (COLOR_WORDS.includes(word)) color = word;
    else shape = word;
  }
  return { board, coords: where.split(",").map(Number), color, shape };
}

const flatKey = (board, coords) => `${board}:${coords.join(",")}`;
const NINE = ["top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right"];
const SAID = {
  pass: "passes",
  draw: "offers a draw",
  accept: "accepts the draw",
  decline: "declines the draw",
};

/** The engine's end-of-game words, for people who never read its README. */
export function plainDetail(detail) {
  return detail
    .replace("captured the peak", "won the big board (a line of won blocks)")
    .replace("captured a top-level block (Quick)", "won a block of the big board (Quick: one block wins)")
    .replace("holds a majority of the blocks", "won the most blocks")
    .replace(/^Team (\S+) left \((\w+)\)$/, "$1 left the game ($2)");
}

/**
 * A move in plain words for people: "column 4" (a stack), "top-right" (a 3×3 board),
 * "column 2, row 3" (rows counted from the bottom), "centre block, top-right cell" (nested),
 * "passes". `view` says what kind of board the game has; unknown text is returned as is.
 */
export function moveWords(text, view) {
  const raw = String(text || "").trim();
  const t = raw.toLowerCase();
  if (SAID[t]) return SAID[t];
  if (view && view.family === "nested") {
    if (!/^\d+(\/\d+)+$/.test(t)) return raw;
    const parts = t.split("/").map(Number);
    const cell = parts[parts.length - 1];
    const path = parts.slice(0, -1);
    if (view.side === 3 && view.dimensions === 2) {
      return `${path.map((p) => NINE[p - 1]).join(" › ")} block, ${NINE[cell - 1]} cell`;
    }
    return `block ${path.join(" › ")}, cell ${cell}`;
  }
  const parsed = parseFlatMove(raw);
  if (!parsed) return raw;
  const board = (view && view.boards && view.boards[parsed.board - 1]) || null;
  const type = board ? board.type : parsed.coords.length === 2 ? "stacks" : "squares";
  const size = board ? board.size : [0, 0, 1];
  const [x, y, z] = parsed.coords;
  let where;
  if (type === "stacks") {
    where = size[1] > 1 ? `column ${x}, row ${y}` : `column ${x}`;
  } else if (size[0] === 3 && size[1] === 3 && size[2] === 1) {
    where = NINE[(3 - y) * 3 + (x - 1)];
  } else if (size[1] === 1 && size[2] === 1) {
    where = `space ${x}`;
  } else {
    where = `column ${x}, row ${y}` + (size[2] > 1 ? `, level ${z}` : "");
  }
  // The X is written as a capital, as the rules line writes it ("1 black X").
  const piece = [parsed.color, parsed.shape === "x" ? "X" : parsed.shape].filter(Boolean).join(" ");
  const several = view && view.boards && view.boards.length > 1;
  return `${piece ? `${piece} on ` : ""}${several ? `board ${parsed.board}, ` : ""}${where}`;
}


// --- layout ------------------------------------------------------------------------------

/**
 * Place panels (slices) of `cols`×`rows` cells in a grid of `perRow` columns; returns the
 * panels with x, y (their cell area's top-left, in SVG units) and the block's size.
 */
function layoutPanels(panels, perRow, labelH) {
  const colWidths = [];
  const rowHeights = [];
  panels.forEach((p, i) => {
    const c = i % perRow;
    const r = Math.floor(i / perRow);
    colWidths[c] = Math.max(colWidths[c] || 0, p.cols * U);
    rowHeights[r] = Math.max(rowHeights[r] || 0, p.rows * U + labelH);
  });
  const xs = [];
  let acc = 0;
  for (const w of colWidths) {
    xs.push(acc);
    acc += w + SLICE_GAP;
  }
  const width = acc - SLICE_GAP;
  const ys = [];
  acc = 0;
  for (const h of rowHeights) {
    ys.push(acc);
    acc += h + SLICE_GAP;
  }
  const height = acc - SLICE_GAP;
  panels.forEach((p, i) => {
    p.x = xs[i % perRow];
    p.y = ys[Math.floor(i / perRow)] + labelH;
  });
  return { width, height };
}

function slicesPerRow(count, preferred) {
  if (count <= 4) return count;
  return preferred || Math.ceil(Math.sqrt(count));
}

// --- the shared drawing ----------------------------------------------------------------------

class Sheet {
  constructor(view, options) {
    this.view = view;
    this.onMove = typeof options.onMove === "function" ? options.onMove : null;
    this.highlight = options.highlight || {};
    this.uid = `vf${++renderCount}`;
    this.cells = [];
    this.positions = new Map(); // "board:x,y,z" -> {panel, mark, cell, piece, cx, cy} (flat games)
    this.byKey = new Map(); // data-key -> cell record
    this.selected = null; // a piece whose destinations are lit (board_moving.js)
    this.targets = new Map(); // lit destination key -> its moves
  }

  /** Labels grow with the board, so they stay readable once the drawing is scaled down. */
  setScale(cellsAcross) {
    this.textScale = Math.min(Math.max(cellsAcross / 12, 1), 3);
    this.labelH = Math.round(LABEL_H * this.textScale);
  }

  text(parent, cls, x, y) {
    return el(
      "text",
      {
        class: cls,
        x,
        y,
        "font-size": Math.round(13 * this.textScale),
        "dominant-baseline": "central",
      },
      parent,
    );
  }

  svgRoot(width, height, kind) {
    const svg = el("svg", {
      class: `vf-board vf-${kind}`,
      viewBox: `${-PAD} ${-PAD} ${width + 2 * PAD} ${height + 2 * PAD}`,
      role: "group",
      "aria-label": this.view.game ? `Board of ${this.view.game}` : "Board",
      "data-testid": "board-svg",
    });
    // Wide boards may use the whole width; small ones stay a comfortable size.
    svg.style.maxWidth = `${Math.round(Math.min(Math.max((width + 2 * PAD) * 3, 280), 1100))}px`;
    const defs = el("defs", {}, svg);
    const hatch = el(
      "pattern",
      {
        id: `${this.uid}-hatch`,
        width: 8,
        height: 8,
        patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)",
      },
      defs,
    );
    el("rect", { width: 8, height: 8, fill: "#eceff1" }, hatch);
    el("rect", { width: 4, height: 8, fill: "#b0bec5" }, hatch);
    this.svg = svg;
    return svg;
  }

  /** An interactive (or described) cell: a <g> with a background rect. */
  cell(parent, { x, y, w, h, key, coords, label, moves, classes = [], data = {} }) {
    const legal = moves.length > 0 && this.onMove !== null;
    const g = el(
      "g",
      {
        class: ["vf-cell", ...classes, legal ? "is-legal" : ""].join(" ").trim(),
        "data-testid": "cell",
        "data-key": key,
        "data-coords": coords,
      },
      parent,
    );
    for (const [k, v] of Object.entries(data)) g.setAttribute(`data-${k}`, v);
    if (moves.length === 1) g.setAttribute("data-move", moves[0]);
    else if (moves.length > 1) g.setAttribute("data-moves", moves.join("|"));
    if (legal) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", label.action);
    } else {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", label.describe);
    }
    el("rect", { class: "vf-cell-bg", x, y, width: w, height: h }, g);
    const record = { g, key, moves, cx: x + w / 2, cy: y + h / 2 };
    if (this.onMove) {
      // Every cell listens: one that is not legal now may become a piece's destination.
      g.addEventListener("click", () => this.activate(record));
      g.addEventListener("keydown", (event) => this.keydown(event, record));
      if (legal) moving.enableDrag(this, record, parseFlatMove);
    }
    this.cells.push(record);
    this.byKey.set(key, record);
    return g;
  }

  activate(record) {
    if (!this.onMove || this.dragged) return;
    // A lit destination of the selected piece: move there.
    if (this.targets.has(record.key)) {
      this.commit(record);
      return;
    }
    const steps = moving.stepsOf(record, parseFlatMove);
    const places = record.moves.filter((move) => !(parseFlatMove(move) || {}).to);
    if (this.selected === record) {
      // The selected piece again: put it down (or, on a stack that also takes a drop, drop).
      moving.clear(this);
      if (places.length) this.place(record, places);
      return;
    }
    if (steps.length) {
      // A piece that moves: click it, its destinations light up, click one.
      this.closeChooser();
      moving.select(this, record, parseFlatMove);
      return;
    }
    moving.clear(this);
    if (places.length) this.place(record, places);
  }

  place(record, places) {
    if (places.length === 1) {
      this.closeChooser();
      this.onMove(places[0]);
    } else {
      this.openChooser({ ...record, moves: places });
    }
  }

  /** Move the selected piece to a lit destination (several moves there: ask which). */
  commit(target) {
    const moves = this.targets.get(target.key) || [];
    moving.clear(this);
    if (moves.length === 1) {
      this.closeChooser();
      this.onMove(moves[0]);
    } else if (moves.length > 1) {
      this.openChooser({ ...target, moves });
    }
  }

  keydown(event, record) {
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      this.activate(record);
      return;
    }
    if (event.key === "Escape" && this.selected) {
      event.preventDefault();
      const piece = this.selected;
      moving.clear(this);
      piece.g.focus();
      return;
    }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = dirs[event.key];
    if (!dir) return;
    event.preventDefault();
    let best = null;
    let bestScore = Infinity;
    for (const other of this.cells) {
      if (other === record || !other.g.hasAttribute("tabindex")) continue;
      const dx = other.cx - record.cx;
      const dy = other.cy - record.cy;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue;
      const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
      const score = along + 3 * across;
      if (score < bestScore) {
        bestScore = score;
        best = other;
      }
    }
    if (best) best.g.focus();
  }

  openChooser(record) {
    this.closeChooser();
    const host = this.host;
    const box = document.createElement("div");
    box.className = "vf-chooser";
    box.setAttribute("role", "dialog");
    const promotion = record.moves.every((m) => (parseFlatMove(m) || {}).to);
    box.setAttribute("aria-label", promotion ? "Choose the shape it becomes" : "Choose a piece");
    box.dataset.testid = "chooser";
    for (const move of record.moves) {
      const parsed = parseFlatMove(move) || {};
      const color = parsed.color || (this.view.seat_colors || [])[this.view.seat ?? -1] || "black";
      const shape = parsed.shape || "circle";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm btn-light vf-choice";
      button.dataset.testid = "choice";
      button.dataset.move = move;
      button.append(pieceIcon(color, shape, 24));
      const becomes = parsed.to && parsed.shape ? ` as ${parsed.shape}` : "";
      const words = parsed.to
        ? `${parsed.capture ? "take at" : "to"} ${parsed.to.join(",")}${becomes}`
        : move.split(/\s+/).slice(0, -1).join(" ") || move;
      const text = document.createElement("span");
      text.textContent = words;
      button.append(text);
      button.setAttribute("aria-label", parsed.to ? `Move ${move}` : `Place ${move}`);
      button.addEventListener("click", () => {
        this.closeChooser();
        this.onMove(move);
      });
      box.append(button);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "btn btn-sm btn-link vf-choice-cancel";
    close.textContent = "Cancel";
    close.addEventListener("click", () => {
      this.closeChooser();
      record.g.focus();
    });
    box.append(close);
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.closeChooser();
        record.g.focus();
      }
    });
    host.append(box);
    const hostRect = host.getBoundingClientRect();
    const cellRect = record.g.getBoundingClientRect();
    box.style.left = `${Math.max(0, cellRect.left - hostRect.left)}px`;
    box.style.top = `${cellRect.bottom - hostRect.top + 4}px`;
    this.chooser = box;
    box.querySelector("button").focus();
  }

  closeChooser() {
    if (this.chooser) this.chooser.remove();
    this.chooser = null;
  }

  /** Draw the winning line(s): a stroke through every panel holding all of a line's points. */
  drawLines(lines, pointOf, overlay) {
    lines.forEach((line, index) => {
      const points = line.map(pointOf).filter(Boolean);
      if (!points.length) return;
      const panels = new Map();
      for (const point of points) {
        for (const at of point) {
          if (!panels.has(at.panel)) panels.set(at.panel, []);
          panels.get(at.panel).push(at);
        }
      }
      let drawn = false;
      for (const [, ats] of panels) {
        const distinct = new Set(ats.map((a) => a.point));
        if (distinct.size < points.length) continue;
        let a = ats[0];
        let b = ats[0];
        let far = -1;
        for (const p of ats) {
          for (const q of ats) {
            const d = (p.cx - q.cx) ** 2 + (p.cy - q.cy) ** 2;
            if (d > far) {
              far = d;
              a = p;
              b = q;
            }
          }
        }
        el(
          "line",
          {
            class: "vf-win-line",
            "data-testid": "win-line",
            "data-line": index,
            x1: a.cx,
            y1: a.cy,
            x2: b.cx,
            y2: b.cy,
          },
          overlay,
        );
        drawn = true;
      }
      // A line across slices (3-D) has no single stroke: its spaces are marked instead.
      if (!drawn) overlay.setAttribute("data-split-lines", "true");
    });
  }
}

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

function renderFlat(sheet) {
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

function boardResultText(board) {
  const winners = board.results.map((r, i) => (r === "win" ? i : -1)).filter((i) => i >= 0);
  if (!winners.length) return "drawn";
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

// --- nested games ------------------------------------------------------------------------

function renderNested(sheet) {
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

/** Ground coordinates (0-based) of the first cell of block j (path order) at level lv. */
function blockLow(j, lv, S, N, D) {
  const P = S ** D;
  const path = [];
  let rest = j;
  for (let l = 0; l < lv; l++) {
    path.unshift(rest % P);
    rest = Math.floor(rest / P);
  }
  const lo = new Array(D).fill(0);
  path.forEach((p, l) => {
    for (let k = 0; k < D; k++) lo[k] += (Math.floor(p / S ** k) % S) * S ** (N - (l + 1));
  });
  return lo;
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

// --- the paper game's fields (seed 002): numbers on the board ---------------------------------
//
// Switched on by static/js/paper.js (the match page): `numbers` writes each block's
// number (S/T, as moves are written) in its corner; `routes` writes the route numbers
// (Map-like: beside each row of a block; Hypermap-like: in each empty cell) and, while a
// legal cell is pointed at or focused, outlines the block it would send the next player to.

export const paperFields = { numbers: false, routes: false };
const renderHooks = [];

/** Call fn(container, view) after every renderBoard (the paper fields beside the board). */
export function onBoardRender(fn) {
  renderHooks.push(fn);
}

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

function drawPaperFields(sheet, svg, { S, N, E, cells }) {
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

// --- words shared by the match page and the replay ----------------------------------------

const REASONS = {
  victory: "Victory",
  draw: "Draw",
  stalemate: "No moves left",
  "agreed-draw": "Draw by agreement",
  boards: "Most boards won",
  majority: "Majority of blocks",
  checkmate: "Checkmate",
  resignation: "Resignation",
  timeout: "Out of time",
  disconnect: "Disconnected",
};

/** A game:over reason (play/PROTOCOL.md) in words. */
export function reasonWords(reason) {
  return REASONS[reason] || (reason ? reason.replace(/-/g, " ") : "Game over");
}

// --- entry point -------------------------------------------------------------------------

/**
 * Draw `view` into `container` (its children are replaced). Returns {svg, cells}.
 */
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

export function renderBoard(container, view, options = {}) {
  // Keyboard users keep their place: the focused space (or, once it is taken, the board
  // itself, then the nearest legal space when the next move is theirs).
  const active = document.activeElement;
  const hadFocus = Boolean(active && active !== container && container.contains(active));
  const focused = container.querySelector(".vf-cell:focus");
  if (focused) container.dataset.focusKey = focused.getAttribute("data-key");
  const focusKey = container.dataset.focusKey || null;
  const sheet = new Sheet(view, options);
  sheet.host = container;
  const before = container.vfLastRender ? container.vfLastRender[0] : null;
  const svg = view.family === "nested" ? renderNested(sheet) : renderFlat(sheet);
  if (sheet.onMove) svg.classList.add("is-interactive");
  svg.setAttribute("tabindex", "-1");
  container.classList.add("vf-board-host");
  const status = document.createElement("div");
  status.className = "vf-board-status visually-hidden";
  status.setAttribute("aria-live", "polite");
  container.replaceChildren(svg, status);
  moving.animate(sheet, before, parseFlatMove, drawPiece);
  if (view.chain && sheet.onMove) {
    // A chain jump goes on: its piece is already picked up (or "Pass" ends the turn).
    const board = (view.boards[0] || {}).index || 1;
    const stacks = view.boards[0] && view.boards[0].type === "stacks";
    const at = String(view.chain).split(",");
    const record = sheet.byKey.get(`${board}:${(stacks ? at.slice(0, 2) : at).join(",")}`);
    if (record) moving.select(sheet, record, parseFlatMove);
  }
  if (hadFocus) {
    const legal = sheet.cells.filter((c) => c.g.hasAttribute("tabindex"));
    const anchor = sheet.cells.find((c) => c.key === focusKey);
    let target = legal.find((c) => c.key === focusKey) || null;
    if (!target && anchor && legal.length) {
      const distance = (c) => (c.cx - anchor.cx) ** 2 + (c.cy - anchor.cy) ** 2;
      target = legal.reduce((best, c) => (distance(c) < distance(best) ? c : best));
    }
    if (target) target.g.focus();
    else svg.focus({ preventScroll: true });
  }
  container.vfLastRender = [view, options];
  for (const fn of renderHooks) fn(container, view);
  return { svg, cells: sheet.cells };
}
