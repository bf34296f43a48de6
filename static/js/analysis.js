// A game's analysis card: while the workers analyse the game, follow the progress and
// show the figures once they are ready (the card's URL answers with its data).
const card = document.querySelector("[data-testid=analysis-card]");

async function poll() {
  if (!card || card.dataset.status === "done") return;
  try {
    const response = await fetch(card.dataset.analysisUrl, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (data.status === "done") {
      window.location.reload();
      return;
    }
    const bar = card.querySelector("[data-testid=analysis-progress]");
    if (bar) {
      bar.setAttribute("aria-valuenow", data.progress);
      bar.firstElementChild.style.width = `${data.progress}%`;
      bar.firstElementChild.textContent = `${data.progress}%`;
    }
  } catch (error) {
    // the network blinked: try again at the next tick
  }
  setTimeout(poll, 2000);
}

setTimeout(poll, 2000);
