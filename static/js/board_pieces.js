// Pieces and marks (board.js): a flat game's pieces (colour, shape) and a nested game's
// team marks, drawn into the board or as standalone icons for panels and choosers.

import { el } from "./board_layout.js";

// The engine's vocabulary (gamecore/rules/vocabulary.py) and the teams of nested games.
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

// --- pieces and marks --------------------------------------------------------------------

/** A piece (colour, shape) centred in a box of `size` units at (cx, cy). */
export function drawPiece(parent, cx, cy, size, color, shape, extraClass = "") {
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
export function drawMark(parent, cx, cy, size, symbol, color, extraClass = "") {
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

/** An empty 40×40 <svg> icon of `size` pixels, hidden from screen readers. */
function iconSvg(size) {
  return el("svg", {
    class: "vf-icon",
    viewBox: "0 0 40 40",
    width: size,
    height: size,
    "aria-hidden": "true",
    focusable: "false",
  });
}

/** A standalone <svg> of a piece, for side panels and choosers. */
export function pieceIcon(color, shape = "circle", size = 22) {
  const svg = iconSvg(size);
  drawPiece(svg, 20, 20, 40, color, shape);
  return svg;
}

/** A standalone <svg> of a nested game's team mark. */
export function markIcon(symbol, color, size = 22) {
  const svg = iconSvg(size);
  drawMark(svg, 20, 20, 40, symbol, color);
  return svg;
}
