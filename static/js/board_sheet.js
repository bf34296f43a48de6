// The drawing of one renderBoard call (board.js): the <svg> root, the cells and what a
// click or a key does on them (the chooser for several moves, arrow keys between cells),
// and the winning lines. The flat and nested drawings fill it (board_flat.js,
// board_nested.js); pieces that move are board_moving.js.

import * as moving from "./board_moving.js";
import { LABEL_H, PAD, el } from "./board_layout.js";
import { parseFlatMove } from "./board_notation.js";
import { pieceIcon } from "./board_pieces.js";

let renderCount = 0;

// --- the shared drawing ----------------------------------------------------------------------

// Names a game's story gives its shapes, from the match page's boot JSON (none elsewhere).
let storyShapes = null;
function shapeNames() {
  if (storyShapes === null) {
    storyShapes = {};
    const boot = document.getElementById("match-boot");
    try {
      storyShapes = (boot && JSON.parse(boot.textContent).story?.shapes) || {};
    } catch {
      storyShapes = {};
    }
  }
  return storyShapes;
}

export class Sheet {
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
      // The game's own name for the shape (its story, issue 38): "Rock", not "circle".
      const named = shapeNames()[parsed.shape];
      text.textContent = named ? `${named} (${words})` : words;
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
    placeOnScreen(box, hostRect, cellRect);
    this.chooser = box;
    box.querySelector("button").focus({ preventScroll: true });
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

/** Keep a chooser (and its Cancel) inside the window: under its space when there is room,
 * above it when not (the bottom space of a tall board), and never past the right edge. */
function placeOnScreen(box, hostRect, cellRect) {
  const margin = 4;
  const rect = box.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  if (rect.right > width - margin) {
    const left = Math.max(margin, width - margin - rect.width) - hostRect.left;
    box.style.left = `${left}px`;
  }
  if (rect.bottom > window.innerHeight - margin && cellRect.top - rect.height - margin >= 0) {
    box.style.top = `${cellRect.top - hostRect.top - rect.height - margin}px`;
  } else if (rect.bottom > window.innerHeight - margin) {
    // No room above either: over the space itself, as low as the window allows.
    const top = Math.max(margin, window.innerHeight - margin - rect.height);
    box.style.top = `${top - hostRect.top}px`;
  }
}
