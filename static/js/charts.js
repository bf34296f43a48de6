// Every chart the site shows, drawn with Chart.js (static/vendor/chart.js, vendored, no
// CDN) and its zoom plugin: readable axes with round ticks, values on hover, a legend, and
// zoom (drag a box, Ctrl + wheel, or pinch on a phone; double-click or "Reset zoom" to go
// back). A chart's data comes from a <script type="application/json"> next to its canvas.
/* global Chart */

const POINT_STYLES = ["circle", "triangle", "rect", "rectRot", "star", "crossRot", "cross", "line"];

const zoomOptions = {
  zoom: {
    drag: { enabled: true, backgroundColor: "rgba(13, 110, 253, .12)" },
    wheel: { enabled: true, modifierKey: "ctrl" },
    pinch: { enabled: true },
    mode: "x",
  },
  pan: { enabled: true, mode: "x", modifierKey: "shift" },
  limits: { x: { min: "original", max: "original", minRange: 2 } },
};

/** A line chart of curves [{label, color, points: [{x, y}]}] over whole-number x. */
export function lineChart(canvas, data) {
  // Dots only where there is room for them (about 10 px a match); hover shows them anyway.
  const most = Math.max(0, ...data.curves.map((c) => c.points.length));
  const many = most * 10 > (canvas.parentElement || canvas).clientWidth;
  const chart = new Chart(canvas, {
    type: "line",
    data: {
      datasets: data.curves.map((curve, i) => ({
        label: curve.label,
        data: curve.points,
        borderColor: curve.color,
        backgroundColor: curve.color,
        borderWidth: 2,
        // Told apart without colour too: each curve its own point shape (and dash).
        pointStyle: POINT_STYLES[i % POINT_STYLES.length],
        borderDash: i >= POINT_STYLES.length ? [6, 3] : [],
        pointRadius: many ? 0 : 3.5,
        pointHoverRadius: 5,
        tension: 0,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: true,
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        x: {
          type: "linear",
          title: { display: true, text: data.xLabel },
          ticks: { precision: 0 },
          grace: 0,
        },
        y: {
          title: { display: true, text: data.measure },
          ticks: { precision: 0 },
          grace: "5%",
        },
      },
      plugins: {
        legend: { position: "bottom", labels: { usePointStyle: true, boxHeight: 6 } },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? `After match ${items[0].parsed.x}` : ""),
            label: (item) => ` ${item.dataset.label}: ${item.formattedValue}`,
          },
        },
        zoom: zoomOptions,
      },
    },
  });
  canvas.addEventListener("dblclick", () => chart.resetZoom());
  return chart;
}

/** A grouped bar chart: {labels, datasets: [{label, color, values}], unit}. */
export function barChart(canvas, data) {
  return new Chart(canvas, {
    type: "bar",
    data: {
      labels: data.labels,
      datasets: data.datasets.map((set) => ({
        label: set.label,
        data: set.values,
        backgroundColor: set.color,
        borderColor: set.color,
        borderWidth: 1,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { beginAtZero: true, max: 100, title: { display: true, text: data.unit } } },
      plugins: {
        legend: { position: "bottom", labels: { boxWidth: 12 } },
        tooltip: { callbacks: { label: (item) => ` ${item.dataset.label}: ${item.formattedValue}%` } },
      },
    },
  });
}

function start() {
  window.vfCharts = [];
  for (const figure of document.querySelectorAll("[data-chart]")) {
    const source = document.getElementById(figure.dataset.chart);
    const canvas = figure.querySelector("canvas");
    if (!source || !canvas) continue;
    const data = JSON.parse(source.textContent);
    const chart = figure.dataset.chartKind === "bar" ? barChart(canvas, data) : lineChart(canvas, data);
    window.vfCharts.push(chart); // for tests and people debugging in the console
    const reset = figure.querySelector("[data-chart-reset]");
    if (reset) reset.addEventListener("click", () => chart.resetZoom());
  }
}

start();
