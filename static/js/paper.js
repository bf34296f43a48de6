// The paper game's fields on the match page (Strategic Tic-Tac-Toe, seed 002).
//
// The seed plays on paper beside helper fields; here each is a switch the player turns on
// and off (remembered in this browser):
//   Block numbers  (Numbered)           each block's S/T number drawn on the board
//   Where a move sends (Mapped, Hypermapped)  the route numbers on the board, and the
//                                       block a pointed-at move sends the next player to
//   Who owns what  (Help)               the won blocks of each level as small grids
//   Move record    (Move)               each player's moves in S/T/O columns
//   Continuous record (Continuous Move) the moves as one chain (Tactical-like games)
// Everything is drawn from the engine's view (gamecore/engine/nested/view.py): `blocks`,
// `routes`, `record`. Nothing here knows the rules beyond that.

import { PIECE_COLORS, onBoardRender, paperFields, renderBoard } from "./board.js";

const STORE = "vf-paper-fields";
const FIELDS = [
  ["numbers", "Block numbers", "Each block's number on the board, as moves are written: S/T/O is the strategic block, the tactical block, then the cell (1–9, left to right, top to bottom)."],
  ["routes", "Where a move sends", "The route numbers on the board; point at a cell (on a touch screen: tap it once, tap again to play) to see the block your move sends the other player to."],
  ["help", "Who owns what", "Small grids of the blocks won so far, level by level."],
  ["record", "Move record", "Every move, in S/T/O columns for each player."],
  ["continuous", "Continuous record", "The moves as one chain: in Tactical-like games each move's S/T follow from the move before, so only its cell is written (a free move is written in full)."],
];
const NS = "http://www.w3.org/2000/svg";

function load() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

function save(on) {
  try {
    localStorage.setItem(STORE, JSON.stringify(on));
  } catch {
    /* private mode: the switches just are not remembered */
  }
}

function svgEl(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.append(node);
  return node;
}

function levelNames(depth) {
  if (depth === 3) return { 1: "Strategic cells", 2: "Tactical cells" };
  if (depth === 2) return { 1: "Blocks" };
  const out = {};
  for (let lv = 1; lv < depth; lv++) out[lv] = `Level ${lv} blocks`;
  return out;
}

function columnLetters(depth) {
  if (depth === 3) return ["S", "T", "O"];
  if (depth === 2) return ["T", "O"];
  return Array.from({ length: depth }, (_, k) => String(k + 1));
}

export function eligible(view) {
  if (!view || view.family !== "nested" || view.dimensions !== 2 || view.depth < 2) return false;
  const numbered = (view.routes || []).some((r) => r.kind !== "tactical");
  return view.depth >= 3 || numbered;
}

class Paper {
  constructor(section) {
    this.section = section;
    this.on = load();
    this.built = false;
  }

  colorOf(view, symbol) {
    const team = (view.symbols || []).indexOf(symbol);
    const name = (view.seat_colors || [])[team];
    return PIECE_COLORS[name] || "#555";
  }

  tactical(view) {
    return (view.routes || []).every((r) => r.kind === "tactical") && (view.routes || []).length > 0;
  }

  build(container) {
    this.container = container;
    const toggles = document.createElement("div");
    toggles.className = "vf-paper-toggles";
    toggles.setAttribute("role", "group");
    toggles.setAttribute("aria-labelledby", "vf-paper-title");
    this.inputs = {};
    for (const [key, label, hint] of FIELDS) {
      const wrap = document.createElement("div");
      wrap.className = "form-check form-switch vf-paper-toggle";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.className = "form-check-input";
      input.id = `vf-paper-${key}`;
      input.setAttribute("role", "switch");
      input.dataset.testid = `paper-switch-${key}`;
      input.checked = Boolean(this.on[key]);
      input.setAttribute("aria-describedby", `vf-paper-${key}-hint`);
      const lab = document.createElement("label");
      lab.className = "form-check-label";
      lab.htmlFor = input.id;
      lab.textContent = label;
      const small = document.createElement("div");
      small.className = "form-text vf-paper-hint";
      small.id = `vf-paper-${key}-hint`;
      small.textContent = hint;
      input.addEventListener("change", () => {
        this.on[key] = input.checked;
        save(this.on);
        this.apply();
      });
      wrap.append(input, lab, small);
      toggles.append(wrap);
      this.inputs[key] = { input, hint: small, text: hint };
    }
    this.sends = document.createElement("p");
    this.sends.className = "vf-paper-sends small mb-1";
    this.sends.dataset.testid = "paper-sends";
    this.sends.setAttribute("aria-live", "polite");
    this.panels = document.createElement("div");
    this.panels.className = "vf-paper-panels";
    this.help = document.createElement("div");
    this.help.className = "vf-paper-help";
    this.help.dataset.testid = "paper-help";
    this.record = document.createElement("div");
    this.record.className = "vf-paper-record";
    this.record.dataset.testid = "paper-record";
    this.chain = document.createElement("div");
    this.chain.className = "vf-paper-chain";
    this.chain.dataset.testid = "paper-continuous";
    this.panels.append(this.help, this.record, this.chain);
    this.section.append(toggles, this.sends, this.panels);
    container.addEventListener("vf-sends", (event) => {
      const d = event.detail;
      this.sends.textContent = d ? `${d.move} sends the other player to block ${d.sends} (a free move if it is full).` : "";
    });
    this.built = true;
  }

