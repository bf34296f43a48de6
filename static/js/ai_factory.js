// The player factory's form: show only the chosen kind's and algorithm's settings, the
// sliders' values; the Curriculum tab's pie chart; the study progress, polled.
for (const form of document.querySelectorAll("[data-factory]")) {
  const sync = () => {
    const kind = form.querySelector("[data-kind]:checked")?.value;
    for (const part of form.querySelectorAll("[data-kind-part]")) {
      part.hidden = kind !== undefined && part.dataset.kindPart !== kind;
    }
    for (const select of form.querySelectorAll("[data-algorithm]")) {
      for (const group of form.querySelectorAll(`[data-params="${select.dataset.algorithm}"]`)) {
        group.hidden = group.dataset.forAlgorithm !== select.value;
      }
    }
  };
  form.addEventListener("change", sync);
  form.addEventListener("input", (event) => {
    const out = form.querySelector(`output[data-for="${event.target.id}"]`);
    if (out) out.textContent = event.target.value;
  });
  sync();
}

const data = document.getElementById("curriculum-chart");
const canvas = document.querySelector("[data-curriculum-chart]");
if (data && canvas && window.Chart) {
  const chart = JSON.parse(data.textContent);
  const colours = ["#dc3545", "#fd7e14", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#bcbd22"];
  new window.Chart(canvas, {
    type: "pie",
    data: {
      labels: chart.labels.map((label, i) => `${label} (${chart.values[i]})`),
      datasets: [{ data: chart.values, backgroundColor: chart.labels.map((_, i) => colours[i % colours.length]) }],
    },
    options: { animation: false, plugins: { legend: { position: "bottom" } } },
  });
}

const progress = document.querySelector("[data-progress-url]");
if (progress) {
  const busy = (state) => ["queued", "studying", "waiting"].includes(state);
  const poll = async () => {
    try {
      const response = await fetch(progress.dataset.progressUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const p = await response.json();
      progress.querySelector("[data-progress-label]").textContent = p.label;
      const total = p.matches_total === null ? "" : ` of ${p.matches_total}`;
      progress.querySelector("[data-progress-text]").textContent =
        `· ${p.matches_done}${total} matches studied · ${p.moves_studied} moves studied in all`;
      if (busy(p.state)) setTimeout(poll, 2000);
    } catch (error) {
      setTimeout(poll, 5000);
    }
  };
  setTimeout(poll, 2000);
}
