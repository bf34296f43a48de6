// Game Factory: the marker palette and the board spaces.
// The rules live on the server: a space click is an htmx request (or, without
// JavaScript, a plain submit) that re-renders the form. This module only adds what
// radios cannot do by themselves, confirmations, and the nested board's preview.

import { renderBoard } from "./board.js";
import { drawGraphs } from "./factory3d.js";

const status = () => document.getElementById("fc-status");

function say(text) {
  const region = status();
  if (region) region.textContent = text;
}

function markerName(input) {
  const label = input && document.querySelector(`label[for="${input.id}"]`);
  return label ? (label.title || label.textContent.trim()) : "";
}

// A second click on the selected marker clears it (a radio cannot be unchecked).
let wasChecked = false;
document.addEventListener("pointerdown", (event) => {
  const label = event.target.closest("label.fc-marker");
  wasChecked = Boolean(label && label.control && label.control.checked);
});
document.addEventListener("click", (event) => {
  const label = event.target.closest("label.fc-marker");
  if (!label || !label.control) return;
  if (wasChecked) {
    event.preventDefault();
    label.control.checked = false;
    say("No marker selected.");
  }
  wasChecked = false;
});

document.addEventListener("change", (event) => {
  if (event.target.name === "marker") {
    say(`${markerName(event.target)} selected: click spaces to add or remove it.`);
  }
});

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.key === "Escape") {
    const checked = document.querySelector('input[name="marker"]:checked');
    if (checked) {
      checked.checked = false;
      say("No marker selected.");
    }
  } else if (event.key === " " && target.name === "marker" && target.checked) {
    event.preventDefault();
    target.checked = false;
    say("No marker selected.");
  }
});

// A space clicked with no marker selected: say so here instead of asking the server.
document.addEventListener("htmx:confirm", (event) => {
  const elt = event.detail.elt;
  if (elt && elt.name === "toggle" && !document.querySelector('input[name="marker"]:checked')) {
    event.preventDefault();
    say("Select a marker first (the lock or a piece beside a reserve), then a space.");
    const help = document.getElementById("fc-marker-help");
    if (help) help.classList.add("text-danger");
  }
});

// Forms that change something for everyone ask first.
document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

// Switching between flat and nested boards starts the board over with the other family's
// defaults: ask first when the creator has changed something since the page (or the last
// switch) was drawn. The name survives a switch, so typing it does not count.
let edited = false;
const ignored = new Set(["family", "marker", "name"]);
document.addEventListener("change", (event) => {
  if (event.target.closest("#factory-body") && !ignored.has(event.target.name)) edited = true;
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail.elt;
  if (elt && elt.name !== "family") edited = true;
});
document.addEventListener("htmx:confirm", (event) => {
  const elt = event.detail.elt;
  if (!elt || elt.name !== "family") return;
  const label = elt.options[elt.selectedIndex]?.textContent.trim() || "the other family";
  if (edited && !window.confirm(`Switch to ${label}? The board settings you chose are reset.`)) {
    event.preventDefault();
    const drawn = elt.querySelector("option[selected]");
    if (drawn) elt.value = drawn.value;  // back to the family on the page
    say("The board family was not changed.");
    return;
  }
  edited = false;
});

// The nested section's preview of the starting board, drawn by the live board's code
// from the view the server put in the page; again after each htmx swap of the form.

function drawPreview() {
  const data = document.getElementById("fc-preview-data");
  const host = document.getElementById("fc-preview");
  if (data && host) renderBoard(host, JSON.parse(data.textContent));
}
drawPreview();
document.addEventListener("htmx:afterSwap", drawPreview);

// Boards with no dimension of 1: the 3-D graph above their slices.
drawGraphs();
// After settling: htmx keeps the old classes on elements with the same id until then.
document.addEventListener("htmx:afterSettle", () => drawGraphs());

// The seed: when every reserve select of a shape is at its maximum, that shape's move
// dropdown is cleared and disabled. The server applies the rule on every render and on
// Save (adjust.py's adjust); this mirrors it at once, without a round trip.
const FULL_REASON = "Every reserve of this shape is at its maximum, so it cannot move.";
document.addEventListener("change", (event) => {
  const m = /^reserve-\w+-(\d+)$/.exec(event.target.name || "");
  const move = m && document.getElementById(`id_move-${m[1]}`);
  if (!move || document.querySelector(".fc-readonly")) return;
  const selects = document.querySelectorAll(`select[name^="reserve-"][name$="-${m[1]}"]`);
  // data-max: the maximum, when options past it (a shape captures) are offered too.
  const atMax = (s) =>
    Number(s.value) >= Number(s.dataset.max || s.options[s.options.length - 1].value);
  const full = [...selects].every(atMax);
  let blank = move.querySelector('option[value=""]');
  let reason = document.getElementById(`${move.id}-reason`);
  if (full && !move.disabled) {
    if (!blank) {
      blank = new Option("", "");
      move.prepend(blank);
    }
    move.value = "";
    move.disabled = true;
    if (!reason) {
      reason = document.createElement("div");
      reason.className = "form-text fc-reason";
      reason.id = `${move.id}-reason`;
      move.after(reason);
    }
    reason.textContent = FULL_REASON;
  } else if (!full && move.disabled) {
    move.disabled = false;
    if (blank) blank.remove();
    move.value = "stationary";
    if (reason) reason.remove();
  }
});