  /** Switch the board's drawing to match the switches and redraw it. */
  apply() {
    const view = this.view;
    const routed = (view.routes || []).length > 0;
    const numbered = (view.routes || []).some((r) => r.kind !== "tactical");
    this.enable("routes", routed, "This game sends nobody anywhere (any block may be played).");
    this.enable("continuous", this.tactical(view), "Made for Tactical-like games, where each move follows from the one before.");
    if (this.inputs.routes && numbered) {
      this.inputs.routes.hint.textContent = this.inputs.routes.text.replace("The route numbers", "The route numbers (beside each row, or in each cell)");
    }
    paperFields.numbers = Boolean(this.on.numbers);
    paperFields.routes = Boolean(this.on.routes) && routed;
    const args = this.container.vfLastRender;
    if (args) renderBoard(this.container, ...args); // calls update() again through the hook
  }

  enable(key, ok, why) {
    const item = this.inputs[key];
    if (!item) return;
    item.input.disabled = !ok;
    item.hint.textContent = ok ? item.text : why;
    if (!ok) item.input.checked = false;
  }

  update(container, view) {
    this.view = view;
    if (!this.built) {
      this.build(container);
      this.section.hidden = false;
      this.apply();
      return;
    }
    this.help.hidden = !this.on.help;
    this.record.hidden = !this.on.record;
    this.chain.hidden = !(this.on.continuous && this.tactical(view));
    if (!this.help.hidden) this.drawHelp(view);
    if (!this.record.hidden) this.drawRecord(view);
    if (!this.chain.hidden) this.drawChain(view);
    this.sends.hidden = !paperFields.routes;
  }

  drawHelp(view) {
    const S = view.side;
    const N = view.depth;
    const names = levelNames(N);
    this.help.replaceChildren();
    const title = document.createElement("h3");
    title.className = "h6 mb-1";
    title.textContent = "Who owns what";
    this.help.append(title);
    const grids = document.createElement("div");
    grids.className = "vf-paper-grids";
    for (let lv = N - 1; lv >= 1; lv--) {
      const owners = (view.blocks || [])[lv - 1] || "";
      const units = S ** lv;
      const unit = lv === N - 1 ? 14 : 22;
      const gap = 5;
      const gaps = lv > 1 ? S - 1 : 0;
      const size = units * unit + gaps * gap;
      const fig = document.createElement("figure");
      fig.className = "vf-paper-grid mb-0";
      const svg = svgEl("svg", { viewBox: `-1 -1 ${size + 2} ${size + 2}`, width: size + 2, height: size + 2, role: "img" });
      let owned = 0;
      const P = S * S;
      for (let gy = 0; gy < units; gy++) {
        for (let gx = 0; gx < units; gx++) {
          let j = 0;
          for (let l = 1; l <= lv; l++) {
            const span = S ** (lv - l);
            j = j * P + (Math.floor(gx / span) % S) + S * (Math.floor(gy / span) % S);
          }
          const symbol = owners[j] || "_";
          const px = gx * unit + (lv > 1 ? Math.floor(gx / S ** (lv - 1)) * gap : 0);
          const py = gy * unit + (lv > 1 ? Math.floor(gy / S ** (lv - 1)) * gap : 0);
          svgEl("rect", { x: px, y: py, width: unit, height: unit, class: "vf-paper-unit" }, svg);
          if (symbol !== "_") {
            owned++;
            const t = svgEl("text", { x: px + unit / 2, y: py + unit / 2 + 0.5, "font-size": unit * 0.75, "text-anchor": "middle", "dominant-baseline": "central", fill: symbol === "*" ? "#607d8b" : this.colorOf(view, symbol), "font-weight": 700 }, svg);
            t.textContent = symbol;
          }
        }
      }
      svg.setAttribute("aria-label", `${names[lv]}: ${owned} of ${units * units} decided`);
      const cap = document.createElement("figcaption");
      cap.className = "small text-body-secondary";
      cap.textContent = names[lv];
      fig.append(svg, cap);
      grids.append(fig);
    }
    this.help.append(grids);
    const key = document.createElement("p");
    key.className = "small text-body-secondary mb-0";
    key.textContent = "* a drawn block" + (view.peak && view.peak !== "_" ? ` · the game: ${view.peak}` : "");
    this.help.append(key);
  }

