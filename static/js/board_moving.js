// The live board for pieces that move (the general family), used by board.js:
//
// - select: click or tap a piece (or Enter on it) and its legal destinations light up
//   (`.is-target`, each a focusable button with data-target = its move(s)); click one,
//   or Enter on it. Several moves to one destination (a promotion: "=pentagon") ask which
//   shape with the chooser. Escape, or the piece again, puts it down.
// - drag: press a piece and drag it onto a destination (mouse, pen or touch).
// - a chain jump in progress (view.chain) starts with its piece selected; "Pass" ends it.
// - marks: exclusive, sticky and per-seat locked spaces (view.boards[].marks) as badges.
// - animate: the last move's piece slides in, captives fade out, converted pieces flash;
//   nothing moves for people who ask for reduced motion.
//
// Every legal move comes from the view the server sent for this seat (view.legal_moves);
// nothing here computes a rule. Hooks for cloaking (issue 20): a piece without a shape is
// drawn as its colour only (board_pieces.js), and a space listed in board.fogged is greyed.

import { el } from "./board_layout.js";

const say = (sheet, text) => {
  const region = sheet.host && sheet.host.querySelector(".vf-board-status");
  if (region) region.textContent = text;
};

/** The stack or space a step lands on, keyed as the drawing keys its cells. */
export function targetKey(sheet, parsed) {
  const stacks = sheet.view.boards[0] && sheet.view.boards[0].type === "stacks";
  const to = stacks ? parsed.to.slice(0, 2) : parsed.to;
  return `${parsed.board}:${to.join(",")}`;
}

export function stepsOf(record, parse) {
  return record.moves.filter((move) => (parse(move) || {}).to);
}

/** Select a piece: light up where its steps go. */
export function select(sheet, record, parse) {
  clear(sheet);
  const steps = stepsOf(record, parse);
  if (!steps.length) return;
  sheet.selected = record;
  sheet.targets = new Map();
  for (const move of steps) {
    const key = targetKey(sheet, parse(move));
    if (!sheet.targets.has(key)) sheet.targets.set(key, []);
    sheet.targets.get(key).push(move);
  }
  record.g.classList.add("is-selected");
  record.g.setAttribute("aria-pressed", "true");
  const bg = record.g.querySelector(".vf-cell-bg");
  if (bg) {
    // A ring inside the cell (a stroke on the cell's own edge is cut at the board's edge).
    const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(bg.getAttribute(k)));
    const ring = el("rect", { class: "vf-selected-ring", x: x + 2.5, y: y + 2.5, width: w - 5, height: h - 5, rx: 3 });
    record.g.insertBefore(ring, bg.nextSibling);
  }
  for (const [key, moves] of sheet.targets) {
    const target = sheet.byKey.get(key);
    if (!target) continue;
    const g = target.g;
    g.classList.add("is-target");
    g.dataset.target = moves.join("|");
    g.dataset.wasFocusable = g.hasAttribute("tabindex") ? "1" : "";
    g.dataset.label = g.getAttribute("aria-label") || "";
    g.dataset.role = g.getAttribute("role") || "";
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const capture = moves.some((m) => parse(m).capture);
    const where = target.g.getAttribute("data-coords");
    g.setAttribute("aria-label", `${capture ? "Capture at" : "Move to"} ${where}`);
    const box = target.g.querySelector(".vf-cell-bg");
    if (box) {
      const x = Number(box.getAttribute("x"));
      const y = Number(box.getAttribute("y"));
      const w = Number(box.getAttribute("width"));
      const h = Number(box.getAttribute("height"));
      el(
        "circle",
        {
          class: `vf-target-dot${capture ? " is-capture" : ""}`,
          cx: x + w / 2,
          cy: y + Math.min(h, 40) / 2 + (h > 40 ? h - 40 : 0),
          r: capture ? 17 : 7,
        },
        g,
      );
    }
  }
  const n = sheet.targets.size;
  say(sheet, `Piece at ${record.g.getAttribute("data-coords")} selected: ${n} destination${n === 1 ? "" : "s"} lit. Escape puts it down.`);
}

