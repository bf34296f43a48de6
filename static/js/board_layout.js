// Board geometry (board.js): the SVG element helper, the sizes of a cell and the gaps, where
// panels (slices) go in a grid, and where a nested game's block starts.

const NS = "http://www.w3.org/2000/svg";
export const U = 40; // one cell, in SVG units
const SLICE_GAP = 14;
export const BOARD_GAP = 36;
export const LABEL_H = 20;
export const PAD = 6;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Place panels (slices) of `cols`×`rows` cells in a grid of `perRow` columns; returns the
 * panels with x, y (their cell area's top-left, in SVG units) and the block's size.
 */
export function layoutPanels(panels, perRow, labelH) {
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

export function slicesPerRow(count, preferred) {
  if (count <= 4) return count;
  return preferred || Math.ceil(Math.sqrt(count));
}

/** Ground coordinates (0-based) of the first cell of block j (path order) at level lv. */
export function blockLow(j, lv, S, N, D) {
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