  drawRecord(view) {
    const letters = columnLetters(view.depth);
    const teams = view.teams || [];
    const symbols = view.symbols || [];
    const byTeam = teams.map(() => []);
    for (const [team, text] of view.record || []) byTeam[team].push(text.split("/"));
    const rows = Math.max(0, ...byTeam.map((m) => m.length));
    const last = (view.record || []).length ? view.record[view.record.length - 1] : null;
    const table = document.createElement("table");
    table.className = "table table-sm vf-paper-table mb-0";
    const cap = document.createElement("caption");
    cap.className = "caption-top h6 mb-1 text-body";
    cap.textContent = "Move record";
    table.append(cap);
    const head = table.createTHead();
    const top = head.insertRow();
    const sub = head.insertRow();
    const blank = document.createElement("th");
    blank.rowSpan = 2;
    blank.textContent = "#";
    blank.scope = "col";
    top.append(blank);
    teams.forEach((team) => {
      const th = document.createElement("th");
      th.colSpan = letters.length;
      th.scope = "colgroup";
      th.textContent = symbols[team];
      th.style.color = this.colorOf(view, symbols[team]);
      top.append(th);
      for (const letter of letters) {
        const c = document.createElement("th");
        c.scope = "col";
        c.textContent = letter;
        sub.append(c);
      }
    });
    const body = table.createTBody();
    for (let r = 0; r < rows; r++) {
      const tr = body.insertRow();
      const n = document.createElement("th");
      n.scope = "row";
      n.textContent = String(r + 1);
      tr.append(n);
      teams.forEach((team, t) => {
        const move = byTeam[t][r];
        const isLast = last && last[0] === team && r === byTeam[t].length - 1;
        for (let k = 0; k < letters.length; k++) {
          const td = tr.insertCell();
          td.textContent = move ? move[k] : "";
          if (isLast) td.classList.add("is-last");
        }
      });
    }
    const box = this.record.querySelector(".vf-paper-scroll") || document.createElement("div");
    box.className = "vf-paper-scroll";
    box.replaceChildren(table);
    this.record.replaceChildren(box);
    box.scrollTop = box.scrollHeight;
  }

  drawChain(view) {
    const symbols = view.symbols || [];
    this.chain.replaceChildren();
    const title = document.createElement("h3");
    title.className = "h6 mb-1";
    title.textContent = "Continuous record";
    const list = document.createElement("ol");
    list.className = "vf-paper-links";
    let before = null;
    for (const [team, text] of view.record || []) {
      const path = text.split("/");
      const follows = before && path.slice(0, -1).join("/") === before.slice(1).join("/");
      const li = document.createElement("li");
      li.style.color = this.colorOf(view, symbols[team]);
      li.textContent = follows ? path[path.length - 1] : text;
      li.title = `${symbols[team]} ${text}${follows ? "" : before ? " (a free move)" : ""}`;
      if (!follows) li.classList.add("is-full");
      list.append(li);
      before = path;
    }
    this.chain.append(title, list);
  }
}

function start() {
  const section = document.getElementById("vf-paper");
  if (!section) return;
  const paper = new Paper(section);
  onBoardRender((container, view) => {
    if (container.id !== "vf-board" || !eligible(view)) return;
    paper.update(container, view);
  });
}

start();
