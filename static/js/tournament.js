// The tournament page's progress bar: poll the progress URL until the tournament is done,
// then reload once to show the results.
const section = document.querySelector("[data-progress-url]");
if (section && section.dataset.done !== "1") {
  const bar = section.querySelector(".progress-bar");
  const box = section.querySelector("[role=progressbar]");
  const poll = async () => {
    try {
      const response = await fetch(section.dataset.progressUrl, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const p = await response.json();
        bar.style.width = `${p.percent}%`;
        bar.textContent = `${p.percent}%`;
        box.setAttribute("aria-valuenow", p.percent);
        section.querySelector("[data-testid=written]").textContent = p.written;
        section.querySelector("[data-testid=status]").textContent = p.statusLabel;
        if (p.done) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // the server restarted or the network blinked: try again
    }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 500);
}
