// Game Factory: a board with no dimension of 1 drawn as a 3-D graph (an oblique
// projection in SVG, drawn here: no library). Each node is a space of the board; the
// edges join neighbours along x, y and z. The nodes mirror the slice buttons under the
// graph (the server's drawing, which stays the keyboard's and screen reader's way in):
// clicking a node clicks its button, so the server's toggle rule applies unchanged.

const NS = "http://www.w3.org/2000/svg";
const S = 36; // one step along x, in SVG units
const DEPTH = [0.4, -0.3]; // one step along y: right and up (a receding axis)
const RISE = 1.05; // one step along z: up

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

function project(x, y, z, Y, Z) {
  // Screen coordinates of space (x, y, z), 1-based; y=1 at the front.
  const px = (x - 1) * S + (y - 1) * S * DEPTH[0];
  const py = (Z - z) * S * RISE + (Y - y) * -S * DEPTH[1];
  return [px, py];
}

function draw(host) {
  const figure = host.closest(".fc-board-wrap");
  const [X, Y, Z] = host.dataset.size.split(",").map(Number);
  const spaces = new Map();
  for (const space of figure.querySelectorAll(".fc-space[data-spot]")) {
    const [, x, y, z] = space.dataset.spot.split(",").map(Number);
    spaces.set(`${x},${y},${z}`, space);
  }
  const width = (X - 1) * S + (Y - 1) * S * DEPTH[0];
  const height = (Z - 1) * S * RISE + (Y - 1) * -S * DEPTH[1];
  const pad = S * 0.6;
  const svg = el("svg", {
    class: "fc-3d-svg",
    viewBox: `${-pad} ${-pad} ${width + 2 * pad} ${height + 2 * pad + 14}`,
  });
  const edges = el("g", { class: "fc-3d-edges" }, svg);
  const nodes = el("g", { class: "fc-3d-nodes" }, svg);
  // Back to front: far rows (large y) first, then bottom to top.
  const order = [];
  for (let y = Y; y >= 1; y--)
    for (let z = 1; z <= Z; z++) for (let x = 1; x <= X; x++) order.push([x, y, z]);
  for (const [x, y, z] of order) {
    const [px, py] = project(x, y, z, Y, Z);
    for (const [nx, ny, nz] of [
      [x + 1, y, z],
      [x, y + 1, z],
      [x, y, z + 1],
    ]) {
      if (nx > X || ny > Y || nz > Z) continue;
      const [qx, qy] = project(nx, ny, nz, Y, Z);
      el("line", { x1: px, y1: py, x2: qx, y2: qy }, edges);
    }
    const space = spaces.get(`${x},${y},${z}`);
    const g = el("g", { class: "fc-3d-node", transform: `translate(${px} ${py})` }, nodes);
    g.dataset.spot = space ? space.dataset.spot : "";
    const title = el("title", {}, g);
    title.textContent = space ? space.getAttribute("aria-label") : `space ${x},${y},${z}`;
    el("circle", { r: S * 0.14, class: "fc-3d-dot" }, g);
    if (!space) continue;
    if (space.classList.contains("is-locked")) {
      el("rect", { x: -S * 0.2, y: -S * 0.2, width: S * 0.4, height: S * 0.4, class: "fc-3d-locked" }, g);
    }
    const piece = space.querySelector("svg.fc-piece");
    if (piece) {
      const copy = piece.cloneNode(true);
      copy.setAttribute("x", -S * 0.24);
      copy.setAttribute("y", -S * 0.24);
      copy.setAttribute("width", S * 0.48);
      copy.setAttribute("height", S * 0.48);
      g.append(copy);
    }
    const dealt = space.querySelector(".fc-dealt");  // a dealt space (release 1.7): "?"
    if (dealt) {
      const tone = [...dealt.classList].find((c) => c.startsWith("fc-c-")) || "fc-c-common";
      el("rect", { x: -S * 0.2, y: -S * 0.2, width: S * 0.4, height: S * 0.4, rx: 2, class: `fc-3d-dealt ${tone}` }, g);
      el("text", { y: S * 0.12, "text-anchor": "middle", class: `fc-3d-dealt-q ${tone}` }, g).textContent = "?";
    }
    if (space.querySelector(".fc-flags")) el("circle", { cx: S * 0.25, cy: S * 0.25, r: 4, class: "fc-3d-flag" }, g);
    if (space.tagName === "BUTTON") {
      g.classList.add("is-clickable");
      g.addEventListener("click", () => space.click());
    }
  }
  // Axis names at the front-left corner.
  const [ox, oy] = project(1, 1, 1, Y, Z);
  const label = (text, x, y) => {
    const t = el("text", { x, y, class: "fc-3d-axis" }, svg);
    t.textContent = text;
  };
  label("x →", ox + S * 0.2, oy + S * 0.55);
  label("z ↑", ox - S * 0.55, oy - S * 0.4);
  label("y ↗", ox + (X - 1) * S + S * 0.3, oy + S * 0.45);
  // About 1.8 screen pixels per unit: a 3x3x3 board is small, an 8x8x8 one fills the width.
  svg.style.maxWidth = `${Math.round((width + 2 * pad) * 1.8)}px`;
  svg.style.margin = "0 auto";
  host.replaceChildren(svg);
}

export function drawGraphs(root = document) {
  for (const host of root.querySelectorAll(".fc-3d[data-size]")) draw(host);
}