/** Put the selected piece down: the board as drawn. */
export function clear(sheet) {
  if (sheet.selected) {
    sheet.selected.g.classList.remove("is-selected");
    sheet.selected.g.removeAttribute("aria-pressed");
    for (const ring of sheet.selected.g.querySelectorAll(".vf-selected-ring")) ring.remove();
  }
  for (const key of (sheet.targets || new Map()).keys()) {
    const target = sheet.byKey.get(key);
    if (!target) continue;
    const g = target.g;
    g.classList.remove("is-target");
    delete g.dataset.target;
    for (const dot of g.querySelectorAll(".vf-target-dot")) dot.remove();
    if (!g.dataset.wasFocusable) g.removeAttribute("tabindex");
    if (g.dataset.label) g.setAttribute("aria-label", g.dataset.label);
    if (g.dataset.role) g.setAttribute("role", g.dataset.role);
  }
  sheet.selected = null;
  sheet.targets = new Map();
}

// --- drag and drop --------------------------------------------------------------------------

export function enableDrag(sheet, record, parse) {
  if (!stepsOf(record, parse).length) return;
  record.g.classList.add("is-draggable");
  let start = null;
  let ghost = null;
  const toSvg = (event) => {
    const m = sheet.svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  record.g.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId };
  });
  record.g.addEventListener("pointermove", (event) => {
    if (!start || event.pointerId !== start.id) return;
    const far = Math.hypot(event.clientX - start.x, event.clientY - start.y) > 6;
    if (!ghost && far) {
      if (sheet.selected !== record) select(sheet, record, parse);
      const piece = record.g.querySelector(".vf-piece:last-of-type");
      if (!piece) return;
      record.g.setPointerCapture(event.pointerId);
      ghost = el("g", { class: "vf-drag-ghost", "pointer-events": "none" }, sheet.svg);
      ghost.append(piece.cloneNode(true));
      const box = piece.getBBox();
      ghost.dataset.cx = box.x + box.width / 2;
      ghost.dataset.cy = box.y + box.height / 2;
      // The piece's own position, inside its panel: the ghost follows the pointer.
      const origin = toSvg(event);
      ghost.dataset.ox = origin.x;
      ghost.dataset.oy = origin.y;
      record.g.classList.add("is-dragging");
    }
    if (ghost) {
      const p = toSvg(event);
      ghost.setAttribute("transform", `translate(${p.x - ghost.dataset.ox} ${p.y - ghost.dataset.oy})`);
    }
  });
  const end = (event) => {
    if (!start || event.pointerId !== start.id) return;
    start = null;
    if (!ghost) return;
    ghost.remove();
    ghost = null;
    record.g.classList.remove("is-dragging");
    sheet.dragged = true; // the click that follows a drop is not a click
    setTimeout(() => { sheet.dragged = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest && under.closest(".vf-cell");
    const key = cell && cell.getAttribute("data-key");
    if (key && sheet.targets.has(key)) sheet.commit(sheet.byKey.get(key));
  };
  record.g.addEventListener("pointerup", end);
  record.g.addEventListener("pointercancel", end);
}

// --- marked spaces --------------------------------------------------------------------------

/** Badges for the rules' marked spaces of one cell: exclusive (purple, the seats that may
 * use it), locked to seats (red), sticky (blue). (x, y) is the cell's top-left corner. */
export function drawMarks(parent, x, y, w, mark, h = 40) {
  if (!mark) return;
  if (mark.phase_locked) {
    el("rect", { class: "vf-mark-phase-locked", x: x + 3, y: y + 3, width: w - 6, height: h - 6 }, parent);
  }
  if (mark.exclusive) {
    el("rect", { class: "vf-mark-exclusive", x: x + 1.5, y: y + 1.5, width: w - 3, height: h - 3 }, parent);
    badge(parent, x + 2, y + 2, mark.exclusive.join(","), "vf-badge-exclusive");
  }
  if (mark.locked_to) {
    const seats = mark.locked_to.map((l) => l.seats.join(",") + (l.only ? ` ${l.only[0]}` : "")).join(" ");
    badge(parent, x + w - 2, y + 2, `✕${seats}`, "vf-badge-locked", "end");
    el("rect", { class: "vf-mark-locked-to", x: x + 1, y: y + 1, width: 0, height: 0 }, parent);
  }
  if (mark.sticky) {
    el("rect", { class: "vf-mark-sticky", x: x + 4, y: y + h - 6, width: w - 8, height: 3.5, rx: 1.5 }, parent);
  }
}

function badge(parent, x, y, text, cls, anchor = "start") {
  const t = el(
    "text",
    { class: `vf-badge ${cls}`, x, y: y + 5, "text-anchor": anchor, "dominant-baseline": "central", "font-size": 9 },
    parent,
  );
  t.textContent = text;
  return t;
}

/** The one mark every space of a stack shares (drawn once for the stack), or null. */
export function stackMark(marks, keyOf, height) {
  let first = null;
  for (let z = 1; z <= height; z++) {
    const mark = marks.get(keyOf(z));
    if (!mark) return null;
    const { at, ...rest } = mark;
    const text = JSON.stringify(rest);
    if (first === null) first = text;
    else if (text !== first) return null;
  }
  return first === null ? null : marks.get(keyOf(1));
}

/** The marks of a board, keyed by "board:x,y,z". */
export function marksByKey(board) {
  const out = new Map();
  for (const mark of board.marks || []) out.set(`${board.index}:${mark.at.join(",")}`, mark);
  return out;
}

export function markWords(mark) {
  if (!mark) return "";
  const words = [];
  if (mark.exclusive) words.push(`only player ${mark.exclusive.join(" and ")} may enter or leave`);
  for (const lock of mark.locked_to || []) {
    const what = lock.only === "entry" ? "enter" : lock.only === "exit" ? "leave" : "enter or leave";
    words.push(`player ${lock.seats.join(" and ")} may not ${what}`);
  }
  if (mark.sticky) words.push("sticky: no piece leaves");
  if (mark.phase_locked) words.push("locked to everyone this phase");
  return words.length ? ` (${words.join("; ")})` : "";
}

// --- animation --------------------------------------------------------------------------------

const reduced = () =>
  typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function piecesOf(view) {
  const out = new Map();
  for (const board of view.boards || []) {
    for (const p of board.pieces || []) out.set(`${board.index}:${p.at.join(",")}`, p);
  }
  return out;
}

/** Animate what the latest move changed between `before` and the drawn `sheet.view`. */
export function animate(sheet, before, parse, drawPiece) {
  const view = sheet.view;
  if (!before || reduced() || before.game !== view.game || view.family !== "general") return;
  if (!view.last_move || before.last_move === view.last_move || (view.ply || 0) <= (before.ply || 0)) return;
  const move = parse(view.last_move);
  const old = piecesOf(before);
  const now = piecesOf(view);
  const fromKey = move && move.to ? `${move.board}:${move.coords.join(",")}` : null;
  let landed = null;
  if (move && move.to) {
    // Where the mover now stands: on stacks, the top of the destination stack.
    const stacks = view.boards[0].type === "stacks";
    if (stacks) {
      let best = null;
      for (const [key, p] of now) {
        const [b, at] = key.split(":");
        const [x, y, z] = at.split(",").map(Number);
        if (Number(b) === move.board && x === move.to[0] && y === move.to[1] && (!best || z > best.z)) best = { key, z, p };
      }
      landed = best && best.key;
    } else {
      landed = `${move.board}:${move.to.join(",")}`;
    }
  } else if (move) {
    landed = null; // a placement: the new piece pops in below
  }
  const overlay = el("g", { class: "vf-anim-layer", "pointer-events": "none" }, sheet.svg);
  // The mover slides from where it stood.
  if (landed && fromKey) {
    const a = sheet.positions.get(fromKey);
    const b = sheet.positions.get(landed);
    const piece = b && b.piece;
    if (a && b && piece) {
      const wrap = el("g", { class: "vf-anim-move" });
      piece.replaceWith(wrap);
      wrap.append(piece);
      wrap.animate(
        [{ transform: `translate(${a.cx - b.cx}px, ${a.cy - b.cy}px)` }, { transform: "translate(0, 0)" }],
        { duration: 260, easing: "ease-out" },
      );
    }
  }
  for (const [key, p] of old) {
    if (key === fromKey) continue;
    const q = now.get(key);
    const at = sheet.positions.get(key);
    if (!at) continue;
    if (!q || (key === landed && (q.color !== p.color || q.shape !== p.shape))) {
      // A captive (removed, or taken to a reserve): it fades where it stood.
      const ghost = drawPiece(overlay, at.cx, at.cy, 32, p.color, p.shape, "vf-captive");
      ghost.dataset.testid = "captive";
      ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 420, easing: "ease-in", fill: "forwards" });
    } else if (q.color !== p.color && at.piece) {
      // Converted: it turns to its captor's colour where it stands.
      at.piece.classList.add("vf-converted");
      at.piece.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: 420, easing: "ease-out" });
    }
  }
  // Placed (or reincarnated into the reserve and placed): a new piece grows in.
  if (move && !move.to) {
    const key = [...now.keys()].find((k) => !old.has(k));
    const at = key && sheet.positions.get(key);
    if (at && at.piece) at.piece.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200, easing: "ease-out" });
  }
  setTimeout(() => overlay.remove(), 600);
}
