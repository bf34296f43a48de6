// The board is as tall as the screen has room for (issue 38, "Fits the screen"): what is
// above it (title, turn line, a dilemma's phase panel) and what is under it in the same
// column (the legend, Resign, the replay's step buttons) are measured, not guessed, so the
// buttons under the board stay above the fold at 1366x768 and on a phone.
//
// Sets --vf-board-room (px) on the board's container; board.css caps the board with it.

const MIN_ROOM = 192; // 12rem: below this a board is unreadable; the page scrolls instead
const GAP = 8; // air between the last button and the window's bottom edge

export function fitBoard(wrap) {
  if (!wrap || typeof ResizeObserver === "undefined") return;
  const column = wrap.parentElement;
  let queued = false;
  const fit = () => {
    queued = false;
    if (wrap.classList.contains("is-zoomed")) return; // zoomed: the board scrolls itself
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    // Everything under the board in its column (margins included), whatever is shown now.
    const below = column.getBoundingClientRect().bottom - wrap.getBoundingClientRect().bottom;
    const room = Math.max(MIN_ROOM, Math.floor(window.innerHeight - top - below - GAP));
    const now = parseFloat(wrap.style.getPropertyValue("--vf-board-room")) || 0;
    if (Math.abs(now - room) > 1) wrap.style.setProperty("--vf-board-room", `${room}px`);
  };
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(fit);
  };
  // The column grows when Resign or the legend appear; the page when a panel above does.
  const observer = new ResizeObserver(queue);
  observer.observe(column);
  for (const child of column.children) if (child !== wrap) observer.observe(child);
  observer.observe(document.body);
  window.addEventListener("resize", queue);
  fit();
}
