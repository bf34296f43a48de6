// Move notation and the words for it (board.js): a flat game's notation parsed, a move
// and a game's end said in plain words for the match page and the replay.

import { COLOR_WORDS } from "./board_pieces.js";

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

export const flatKey = (board, coords) => `${board}:${coords.join(",")}`;
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
    .replace("holds a majority of the blocks", "won more than half of the blocks")
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
  "time-limit": "Time limit reached (draw)",
  disconnect: "Disconnected",
};

/** A game:over reason (play/PROTOCOL.md) in words. */
export function reasonWords(reason) {
  return REASONS[reason] || (reason ? reason.replace(/-/g, " ") : "Game over");
}
