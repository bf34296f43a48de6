// Cloaked games (issue 20) on the board: cloaked spaces drawn as fog, and the attempt that
// revealed a hidden piece shown to the seat that made it ("there was a piece here").
// Everything drawn comes from the seat's own view (view.cloaking, view.attempt): the
// server never sends a hidden piece, so there is nothing here to hide.
//
// Loaded beside board.js on the match and replay pages; it decorates every render.

import { onBoardRender } from "./board.js";

const NS = "http://www.w3.org/2000/svg";

function rectOver(cell, cls) {
  const bg = cell.querySelector(".vf-cell-bg");
  if (!bg) return null;
  const rect = document.createElementNS(NS, "rect");
  for (const name of ["x", "y", "width", "height"]) rect.setAttribute(name, bg.getAttribute(name));
  rect.setAttribute("class", cls);
  rect.setAttribute("pointer-events", "none");
  bg.after(rect); // under the pieces the seat sees
  return rect;
}

/** The board cells (by data-key) holding a space [board, x, y, z]: the space's own cell,
 * or on a stacks board the column's. */
function cellsOf(container, space) {
  const [b, x, y, z] = space;
  const keys = [`${b}:${x},${y},${z}`, `${b}:${x},${y}`];
  const found = [];
  for (const key of keys) {
    const cell = container.querySelector(`.vf-cell[data-key="${key}"]`);
    if (cell) found.push(cell);
  }
  return found;
}

export function decorate(container, view) {
  const cloaking = view && view.cloaking;
  if (!cloaking || cloaking.type === "none") return;
  const fogged = new Set();
  for (const space of cloaking.cloaked || []) {
    for (const cell of cellsOf(container, space)) {
      if (fogged.has(cell)) continue;
      fogged.add(cell);
      cell.classList.add("is-cloaked");
      cell.setAttribute("data-cloaked", "true");
      rectOver(cell, "vf-fog");
    }
  }
  const attempt = view.attempt;
  const seats = view.seats || 2;
  if (attempt && !view.outcome && attempt.ply > (view.ply || 0) - seats) {
    for (const space of attempt.revealed || []) {
      for (const cell of cellsOf(container, space)) {
        cell.classList.add("is-revealed");
        cell.setAttribute("data-revealed", "true");
        const ring = rectOver(cell, "vf-revealed");
        if (ring) {
          const title = document.createElementNS(NS, "title");
          title.textContent = "There was a piece here";
          ring.appendChild(title);
        }
      }
    }
    let note = container.parentElement && container.parentElement.querySelector(".vf-fog-note");
    if (!note && container.parentElement) {
      note = document.createElement("p");
      note.className = "vf-fog-note small";
      note.setAttribute("data-testid", "fog-note");
      container.after(note);
    }
    if (note) {
      note.textContent = `${attempt.move}: there was a piece here. Your turn ended with nothing moved.`;
      note.hidden = false;
    }
  } else {
    const note = container.parentElement && container.parentElement.querySelector(".vf-fog-note");
    if (note) note.hidden = true;
  }
}

onBoardRender(decorate);
