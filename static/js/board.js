// The live board: an engine view drawn as SVG (flat and nested games).
//
//   renderBoard(container, view, {onMove, highlight}) -> {svg, cells}
//
// `view` is what the engine's State.view(seat) returns (gamecore/engine/view.py for flat
// games, gamecore/engine/nested/view.py for nested ones). The drawing is rebuilt from
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
//
// The drawing is split by what it holds: board_layout.js (geometry), board_pieces.js
// (pieces and marks), board_notation.js (notation and words), board_sheet.js (cells and
// their input), board_flat.js and board_nested.js (the two families), board_paper.js (the
// paper game's fields), board_legend.js, board_moving.js (pieces that move). Other pages
// import from this file only.

import * as moving from "./board_moving.js";
import { renderFlat } from "./board_flat.js";
import { renderNested } from "./board_nested.js";
import { parseFlatMove } from "./board_notation.js";
import { drawPiece } from "./board_pieces.js";
import { Sheet } from "./board_sheet.js";

export { renderLegend } from "./board_legend.js";
export { moveWords, parseFlatMove, plainDetail, reasonWords } from "./board_notation.js";
export { paperFields, sendsTo } from "./board_paper.js";
export { COLOR_WORDS, PIECE_COLORS, markIcon, pieceIcon } from "./board_pieces.js";

const renderHooks = [];

/** Call fn(container, view) after every renderBoard (the paper fields beside the board). */
export function onBoardRender(fn) {
  renderHooks.push(fn);
}

/**
 * Draw `view` into `container` (its children are replaced). Returns {svg, cells}.
 */
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
